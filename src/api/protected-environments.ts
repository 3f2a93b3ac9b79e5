/**
 * Protected environments (Premium and Ultimate): a project's,
 * `/projects/:id/protected_environments`, named by the environment's name,
 * and a group's, `/groups/:id/protected_environments`, named by a deployment
 * tier, which protects the environments of that tier in every project below
 * the group. A rule says who may deploy (`deploy_access_levels`) and whose
 * approvals a deployment needs (`approval_rules`); each entry is a role, a
 * user or a group. A project's rules need the Maintainer role, a group's the
 * Owner role (`admin_protected_environments`).
 */
import { z } from "zod";
import { apiPath } from "../client";
import { notDotSegments } from "../validation";
import { requestsOf } from "./core";
import { idForm } from "./id-form";
import { onGroup, onProject, type EngineContext, type Needs, type Rule } from "./needs";

/** One entry of `deploy_access_levels`: a role (`access_level`), a user or a group. */
export const deployAccess = z.looseObject({
  id: z.number(),
  access_level: z.number().nullable(),
  access_level_description: z.string().nullable(),
  user_id: z.number().nullable(),
  group_id: z.number().nullable(),
  /** 0: the group's direct members only; 1: the members of its subgroups too. */
  group_inheritance_type: z.number().optional(),
});
export type DeployAccess = z.output<typeof deployAccess>;

/** One entry of `approval_rules`: whose approvals count, and how many of them a deployment needs. */
export const environmentApprovalRule = deployAccess.extend({ required_approvals: z.number() });
export type EnvironmentApprovalRule = z.output<typeof environmentApprovalRule>;

/** A protected environment as the API answers it (no id of its own: its name is its key). */
export const protectedEnvironment = z.looseObject({
  name: z.string(),
  deploy_access_levels: z.array(deployAccess),
  /** Deprecated: servers refuse a count above 0 and take `approval_rules` instead. */
  required_approval_count: z.number().optional(),
  approval_rules: z.array(environmentApprovalRule).optional(),
});
export type ProtectedEnvironment = z.output<typeof protectedEnvironment>;

export const protectedEnvironmentRequests = requestsOf(protectedEnvironment);

/** The roles an entry may name (`ProtectedEnvironments::Authorizable::ALLOWED_ACCESS_LEVELS`), by the names programs use. */
export const ENVIRONMENT_ACCESS_LEVELS = { reporter: 20, developer: 30, maintainer: 40, admin: 60 } as const;
export type EnvironmentAccessLevelName = keyof typeof ENVIRONMENT_ACCESS_LEVELS;

/** The deployment tiers, the names a group's protected environments take (`Environment.tiers`). */
export const DEPLOYMENT_TIERS = ["production", "staging", "testing", "development", "other"] as const;
export type DeploymentTier = (typeof DEPLOYMENT_TIERS)[number];

/** `ProtectedEnvironments::Authorizable::GROUP_INHERITANCE_TYPE`. */
export const GROUP_INHERITANCE = { direct: 0, all: 1 } as const;

/** How many approvals one approval rule may require (`required_approvals`, 1 to 5). */
export const MAX_REQUIRED_APPROVALS = 5;

/** A name or number of `ENVIRONMENT_ACCESS_LEVELS`: the number the API takes. */
export const environmentLevelNumber = (value: unknown): unknown =>
  typeof value === "string" && value in ENVIRONMENT_ACCESS_LEVELS ? ENVIRONMENT_ACCESS_LEVELS[value as EnvironmentAccessLevelName] : value;

/** An access level as a program declares it: `maintainer` or 40. */
export const environmentAccessLevel = z.custom<EnvironmentAccessLevelName | number>(
  (value) => (typeof value === "string" && value in ENVIRONMENT_ACCESS_LEVELS) || (typeof value === "number" && (Object.values(ENVIRONMENT_ACCESS_LEVELS) as number[]).includes(value)),
  { error: `must be one of ${Object.keys(ENVIRONMENT_ACCESS_LEVELS).join(", ")} or the access levels ${Object.values(ENVIRONMENT_ACCESS_LEVELS).join(", ")}` },
);

/** A project's environment name as a program declares it: it travels as a path segment. */
export const environmentName = z
  .string()
  .min(1, { message: "must not be empty" })
  .max(255, { message: "must be at most 255 characters" })
  .refine((name) => name.trim() === name, { message: "must not start or end with spaces" })
  .refine((name) => !name.includes("/"), { message: "must not contain a slash (the API names the environment by one path segment)" })
  .refine(...notDotSegments);

/** A group's protected environment is named by a deployment tier. */
export const deploymentTier = z.custom<DeploymentTier>((value) => typeof value === "string" && (DEPLOYMENT_TIERS as readonly string[]).includes(value), {
  error: `must be a deployment tier: ${DEPLOYMENT_TIERS.join(", ")}`,
});

export const projectEnvironmentsOf = (project: string | number): string => apiPath`/projects/${project}/protected_environments`;
export const projectEnvironmentPath = (project: string | number, name: string): string => apiPath`/projects/${project}/protected_environments/${name}`;
export const groupEnvironmentsOf = (group: string | number): string => apiPath`/groups/${group}/protected_environments`;
export const groupEnvironmentPath = (group: string | number, tier: string): string => apiPath`/groups/${group}/protected_environments/${tier}`;

/** Who a program's entries name, by property (`deployAccessLevels`, `approvalRules`). */
export type NamedEntries = Record<string, readonly { userId?: number | undefined; groupId?: number | undefined }[] | undefined>;

/** Managing or reading a project's protected environments needs admin_protected_environments: Maintainer, on Premium and Ultimate. */
export const protectedEnvironmentNeeds = (args: { project: string | number }, named: NamedEntries = {}): Needs => ({
  on: onProject(args.project),
  role: "Maintainer",
  tier: "premium",
  phrase: "at least the Maintainer role (and the Premium or Ultimate tier)",
  ...(hasNamed(named) ? { rules: namedRules(named, (ctx, entry) => qualifiedOnProject(ctx, args.project, entry)) } : {}),
});

/** A group's protected environments need admin_protected_environments on the group: Owner, on Premium and Ultimate. */
export const groupProtectedEnvironmentNeeds = (args: { group: string | number }, named: NamedEntries = {}): Needs => ({
  on: onGroup(args.group),
  role: "Owner",
  tier: "premium",
  phrase: "the Owner role (and the Premium or Ultimate tier)",
  ...(hasNamed(named) ? { rules: namedRules(named, (ctx, entry) => qualifiedOnGroup(ctx, args.group, entry)) } : {}),
});

/** The entries of a property that name a user or group by a known id: one known only at apply is not judged. */
const namedIn = (entries: unknown): { userId?: number; groupId?: number }[] =>
  Array.isArray(entries) ? entries.filter((entry): entry is { userId?: number; groupId?: number } => typeof entry?.userId === "number" || typeof entry?.groupId === "number") : [];

const hasNamed = (named: NamedEntries) => Object.values(named).some((entries) => namedIn(entries).length > 0);

/**
 * The server drops, without a word, an entry naming a user or group its
 * owner does not qualify (ProtectedEnvironments::BaseService): each property
 * naming one is judged, the first such entry named.
 */
function namedRules(named: NamedEntries, judge: (ctx: EngineContext, entry: { userId?: number | undefined; groupId?: number | undefined }) => Promise<string | undefined>): Rule[] {
  return Object.entries(named).map(([property, entries]) => ({
    property,
    async judge(ctx) {
      for (const entry of namedIn(entries)) {
        const reason = await judge(ctx, typeof entry.userId === "number" ? { userId: entry.userId } : { groupId: entry.groupId! });
        if (reason !== undefined) return reason;
      }
      return undefined;
    },
  }));
}

/** A read that is not there (404) is `null`; another failure leaves the fact unknown (`undefined`). */
async function readOrNull<T>(ctx: EngineContext, path: string): Promise<T | null | undefined> {
  try {
    return await ctx.client.get<T>(path);
  } catch (error) {
    return (error as { status?: number }).status === 404 ? null : undefined;
  }
}

interface SharedWith {
  full_path?: string;
  shared_with_groups?: { group_id: number }[];
}

/** A project's entries name users with at least Developer there and groups the project is shared with. */
async function qualifiedOnProject(ctx: EngineContext, project: string | number, entry: { userId?: number | undefined; groupId?: number | undefined }): Promise<string | undefined> {
  if (entry.userId !== undefined) {
    const member = await readOrNull<{ access_level: number }>(ctx, apiPath`/projects/${project}/members/all/${entry.userId}`);
    if (member === undefined || (member !== null && member.access_level >= 30)) return undefined;
    return `user ${entry.userId} needs at least the Developer role on project ${project} to be named: the server drops the entry without a word`;
  }
  const owner = await readOrNull<SharedWith>(ctx, apiPath`/projects/${project}`);
  if (!owner || owner.shared_with_groups === undefined || owner.shared_with_groups.some((link) => link.group_id === entry.groupId)) return undefined;
  return `group ${entry.groupId} is not shared with project ${project}, and only groups it is shared with may be named: the server drops the entry without a word`;
}

/** A group's entries name its (and its ancestors') Maintainers and Owners, and itself, its subgroups and the groups it is shared with. */
async function qualifiedOnGroup(ctx: EngineContext, group: string | number, entry: { userId?: number | undefined; groupId?: number | undefined }): Promise<string | undefined> {
  if (entry.userId !== undefined) {
    const member = await readOrNull<{ access_level: number }>(ctx, apiPath`/groups/${group}/members/all/${entry.userId}`);
    if (member === undefined || (member !== null && member.access_level >= 40)) return undefined;
    return `user ${entry.userId} needs the Maintainer or Owner role on group ${group} to be named: the server drops the entry without a word`;
  }
  const [owner, named] = await Promise.all([readOrNull<SharedWith>(ctx, apiPath`/groups/${group}`), readOrNull<SharedWith>(ctx, apiPath`/groups/${entry.groupId!}`)]);
  if (!owner || owner.full_path === undefined || named === undefined) return undefined;
  if (named === null) return `group ${entry.groupId} does not exist, or the token's user cannot see it`;
  const below = named.full_path === owner.full_path || (named.full_path ?? "").startsWith(`${owner.full_path}/`);
  if (below || (owner.shared_with_groups ?? []).some((link) => link.group_id === entry.groupId)) return undefined;
  return `group ${entry.groupId} (${named.full_path}) is neither group ${group}, one of its subgroups nor a group it is shared with: the server drops the entry without a word`;
}

/** A rule's recorded id: `projects/<project, encoded>/protected_environments/<name, encoded>` or `groups/<group>/protected_environments/<tier>`. */
const RULE_ID = /^(projects|groups)\/([^/]+)\/protected_environments\/([^/]+)$/;

export interface ProtectedEnvironmentId {
  /** The project or the group, as the id names it. */
  owner: string;
  name: string;
  /** The rule's API path. */
  path: string;
}

function parseRuleId(id: string, kind: "projects" | "groups"): ProtectedEnvironmentId | undefined {
  const match = RULE_ID.exec(id);
  if (!match || match[1] !== kind) return undefined;
  try {
    return { owner: decodeURIComponent(match[2]!), name: decodeURIComponent(match[3]!), path: "/" + id };
  } catch {
    return undefined;
  }
}

export const protectedEnvironmentId = (project: string | number, name: string): string => projectEnvironmentPath(project, name).slice(1);
export const groupProtectedEnvironmentId = (group: string | number, tier: string): string => groupEnvironmentPath(group, tier).slice(1);
export const parseProtectedEnvironmentId = (id: string) => parseRuleId(id, "projects");
export const parseGroupProtectedEnvironmentId = (id: string) => {
  const parsed = parseRuleId(id, "groups");
  return parsed && (DEPLOYMENT_TIERS as readonly string[]).includes(parsed.name) ? parsed : undefined;
};

export const protectedEnvironmentIdForm = idForm("of the form projects/<project>/protected_environments/<name>, the project and the name URL-encoded", parseProtectedEnvironmentId);
export const groupProtectedEnvironmentIdForm = idForm("of the form groups/<group>/protected_environments/<tier>, the group URL-encoded, the tier a deployment tier", parseGroupProtectedEnvironmentId);
