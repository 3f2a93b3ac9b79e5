/**
 * Project and group badges: `/projects/:id/badges` and `/groups/:id/badges`.
 * A project's list also shows its groups' badges (`kind: "group"`); one badge
 * is read only through its own project or group.
 */
import { z } from "zod";
import type { PlatformClient } from "../client";
import { isHttpUrl } from "../validation";
import { requestsOf } from "./core";
import type { Needs, Operation } from "./needs";
import { ownerNamedBy, ownerOf, type Owner, type OwnerKind } from "./owner";
import { idForm } from "./id-form";

/** A badge rendered for a project or group: what `GET .../badges/render` answers. */
export const renderedBadge = z.looseObject({
  /** May contain placeholders such as `%{project_path}`. */
  link_url: z.string(),
  image_url: z.string(),
  /** Placeholders resolved with the project's values (for a group: its first project by creation date; none: as written). */
  rendered_link_url: z.string(),
  rendered_image_url: z.string(),
});

/** A badge as the API returns it. */
export const badge = renderedBadge.extend({
  id: z.number(),
  name: z.string().nullable(),
  /** `project`, or `group` for a group's badge shown in a project's list. */
  kind: z.enum(["project", "group"]),
});
export type Badge = z.output<typeof badge>;

/**
 * An http(s) URL that may contain `%{placeholder}`s, which the server fills in
 * when it renders the URL.
 */
export const urlWithPlaceholders = z.string().refine((value) => isHttpUrl(value.replace(/%\{[a-z_]+\}/g, "placeholder")), {
  message: "must be an http(s) URL (placeholders such as %{project_path} are allowed)",
});

/** The badges of the project or group at `ownerPath` (`/projects/1` → `/projects/1/badges`). */
export const badgesOf = (ownerPath: string): string => `${ownerPath}/badges`;

/** The badges of the project or group the arguments name (`/projects/acme%2Fweb/badges`). */
/**
 * Managing a project's badges needs admin_project (Maintainer); a group's, admin_group (Owner). Rendering one too.
 * Reading them needs only to see the owner (read_project, read_group).
 */
export const badgeNeeds = (args: { project?: string | number; group?: string | number }, operation: Operation = "create"): Needs =>
  operation === "read" ? { on: ownerNamedBy(args) } : { on: ownerNamedBy(args), role: args.project !== undefined ? "Maintainer" : "Owner" };

export const badgesPath = (owner: { project?: string | number; group?: string | number }): string => badgesOf(ownerOf(owner).path);

/** A badge's id as resources record it: its API path without the leading slash (`projects/acme%2Fweb/badges/12`). */
export const badgeIdOf = (owner: Owner, badgeId: number): string => `${owner.kind}s/${encodeURIComponent(String(owner.reference))}/badges/${badgeId}`;

/** A badge's recorded id, or its number alone. */
const BADGE_ID = /^(?:(projects|groups)\/[^/]+\/badges\/)?(\d+)$/;

/** A recorded badge id read back: its owner's kind and its API path; undefined when it is not one. */
export function parseBadgeId(id: string): { kind: OwnerKind; path: string } | undefined {
  const match = BADGE_ID.exec(id);
  if (!match?.[1]) return undefined;
  return { kind: match[1] === "projects" ? "project" : "group", path: "/" + id };
}

/** A badge id as resources record it. */
export const badgeIdForm = idForm("of the form projects/<project>/badges/<id> or groups/<group>/badges/<id>", parseBadgeId);

/** A badge's number from its `badgeId` (12) or its recorded id (`projects/acme%2Fweb/badges/12`). */
export const badgeNumberOf = (value: string | number): string | undefined => (typeof value === "number" ? String(value) : BADGE_ID.exec(value)?.[2]);

/** The typed requests of badges. */
export const badgeRequests = requestsOf(badge);
const calls = badgeRequests;

/** Only the owner's own badges: a project's list also contains its groups' badges. */
export function findOwnBadge(client: PlatformClient, owner: Owner, name: string | undefined, matches: (badge: Badge) => boolean): Promise<Badge | undefined> {
  return calls.find(client, badgesOf(owner.path), name !== undefined ? { name } : undefined, (found) => found.kind === owner.kind && matches(found));
}

/** The owner's own badges (a project's list without its groups' badges). */
export async function ownBadges(client: PlatformClient, owner: Owner): Promise<Badge[]> {
  return (await calls.list(client, badgesOf(owner.path))).filter((found) => found.kind === owner.kind);
}
