/**
 * Project and group webhooks: `/projects/:id/hooks` and `/groups/:id/hooks`
 * (group webhooks: Premium and up). The token is write-only: no answer
 * shows it; custom headers show their names only.
 */
import { z } from "zod";
import { apiPath, pathSegment } from "../client";
import { requestsOf } from "./core";
import { field, snakeCase } from "./fields";
import { idForm } from "./id-form";
import type { Needs } from "./needs";
import { onGroup, onProject, type Owner, type OwnerKind } from "./owner";

/** The event switches of a project webhook (`push_events`, ...), as the program names them. */
export const PROJECT_HOOK_EVENTS = [
  "pushEvents",
  "tagPushEvents",
  "mergeRequestsEvents",
  "issuesEvents",
  "confidentialIssuesEvents",
  "noteEvents",
  "confidentialNoteEvents",
  "jobEvents",
  "pipelineEvents",
  "wikiPageEvents",
  "deploymentEvents",
  "featureFlagEvents",
  "releasesEvents",
  "milestoneEvents",
  "emojiEvents",
  "resourceAccessTokenEvents",
  "resourceDeployTokenEvents",
  "vulnerabilityEvents",
] as const;

/** A group webhook's switches: a project webhook's, and these. */
export const GROUP_HOOK_EVENTS = [...PROJECT_HOOK_EVENTS, "subgroupEvents", "memberEvents", "projectEvents"] as const;

export type HookEvent = (typeof GROUP_HOOK_EVENTS)[number];

/** The test triggers of a hook (`POST .../hooks/:hook_id/test/:trigger`): its event switches' API names. */
export const hookTriggers = (kind: OwnerKind): string[] => (kind === "project" ? PROJECT_HOOK_EVENTS : GROUP_HOOK_EVENTS).map(snakeCase);

const events = Object.fromEntries(GROUP_HOOK_EVENTS.map((name) => [snakeCase(name), z.boolean().optional()]));

/**
 * A hook as the API returns it. Its URL may carry credentials (user info, a
 * token in the query): a data function's result holding one is secret.
 */
export const hook = z.looseObject({
  id: z.number(),
  url: field(z.string(), { secret: true }),
  name: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  created_at: z.string().optional(),
  project_id: z.number().optional(),
  group_id: z.number().optional(),
  enable_ssl_verification: z.boolean().optional(),
  /** `executable`, `temporarily_disabled` (after repeated failures, until `disabled_until`) or `disabled`. */
  alert_status: z.string().optional(),
  disabled_until: z.string().nullable().optional(),
  push_events_branch_filter: z.string().nullable().optional(),
  branch_filter_strategy: z.string().optional(),
  custom_webhook_template: z.string().nullable().optional(),
  /** The custom headers' names; their values are never shown. */
  custom_headers: z.array(z.looseObject({ key: z.string() })).optional(),
  ...events,
});
export type Hook = z.output<typeof hook>;
export const hookRequests = requestsOf(hook);

/** The hooks of the project or group at `ownerPath` (`/projects/acme%2Fweb` → `/projects/acme%2Fweb/hooks`). */
export const hooksOf = (ownerPath: string): string => `${ownerPath}/hooks`;

/** The hooks of the project or group the arguments name. */
export const hooksPath = (args: { project?: string | number; group?: string | number }): string =>
  args.project !== undefined ? apiPath`/projects/${args.project}/hooks` : apiPath`/groups/${args.group!}/hooks`;

/** Managing a project's hooks needs the Maintainer role; a group's, the Owner role and the Premium tier (group webhooks). Reading them too. */
export const hookNeeds = (kind: OwnerKind, owner: string | number): Needs =>
  kind === "project"
    ? { on: onProject(owner), role: "Maintainer" }
    : // The server answers 403 for a missing tier as for a missing role (the policy's `group_webhooks` licence rule): the words say both.
      { on: onGroup(owner), role: "Owner", tier: "premium", phrase: "the Owner role, with the group on the Premium or Ultimate tier (group webhooks)" };

/** A hook's id as resources record it: its API path without the leading slash (`projects/acme%2Fweb/hooks/7`). */
export const hookIdOf = (owner: Owner, hookId: number): string => `${owner.kind}s/${encodeURIComponent(String(owner.reference))}/hooks/${hookId}`;

const HOOK_ID = /^(projects|groups)\/[^/]+\/hooks\/(\d+)$/;

/** A recorded hook id read back: its owner's kind, its API path and its number; undefined when it is not one. */
export function parseHookId(id: string): { kind: OwnerKind; path: string; hookId: number } | undefined {
  const match = HOOK_ID.exec(id);
  if (!match) return undefined;
  return { kind: match[1] === "projects" ? "project" : "group", path: "/" + id, hookId: Number(match[2]) };
}

export const projectHookIdForm = idForm("of the form projects/<project>/hooks/<id>", (id) => (parseHookId(id)?.kind === "project" ? parseHookId(id) : undefined));
export const groupHookIdForm = idForm("of the form groups/<group>/hooks/<id>", (id) => (parseHookId(id)?.kind === "group" ? parseHookId(id) : undefined));

/** Query parameters whose values are credentials, as servers filter them from logs (a name ending in token or key, or holding password, secret or signature). */
const CREDENTIAL_PARAMETER = /token$|key$|password|secret|signature|^sig$|^auth/i;

/**
 * The credentials a hook URL carries: its password (or, without one, its
 * user name, which is then the token: `https://<token>@host`), and the values
 * of query parameters named as credentials. Empty for a URL without any (or
 * one that does not parse). A user name beside a password is no secret of
 * its own: masked wherever it stood, a common word would be cut out of text.
 */
export function urlCredentials(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const part of [parsed.password !== "" ? parsed.password : parsed.username]) {
    if (part === "") continue;
    found.push(part);
    try {
      found.push(decodeURIComponent(part));
    } catch {
      // Not an escape: the part as written.
    }
  }
  for (const [name, value] of parsed.searchParams) if (value !== "" && CREDENTIAL_PARAMETER.test(name)) found.push(value, encodeURIComponent(value));
  return [...new Set(found)];
}

/** Custom headers as the API takes them (`[{key, value}]`). */
export const customHeadersBody = (headers: Record<string, string>): { key: string; value: string }[] => Object.entries(headers).map(([key, value]) => ({ key, value }));

/** A custom header's path, to set or remove one (`.../hooks/7/custom_headers/X-Team`). */
export const customHeaderPath = (hookPath: string, key: string): string => `${hookPath}/custom_headers/${pathSegment(key)}`;

/** The path that fires a hook's test event of `trigger` (`push_events`, ...). */
export const hookTestPath = (hookPath: string, trigger: string): string => `${hookPath}/test/${pathSegment(trigger)}`;
