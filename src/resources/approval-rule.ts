/**
 * ApprovalRule: a project's merge request approval rule (Premium and Ultimate).
 *
 * - create: `POST /projects/:id/approval_rules`; a lost answer is found by
 *   the rule's name, unique in the project.
 * - update: `PUT` of the changed fields, in place: the users, groups and
 *   protected branches declared replace the rule's.
 * - protected branches named by name (`protectedBranches`) are sent as their
 *   ids, read at apply with one list of the project's protected branches.
 * - delete: `DELETE`.
 *
 * The resource id is `projects/<project>/approval_rules/<id>`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { approvalRuleId, approvalRuleIdForm, approvalRuleNeeds, approvalRuleRequests, approvalRulesOf, type ApprovalRule as ApprovalRuleLive } from "../api/approval-rules";
import { field } from "../api/fields";
import { parsedId } from "../api/id-form";
import { ownerReference } from "../api/owner";
import { protectedBranchRequests, protectedBranchesOf, ruleName } from "../api/protected-refs";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { ExplainedError } from "../engine/errors";
import { idPair, ownerAddress, wholeNumber } from "../engine/estate";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { requestBody } from "../engine/values";
import { adoptExisting, ownerInput } from "./common";

const ids = z.array(z.number().int().positive({ message: "must be a numeric id" })).max(100);
const sameNames = (declared: unknown, live: unknown) =>
  Array.isArray(declared) && Array.isArray(live) && JSON.stringify([...new Set(declared.map(String))].sort()) === JSON.stringify([...new Set(live.map(String))].sort());
const sameIds = (declared: unknown, live: unknown) =>
  Array.isArray(declared) && Array.isArray(live) && declared.length === live.length && [...declared].sort().join() === [...live].sort().join();
/** A list of ids the rule holds as objects (`users[].id`): compared as a set. */
const idsOf = (list: string) => field(ids.optional(), { fromApi: (live) => ((live[list] as { id: number }[] | undefined) ?? []).map((entry) => entry.id), sameValue: sameIds });

const schema = z.object({
  /** The project (numeric id or full path). */
  project: ownerInput(ownerReference),
  /** The rule's name, unique in the project. */
  name: z.string().min(1, { message: "must not be empty" }).max(255, { message: "must be at most 255 characters" }),
  /** How many of the eligible approvers must approve (0 to 100). */
  approvalsRequired: z.number().int({ message: "must be a whole number" }).min(0, { message: "must be at least 0" }).max(100, { message: "must be at most 100" }),
  /** Users (ids) who may approve. */
  userIds: idsOf("users"),
  /** Groups (ids) whose members may approve. */
  groupIds: idsOf("groups"),
  /**
   * The protected branches (their `protectedBranchId`) the rule applies to; none: every branch. A
   * `ProtectedBranch` updated in the same run makes its id unknown at preview, so this shows as a
   * change then: `protectedBranches` names them instead.
   */
  protectedBranchIds: idsOf("protected_branches"),
  /**
   * The protected branches the rule applies to, by their rules' names (`main`, `release/*`, a
   * `ProtectedBranch`'s `name`), compared as a set; resolved to their ids at apply, with one read
   * of the project's protected branches. Not with `protectedBranchIds`.
   */
  protectedBranches: field(z.array(ruleName).max(100).optional(), {
    fromApi: (live) => ((live.protected_branches as { name: string }[] | undefined) ?? []).map((branch) => branch.name),
    sameValue: sameNames,
    // Sent as `protected_branch_ids`, resolved at apply (withBranchIds).
    toApi: () => undefined,
  }),
  /** The rule applies to every protected branch of the project. */
  appliesToAllProtectedBranches: z.boolean().optional(),
  adoptExisting,
});

type Inputs = z.output<typeof schema>;

const parseId = (id: string) => parsedId("ApprovalRule", approvalRuleIdForm, id);

/** platform-import declares a rule's protected branches by name, which a preview knows while their rules change. */
const BY_NAME: ReadonlyMap<string, string> = new Map([["protectedBranchIds", "the same branches as protectedBranches, by id"]]);

/**
 * The request body with the protected branches the program names (`protectedBranches`) as the ids
 * the API takes: one read of the project's protected branches, only when they are to be sent. A
 * name the project does not protect fails before the write, naming it.
 */
async function withBranchIds(ctx: EngineContext, args: Inputs, body: Record<string, unknown>, sending: boolean): Promise<Record<string, unknown>> {
  if (!sending || args.protectedBranches === undefined) return body;
  const wanted = [...new Set(args.protectedBranches)];
  // A group's rule shown in the project's list is not one a project's approval rule can name.
  const protectedNow = wanted.length === 0 ? [] : (await protectedBranchRequests.list(ctx.client, protectedBranchesOf(args.project))).filter((branch) => branch.inherited !== true);
  const missing = wanted.filter((name) => !protectedNow.some((branch) => branch.name === name));
  if (missing.length > 0) {
    throw new ExplainedError(
      `ApprovalRule: protectedBranches: project ${args.project} protects no branch named ${missing.join(", ")}. ` +
        "Protect it first: give the rule a ProtectedBranch's `name` (its Output), so the rule is made after it.",
    );
  }
  return { ...body, protected_branch_ids: wanted.map((name) => protectedNow.find((branch) => branch.name === name)!.id) };
}

const findRule = (ctx: EngineContext, args: Inputs) => approvalRuleRequests.find(ctx.client, approvalRulesOf(args.project), undefined, (rule) => rule.name === args.name);

export const approvalRuleDefinition = defineObjectResource({
  name: "ApprovalRule",
  words: { noun: "approval rule", says: ({ after }) => (after === undefined ? "removes the approvals it required from the merge requests it applied to" : undefined) },
  imported: {
    word: "approval-rule",
    listed: "approval rules",
    on: ["project"],
    async find({ ctx, owner }) {
      const address = ownerAddress(owner);
      const rules = await approvalRuleRequests.list(ctx.client, approvalRulesOf(owner.id));
      // The rules the server makes (code owners, security reports, any approver) are not the program's to declare.
      const own = rules.filter((rule) => rule.rule_type === "regular");
      return {
        found: own.map((rule) => ({ importId: approvalRuleId(owner.id, rule.id), name: rule.name, live: rule, address, leaveOut: BY_NAME })),
        skipped: rules.filter((rule) => rule.rule_type !== "regular").map((rule) => ({ what: `approval rule ${rule.id}`, why: `a ${rule.rule_type} rule, made by the server` })),
      };
    },
    async findOne({ owner, read }, key) {
      const address = ownerAddress(owner);
      const importId = approvalRuleId(owner.id, Number(key));
      const live = await read(importId, address);
      return live ? { found: [{ importId, name: String(live.name), live, address, leaveOut: BY_NAME }] } : { found: [], skipped: [{ what: `approval rule ${key}`, why: "not a rule of the project" }] };
    },
  },
  terraform: [
    {
      type: "gitlab_project_approval_rule",
      target: (id) => {
        const parts = idPair(id);
        const rule = wholeNumber(parts?.[1]);
        return parts && rule !== undefined ? { owner: { kind: "project", ref: parts[0] }, key: rule } : undefined;
      },
    },
  ],
  idForm: approvalRuleIdForm,
  schema,
  validate: (args) =>
    args.protectedBranchIds !== undefined && args.protectedBranches !== undefined
      ? [{ property: "protectedBranches", reason: "protectedBranches: name the protected branches either by name or by id (protectedBranchIds), not both" }]
      : [],
  outputs: {
    /** The rule's numeric id on the server. */
    approvalRuleId: { value: (live: ApprovalRuleLive) => live.id, fromId: (id) => parseId(id).ruleId, derivedFrom: [] },
    /** Who may approve, as the server counts them: the users and the groups' members (usernames). */
    eligibleApprovers: { value: (live: ApprovalRuleLive) => (live.eligible_approvers ?? []).map((user) => user.username), derivedFrom: [] },
    /** The rule names groups the token's user may not see (left out of its groups). */
    containsHiddenGroups: { value: (live: ApprovalRuleLive) => live.contains_hidden_groups ?? false, derivedFrom: [] },
  },
  needs: (args, operation) => ({
    ...approvalRuleNeeds(args, operation),
    unique: {
      list: "approval rules",
      read: (ctx, owner) => approvalRuleRequests.list(ctx.client, `${owner.apiPath}/approval_rules`),
      find: (rules) => {
        const same = (rules as ApprovalRuleLive[]).find((rule) => rule.name === args.name);
        return same && { what: `approval rule ${args.name}`, id: approvalRuleId(args.project, same.id) };
      },
    },
  }),

  async create(ctx, args) {
    const body = await withBranchIds(ctx, args, requestBody(this.fields, args), true);
    const live = await approvalRuleRequests.post(ctx.client, approvalRulesOf(args.project), body, () => findRule(ctx, args));
    return { id: approvalRuleId(args.project, live.id), live };
  },

  read(ctx, id) {
    return approvalRuleRequests.get(ctx.client, parseId(id).path);
  },

  async update(ctx, id, args, changed) {
    const body = await withBranchIds(ctx, args, requestBody(this.fields, args, changed), changed.has("protectedBranches"));
    return approvalRuleRequests.put(ctx.client, parseId(id).path, body);
  },

  async delete(ctx, id) {
    await ctx.client.delete(parseId(id).path);
  },

  async adopt(ctx, args) {
    const live = await findRule(ctx, args);
    return live ? { id: approvalRuleId(args.project, live.id), live } : undefined;
  },
});

export type ApprovalRuleArgs = ResourceArgs<typeof schema>;

/**
 * A project's merge request approval rule: how many approvals, from whom, on
 * which protected branches (Premium and Ultimate).
 *
 * ```ts
 * const releases = new ProtectedBranch("releases", { project: "acme/web", name: "release/*" });
 * new ApprovalRule("release-review", { project: "acme/web", name: "release review", approvalsRequired: 2, groupIds: [12], protectedBranches: releases.name.apply((name) => [name]) });
 * ```
 */
export interface ApprovalRule extends ResourceOutputs<typeof approvalRuleDefinition> {}
export class ApprovalRule extends PlatformResource {
  static {
    ofKind(this, approvalRuleDefinition);
  }
  constructor(name: string, args: ApprovalRuleArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
