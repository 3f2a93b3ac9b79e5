/**
 * What ProtectedEnvironment (a project's environment, by name) and
 * GroupProtectedEnvironment (a group's deployment tier) share: who may
 * deploy and whose approvals a deployment needs, each entry a role, a user
 * or a group, and how a rule is made, changed and unprotected.
 *
 * - create: `POST` with the deploy access levels and approval rules; a lost
 *   answer is found by the rule's name.
 * - update: one `GET` of the rule (the ids of its entries), then one `PUT`
 *   that changes each kept entry in place by its id, adds what is new and
 *   destroys (`_destroy`) what left the program: the environment is never
 *   unprotected in between, as an unprotect-then-protect would leave it.
 *   Each entry sent names its role, user or group as well as its id: the
 *   server drops an entry that names none of them.
 * - delete: `DELETE`: the environment is unprotected.
 *
 * The deprecated `required_approval_count` is not an input: servers refuse
 * a count above 0 and take approval rules instead.
 */
import { z } from "zod";
import { field } from "../api/fields";
import { parsedId, type IdForm } from "../api/id-form";
import type { Needs } from "../api/needs";
import { ownerReference } from "../api/owner";
import {
  MAX_REQUIRED_APPROVALS,
  deploymentTier,
  environmentAccessLevel,
  environmentLevelNumber,
  environmentName,
  groupEnvironmentsOf,
  groupProtectedEnvironmentId,
  groupProtectedEnvironmentIdForm,
  groupProtectedEnvironmentNeeds,
  protectedEnvironmentId,
  protectedEnvironmentIdForm,
  protectedEnvironmentNeeds,
  protectedEnvironmentRequests,
  projectEnvironmentsOf,
  type DeployAccess,
  type EnvironmentApprovalRule,
  type ProtectedEnvironment as ProtectedEnvironmentLive,
} from "../api/protected-environments";
import { defineObjectResource, named, type EngineContext, type StepWords } from "../engine/definition";
import { idPair, ownerAddress, type TerraformTarget } from "../engine/estate";
import { adoptExisting, ownerInput } from "./common";

type OwnerKind = "project" | "group";

/** Who an entry names: exactly one of a role, a user or a group. */
const whoFields = {
  /** A role: `reporter`, `developer`, `maintainer` or `admin` (or 20, 30, 40, 60): its members and those above. */
  accessLevel: environmentAccessLevel.optional(),
  /** A user, by id. */
  userId: z.number().int().positive({ message: "must be a numeric id" }).optional(),
  /** A group, by id: its members. */
  groupId: z.number().int().positive({ message: "must be a numeric id" }).optional(),
  /** For a group: 0 (the default) counts its direct members only, 1 the members of its subgroups too. */
  groupInheritanceType: z.union([z.literal(0), z.literal(1)], { message: "must be 0 (the group's direct members) or 1 (its subgroups' members too)" }).optional(),
};

/** The entry names exactly one of a role, a user or a group, and an inheritance only with a group. */
function oneWho(entry: { accessLevel?: unknown; userId?: unknown; groupId?: unknown; groupInheritanceType?: unknown }, issues: z.core.$RefinementCtx) {
  const named = [entry.accessLevel, entry.userId, entry.groupId].filter((value) => value !== undefined).length;
  if (named !== 1) issues.addIssue({ code: "custom", message: "must name exactly one of accessLevel, userId or groupId", path: [] });
  if (entry.groupInheritanceType !== undefined && entry.groupId === undefined) issues.addIssue({ code: "custom", message: "applies to a groupId entry only", path: ["groupInheritanceType"] });
}

const deployEntry = z.object(whoFields).strict().superRefine(oneWho);
const approvalEntry = z
  .object({
    ...whoFields,
    /** How many approvals of theirs a deployment needs (1 to 5, default 1). */
    requiredApprovals: z
      .number()
      .int({ message: "must be a whole number" })
      .min(1, { message: "must be at least 1" })
      .max(MAX_REQUIRED_APPROVALS, { message: `must be at most ${MAX_REQUIRED_APPROVALS}` })
      .default(1),
  })
  .strict()
  .superRefine(oneWho);

export type EnvironmentDeployEntry = z.output<typeof deployEntry>;
export type EnvironmentApprovalEntry = z.output<typeof approvalEntry>;

interface Normalized {
  accessLevel?: number;
  userId?: number;
  groupId?: number;
  groupInheritanceType?: 1;
  requiredApprovals?: number;
}

/** One entry in one form, declared or read: the role as its number, an inheritance only when it is 1. */
function normalized(entry: { accessLevel?: unknown; userId?: unknown; groupId?: unknown; groupInheritanceType?: unknown; requiredApprovals?: unknown }, approvals: boolean): Normalized {
  const who: Normalized =
    entry.userId !== undefined ? { userId: entry.userId as number } : entry.groupId !== undefined ? { groupId: entry.groupId as number } : { accessLevel: environmentLevelNumber(entry.accessLevel) as number };
  if (entry.groupId !== undefined && entry.groupInheritanceType === 1) who.groupInheritanceType = 1;
  if (approvals) who.requiredApprovals = (entry.requiredApprovals as number | undefined) ?? 1;
  return who;
}

/** A server's entry in the program's form. */
function fromLive(entry: DeployAccess | EnvironmentApprovalRule, approvals: boolean): Normalized {
  return normalized(
    {
      ...(entry.user_id != null ? { userId: entry.user_id } : entry.group_id != null ? { groupId: entry.group_id, groupInheritanceType: entry.group_inheritance_type } : { accessLevel: entry.access_level }),
      ...(approvals ? { requiredApprovals: (entry as EnvironmentApprovalRule).required_approvals } : {}),
    },
    approvals,
  );
}

/** Whom an entry names, the key by which a declared entry and a server's are the same one. */
const whoKey = (entry: Normalized): string => (entry.userId !== undefined ? `user ${entry.userId}` : entry.groupId !== undefined ? `group ${entry.groupId}` : `role ${entry.accessLevel}`);

/** Two lists hold the same entries, in any order. */
function sameEntries(declared: unknown, live: unknown, approvals: boolean): boolean {
  if (!Array.isArray(declared) || !Array.isArray(live) || declared.length !== live.length) return false;
  const keys = (list: unknown[]) => list.map((entry) => JSON.stringify(normalized(entry as Record<string, unknown>, approvals))).sort();
  return keys(declared).join("\n") === keys(live).join("\n");
}

const noRepeats = (list: readonly Record<string, unknown>[]) => new Set(list.map((entry) => whoKey(normalized(entry, false)))).size === list.length;
const REPEAT = { message: "must not name the same role, user or group twice" };

const deployAccessLevels = field(
  z.array(deployEntry).min(1, { message: "must name at least one role, user or group who may deploy" }).max(100, { message: "must have at most 100 entries" }).refine(noRepeats, REPEAT),
  {
    fromApi: (live) => ((live.deploy_access_levels as DeployAccess[] | undefined) ?? []).map((entry) => fromLive(entry, false)),
    sameValue: (declared, live) => sameEntries(declared, live, false),
  },
);

const approvalRules = field(z.array(approvalEntry).max(100, { message: "must have at most 100 entries" }).refine(noRepeats, REPEAT).optional(), {
  fromApi: (live) => ((live.approval_rules as EnvironmentApprovalRule[] | undefined) ?? []).map((entry) => fromLive(entry, true)),
  sameValue: (declared, live) => sameEntries(declared, live, true),
  unsetAs: [],
});

/** An entry as the API takes it. */
function apiEntry(entry: Normalized, approvals: boolean): Record<string, unknown> {
  return {
    ...(entry.userId !== undefined ? { user_id: entry.userId } : entry.groupId !== undefined ? { group_id: entry.groupId, group_inheritance_type: entry.groupInheritanceType ?? 0 } : { access_level: entry.accessLevel }),
    ...(approvals ? { required_approvals: entry.requiredApprovals ?? 1 } : {}),
  };
}

/** Whom a server's entry names, as the API takes it: sent with its id so that the server keeps the entry (it drops one naming nobody). */
const liveWho = (entry: DeployAccess | EnvironmentApprovalRule): Record<string, unknown> =>
  entry.user_id != null ? { user_id: entry.user_id } : entry.group_id != null ? { group_id: entry.group_id } : { access_level: entry.access_level };

/**
 * The PUT entries that bring one list to the declared one: each server entry
 * naming a declared role, user or group kept by its id (changed in place
 * where its inheritance or required approvals differ), the others destroyed,
 * the declared ones the server lacks added.
 */
function listChanges(live: readonly (DeployAccess | EnvironmentApprovalRule)[], declared: readonly Normalized[], approvals: boolean): Record<string, unknown>[] {
  const changes: Record<string, unknown>[] = [];
  const wanted = [...declared];
  for (const entry of live) {
    const current = fromLive(entry, approvals);
    const index = wanted.findIndex((one) => whoKey(one) === whoKey(current));
    if (index < 0) {
      changes.push({ id: entry.id, ...liveWho(entry), _destroy: true });
      continue;
    }
    const [kept] = wanted.splice(index, 1);
    const change: Record<string, unknown> = {};
    if (kept!.groupId !== undefined && (kept!.groupInheritanceType ?? 0) !== (current.groupInheritanceType ?? 0)) change.group_inheritance_type = kept!.groupInheritanceType ?? 0;
    if (approvals && kept!.requiredApprovals !== current.requiredApprovals) change.required_approvals = kept!.requiredApprovals;
    if (Object.keys(change).length > 0) changes.push({ id: entry.id, ...liveWho(entry), ...change });
  }
  for (const entry of wanted) changes.push(apiEntry(entry, approvals));
  return changes;
}

interface Inputs {
  name: string;
  deployAccessLevels: EnvironmentDeployEntry[];
  approvalRules?: EnvironmentApprovalEntry[] | undefined;
}

const normalizedList = (list: readonly Record<string, unknown>[] | undefined, approvals: boolean) => (list ?? []).map((entry) => normalized(entry, approvals));

/** The POST's body. */
function createBody(args: Inputs): Record<string, unknown> {
  return {
    name: args.name,
    deploy_access_levels: normalizedList(args.deployAccessLevels, false).map((entry) => apiEntry(entry, false)),
    ...(args.approvalRules && args.approvalRules.length > 0 ? { approval_rules: normalizedList(args.approvalRules, true).map((entry) => apiEntry(entry, true)) } : {}),
  };
}

/** The one PUT body that brings the rule to the inputs; empty when it is there already. Approval rules the program does not declare are left as they are. */
function putBody(args: Inputs, live: ProtectedEnvironmentLive, approvalsChanged: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const deploy = listChanges(live.deploy_access_levels, normalizedList(args.deployAccessLevels, false), false);
  if (deploy.length > 0) body.deploy_access_levels = deploy;
  if (args.approvalRules !== undefined || approvalsChanged) {
    const approvals = listChanges(live.approval_rules ?? [], normalizedList(args.approvalRules ?? [], true), true);
    if (approvals.length > 0) body.approval_rules = approvals;
  }
  return body;
}

/** Who an entry lets in, in a reviewer's words. */
function entryInWords(entry: Record<string, unknown>): string {
  const one = normalized(entry, false);
  if (one.userId !== undefined) return `user ${named(String(one.userId))}`;
  if (one.groupId !== undefined) return `the members of group ${named(String(one.groupId))}${one.groupInheritanceType === 1 ? " and its subgroups" : ""}`;
  const roles: Record<number, string> = { 20: "Reporters and above", 30: "Developers and above", 40: "Maintainers and above", 60: "administrators" };
  return roles[one.accessLevel as number] ?? `access level ${named(String(entry.accessLevel))}`;
}

/** A tier-named rule protects every environment of its tier in the group's projects; a project's, its own environment. */
const deletionWords =
  (kind: OwnerKind): StepWords =>
  ({ kind: step, before, after, owner }) => {
    // A delete unprotects, and so does a replacement under another name (the old rule goes).
    if (before === undefined || (after !== undefined && !(step === "replace" && before.name !== after.name))) return undefined;
    const name = typeof before.name === "string" ? named(before.name) : "it";
    const approvals = Array.isArray(before.approvalRules) && before.approvalRules.length > 0 ? "; deployments no longer wait for the approvals its approval rules required" : "";
    const who = Array.isArray(before.deployAccessLevels) ? ` (was ${(before.deployAccessLevels as Record<string, unknown>[]).map(entryInWords).join(", ")})` : "";
    return kind === "project"
      ? `unprotects it: anyone with the Developer role on ${owner} may then deploy to environment ${name}${who}, unless a group's rule protects its tier${approvals}`
      : `unprotects it: anyone with the Developer role may then deploy to the ${name} environments of the projects of ${owner}${who}, unless a project's own rule protects them${approvals}`;
  };

/** A Terraform id of an object a project or group holds by its key: `<owner>:<environment>`. */
const keyTarget =
  (kind: OwnerKind) =>
  (id: string): TerraformTarget | undefined => {
    const parts = idPair(id);
    return parts ? { owner: { kind, ref: parts[0] }, key: parts[1] } : undefined;
  };

/** The declaration of one kind: ProtectedEnvironment (`project`) or GroupProtectedEnvironment (`group`). */
export function environmentProtectionDefinition<K extends OwnerKind>(kind: K, name: string) {
  const project = kind === "project";
  const idFormOf: IdForm<{ owner: string; name: string; path: string }> = project ? protectedEnvironmentIdForm : groupProtectedEnvironmentIdForm;
  const ownerShape = { [kind]: ownerInput(ownerReference) } as { [P in K]: typeof ownerReference };
  const schema = z.object({
    ...ownerShape,
    /** The environment's name (a project's), or the deployment tier (a group's: production, staging, testing, development or other). */
    name: field(project ? environmentName : deploymentTier, { replaceOnChange: true }),
    /** Who may deploy: each entry a role (`accessLevel`), a user (`userId`) or a group (`groupId`). */
    deployAccessLevels,
    /** Whose approvals a deployment needs, each entry a role, a user or a group with its `requiredApprovals`. Left out: the rule's approval rules are left as they are. */
    approvalRules,
    adoptExisting,
  });
  type Args = Inputs & Record<K, string | number>;
  const refOf = (args: Args): string | number => args[kind];
  const collectionOf = (ref: string | number) => (project ? projectEnvironmentsOf(ref) : groupEnvironmentsOf(ref));
  const idOf = (ref: string | number, ruleName: string) => (project ? protectedEnvironmentId(ref, ruleName) : groupProtectedEnvironmentId(ref, ruleName));
  const parse = (id: string) => parsedId(name, idFormOf, id);
  const needsOf = (args: Args): Needs => {
    const named = { deployAccessLevels: args.deployAccessLevels, approvalRules: args.approvalRules };
    return project ? protectedEnvironmentNeeds({ project: refOf(args) }, named) : groupProtectedEnvironmentNeeds({ group: refOf(args) }, named);
  };
  const findRule = (ctx: EngineContext, args: Args) => protectedEnvironmentRequests.find(ctx.client, collectionOf(refOf(args)), undefined, (rule) => rule.name === args.name);
  const what = (ruleName: string) => (project ? `protected environment ${ruleName}` : `protected environment tier ${ruleName}`);

  return defineObjectResource({
    name,
    words: { noun: project ? "protected environment" : "group protected environment", says: deletionWords(kind) },
    imported: {
      word: project ? "protected-environment" : "group-protected-environment",
      listed: project ? "protected environments" : "group protected environments",
      on: [kind],
      async find({ ctx, owner }) {
        const address = ownerAddress(owner);
        const rules = await protectedEnvironmentRequests.list(ctx.client, collectionOf(owner.id));
        return { found: rules.map((rule) => ({ importId: idOf(owner.id, rule.name), name: rule.name, live: rule, address })) };
      },
      async findOne({ owner, read }, key) {
        const address = ownerAddress(owner);
        const importId = idOf(owner.id, String(key));
        const live = await read(importId, address);
        return live ? { found: [{ importId, name: String(key), live, address }] } : { found: [], skipped: [{ what: what(String(key)), why: `not protected on the ${kind}` }] };
      },
    },
    terraform: [{ type: `gitlab_${kind}_protected_environment`, target: keyTarget(kind) }],
    idForm: idFormOf,
    schema,
    outputs: {
      /** Who may deploy, as the server holds it: each entry's id, role, user or group, inheritance and description. */
      deployAccessLevelsOnServer: { value: (live: ProtectedEnvironmentLive) => live.deploy_access_levels, derivedFrom: [] },
      /** The approval rules as the server holds them, each with its id and `required_approvals`. */
      approvalRulesOnServer: { value: (live: ProtectedEnvironmentLive) => live.approval_rules ?? [], derivedFrom: [] },
      /** The deprecated count of approvals the whole rule needs (0 where approval rules say it). */
      requiredApprovalCount: { value: (live: ProtectedEnvironmentLive) => live.required_approval_count ?? 0, derivedFrom: [] },
    },
    needs: (declared) => {
      const args = declared as Args;
      return {
        ...needsOf(args),
        unique: {
          list: project ? "protected environments" : "group protected environments",
          read: (ctx, owner) => protectedEnvironmentRequests.list(ctx.client, `${owner.apiPath}/protected_environments`),
          find: (rules) => ((rules as ProtectedEnvironmentLive[]).some((rule) => rule.name === args.name) ? { what: what(args.name), id: idOf(refOf(args), args.name) } : undefined),
        },
      };
    },

    async create(ctx, args) {
      const inputs = args as Args;
      // A lost answer is settled by the list: the rule of this name is there or it is not.
      const live = await protectedEnvironmentRequests.post(ctx.client, collectionOf(refOf(inputs)), createBody(inputs), () => findRule(ctx, inputs));
      return { id: idOf(refOf(inputs), inputs.name), live };
    },

    read(ctx, id) {
      return protectedEnvironmentRequests.get(ctx.client, parse(id).path);
    },

    async update(ctx, id, args, changed) {
      const path = parse(id).path;
      const live = await protectedEnvironmentRequests.get(ctx.client, path);
      const body = putBody(args as Args, live, changed.has("approvalRules"));
      return Object.keys(body).length === 0 ? live : protectedEnvironmentRequests.put(ctx.client, path, body);
    },

    async delete(ctx, id) {
      await ctx.client.delete(parse(id).path);
    },

    async adopt(ctx, args) {
      const inputs = args as Args;
      const live = await findRule(ctx, inputs);
      return live ? { id: idOf(refOf(inputs), inputs.name), live } : undefined;
    },
  });
}
