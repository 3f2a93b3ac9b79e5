/**
 * Sharing a group or a project with a group (`POST /groups/:id/share`,
 * `POST /projects/:id/share`, `DELETE .../share/:group_id`): the answers, the
 * paths and ids, and the server's rules a share must meet, which the preview
 * judges. A share is read as its owner's answer lists it (`shared_with_groups`).
 */
import { z } from "zod";
import { ApiError, pathSegment, type PlatformClient } from "../client";
import { requestsOf } from "./core";
import { groupPath, groupRequests } from "./groups";
import { idForm } from "./id-form";
import { levelOf, roleName, sourceFacts, sourcePath, type MemberRoleName, type SourceFacts } from "./members";
import type { Needs, Operation, Rule } from "./needs";
import { onGroup, onProject, type OwnerKind } from "./owner";

/** A share as its owner's answer lists it (`shared_with_groups`). */
export const sharedWithGroup = z.looseObject({
  group_id: z.number(),
  group_full_path: z.string().optional(),
  group_access_level: z.number(),
  expires_at: z.string().nullable(),
});
export type Share = z.output<typeof sharedWithGroup>;

/** What a share's owner answers: its shares. */
const sharingOwner = z.looseObject({ id: z.number(), shared_with_groups: z.array(sharedWithGroup).optional() });
const ownerRequests = requestsOf(sharingOwner);

/** A project's share as `POST /projects/:id/share` answers it (`Entities::ProjectGroupLink`). */
const projectGroupLink = z.looseObject({ group_id: z.number(), group_access: z.number(), expires_at: z.string().nullable() });
const projectLinkRequests = requestsOf(projectGroupLink);
/** A group's share as `POST /groups/:id/share` answers it: the group with its shares. */
const groupShareRequests = requestsOf(sharingOwner);

/** The share of the owner at `ownerPath` with group `groupId`. */
export const sharePath = (ownerPath: string, groupId: number): string => `${ownerPath}/share/${pathSegment(groupId)}`;

/** A share's id as resources record it: `groups/acme/share/12`, `projects/acme%2Fweb/share/12`. */
export const shareId = (kind: OwnerKind, ref: string | number, groupId: number): string => `${kind}s/${encodeURIComponent(String(ref))}/share/${groupId}`;

const SHARE_ID = /^(groups|projects)\/([^/]+)\/share\/(\d+)$/;

/** A recorded share id read back; undefined when it is not one. */
export function parseShareId(id: string): { kind: OwnerKind; ref: string; ownerPath: string; groupId: number } | undefined {
  const match = SHARE_ID.exec(id);
  if (!match) return undefined;
  return { kind: match[1] === "groups" ? "group" : "project", ref: decodeURIComponent(match[2]!), ownerPath: `/${match[1]}/${match[2]}`, groupId: Number(match[3]) };
}

export const groupShareIdForm = idForm("of the form groups/<group>/share/<group id>", (id) => (parseShareId(id)?.kind === "group" ? parseShareId(id) : undefined));
export const projectShareIdForm = idForm("of the form projects/<project>/share/<group id>", (id) => (parseShareId(id)?.kind === "project" ? parseShareId(id) : undefined));

/** The owner's shares, as its answer lists them. */
export async function sharesOf(client: PlatformClient, ownerPath: string): Promise<Share[]> {
  return (await ownerRequests.get(client, ownerPath)).shared_with_groups ?? [];
}

/** The numeric id of the group a share names (read once for a path). */
export async function sharedGroupId(client: PlatformClient, group: string | number): Promise<number> {
  return typeof group === "number" ? group : (await groupRequests.get(client, groupPath(group), { with_projects: false })).id;
}

/** Makes the share; its answer as the owner lists it. `findCreated` settles a lost answer. */
export async function createShare(client: PlatformClient, kind: OwnerKind, ownerPath: string, body: Record<string, unknown>, groupId: number): Promise<Share> {
  const find = async () => (await sharesOf(client, ownerPath)).find((share) => share.group_id === groupId);
  if (kind === "group") {
    const group = await groupShareRequests.post(client, `${ownerPath}/share`, body, async () => ((await find()) ? { id: 0, shared_with_groups: [(await find())!] } : undefined));
    const share = (group.shared_with_groups ?? []).find((one) => one.group_id === groupId);
    if (!share) throw new Error(`POST ${ownerPath}/share answered without the share of group ${groupId}`);
    return share;
  }
  const link = await projectLinkRequests.post(client, `${ownerPath}/share`, body, async () => {
    const share = await find();
    return share && { group_id: share.group_id, group_access: share.group_access_level, expires_at: share.expires_at };
  });
  return { group_id: link.group_id, group_access_level: link.group_access, expires_at: link.expires_at };
}

/** What a share's steps name: its owner, the invited group, the role. */
export interface ShareArgs {
  kind: OwnerKind;
  ref: string | number;
  sharedWith: string | number;
  groupAccess?: MemberRoleName | number;
}

const groupWords = (group: string | number) => `group ${group}`;

/** The groups above a path, the nearest first, and itself first when `self`. */
function chainOf(fullPath: string, self: boolean): string[] {
  const parts = fullPath.split("/");
  const chain: string[] = [];
  for (let end = parts.length - (self ? 0 : 1); end >= 1; end--) chain.push(parts.slice(0, end).join("/"));
  return chain;
}

async function groupOr404(client: PlatformClient, group: string | number) {
  try {
    return await groupRequests.get(client, groupPath(group), { with_projects: false });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/**
 * The server's rules for a new share: the invited group is one the token's
 * user can see; sharing is not locked on the owner's group or one above it
 * (`share_with_group_lock`); the top-level group does not prevent sharing
 * outside its hierarchy; a project's share gives no higher role than the
 * token's user has there.
 */
function shareRules(args: ShareArgs): Rule[] {
  return [
    {
      property: "sharedWith",
      async judge(ctx) {
        const owner = await sourceFacts(ctx.client, args.kind, args.ref);
        if (!owner) return undefined;
        const invited = await groupOr404(ctx.client, args.sharedWith);
        if (!invited) return `${groupWords(args.sharedWith)} does not exist, or the token's user cannot see it`;
        const lockedAt = await lockedGroup(ctx.client, owner);
        if (lockedAt) return `sharing with groups is locked on group ${lockedAt} (share_with_group_lock), and the server refuses every share below it`;
        const root = owner.fullPath.split("/")[0]!;
        const top = await groupOr404(ctx.client, root);
        if (top?.prevent_sharing_groups_outside_hierarchy === true && invited.full_path.split("/")[0] !== root) {
          return `group ${root} prevents sharing with groups outside its hierarchy, and ${invited.full_path} is outside it`;
        }
        return undefined;
      },
    },
    ...(args.kind === "project" && args.groupAccess !== undefined
      ? [
          {
            property: "groupAccess",
            async judge(ctx, user) {
              if (user.isAdmin) return undefined;
              const owner = await sourceFacts(ctx.client, args.kind, args.ref);
              if (!owner) return undefined;
              const level = levelOf(args.groupAccess!);
              const own = await ctx.client.get<{ access_level: number }>(`${owner.apiPath}/members/all/${user.userId}`).catch(() => undefined);
              if (!own || own.access_level >= level) return undefined;
              return `a share gives no higher role than the sharer's own: the token's user (${user.username}) is ${roleName(own.access_level)} of project ${owner.fullPath}, below ${roleName(level)}`;
            },
          } satisfies Rule,
        ]
      : []),
  ];
}

/** The group of the owner's chain on which sharing is locked; undefined for none (or none the reads show). */
async function lockedGroup(client: PlatformClient, owner: SourceFacts): Promise<string | undefined> {
  for (const path of chainOf(owner.fullPath, owner.kind === "group")) {
    const group = await groupOr404(client, path);
    if (group?.share_with_group_lock) return path;
  }
  return undefined;
}

/**
 * Sharing a group needs the Owner role on it; a project, the Maintainer role.
 * Reading a share needs only to see its owner.
 */
export function shareNeeds(args: ShareArgs, operation: Operation): Needs {
  const on = args.kind === "group" ? onGroup(args.ref) : onProject(args.ref);
  if (operation === "read") return { on };
  return {
    on,
    role: args.kind === "group" ? "Owner" : "Maintainer",
    // A group share the service refuses (not an Owner, a group unseen, sharing prevented) is `404 Not Found`.
    ...(args.kind === "group" && operation === "create" ? { refusedWith: { 404: ["role"] } } : {}),
    ...(operation === "create" ? { rules: shareRules(args) } : {}),
    // One share per invited group: a second one the server refuses (409).
    unique: {
      list: `${args.kind} shares`,
      read: (ctx, owner) => sharesOf(ctx.client, owner.apiPath),
      find: (shares, owner) => {
        const same = (shares as Share[]).find((share) =>
          typeof args.sharedWith === "number" ? share.group_id === args.sharedWith : share.group_full_path?.toLowerCase() === args.sharedWith.toLowerCase(),
        );
        return same && { what: `a share with group ${same.group_full_path ?? same.group_id}`, id: shareId(args.kind, owner.fullPath, same.group_id) };
      },
    },
  };
}

export const shareOwnerPath = (kind: OwnerKind, ref: string | number): string => sourcePath(kind, ref);
