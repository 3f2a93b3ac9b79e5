/**
 * MergeRequest: a merge request a program keeps open (a standing release or
 * dependency-bump merge request), with its title, description, labels,
 * assignees, reviewers and merge options.
 *
 * - The project, the source branch and a fork's target project cannot change
 *   in place: a change replaces it. Everything else, the target branch
 *   included, updates in place with one PUT carrying only what changed.
 * - `state` (`opened`, the default, or `closed`) is sent as `state_event`
 *   (`reopen`, `close`). The API has no delete for merge requests: destroy
 *   CLOSES it (one PUT with `state_event: close`), and so does the old one of
 *   a replacement. A merge request merged outside the program stays merged:
 *   a refresh records `state: merged`, and an update then fails saying so
 *   instead of trying to reopen it (the server cannot); destroy sends nothing.
 * - Labels are a list of names, sent comma-separated; the server creates
 *   unknown ones as project labels, matches existing ones without regard to
 *   case and answers them sorted: neither order nor case is a diff. Removing
 *   `labels`, `assigneeIds`, `reviewerIds` or `milestoneId` from the program
 *   clears them on the server (the API's empty value, `0` for the milestone).
 * - Assignees, reviewers and a milestone the server drops without an error
 *   (users who cannot read the merge request, another project's milestone)
 *   fail the create or update that meets it, naming them (see `notKept`).
 * - Server defaults and normalisations never show as changes: an undeclared
 *   `squash` takes the project's default; the title is stored stripped; a
 *   description's CRLF line ends are the same as LF; `mergeAfter` in any ISO
 *   8601 form is the same instant.
 * - A lost answer to the POST does not create a second one: the server keeps
 *   one open merge request per source and target branch, and the client looks
 *   for it before sending the POST again.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { field } from "../api/fields";
import { ApiError } from "../client";
import { defineObjectResource, type EngineContext, type Located } from "../engine/definition";
import { ExplainedError, PartialCreateError } from "../engine/errors";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { requestBody } from "../engine/values";
import { onProject, type Needs, type RefNeed } from "../api/needs";
import { isUnknown } from "../engine/values";
import { adoptExisting, BAD_REF, ownerInput } from "./common";
import {
  ALL_MERGE_REQUESTS,
  listedMergeRequestRequests,
  mergeRequestRequests,
  mergeRequestId,
  mergeRequestsPath,
  type ListedMergeRequest,
  type MergeRequest as MergeRequestLive,
  mergeRequestIdForm,
} from "../api/merge-requests";
import { ownerReference } from "../api/owner";
import { parsedId } from "../api/id-form";

/** The longest title the server takes (its issuables' title limit). */
const MAX_TITLE = 255;
/** The longest description the server accepts, in characters. */
const MAX_DESCRIPTION = 1_048_576;

const branch = z
  .string()
  .min(1, { message: "must not be empty" })
  .refine((name) => !BAD_REF.test(name), { message: "must be a branch name such as main or release/1.x (no spaces, '..', '~', '^', ':', '?', '*', '[' or '\\')" });

const userIds = z
  .array(z.number().int().positive({ message: "must be a user's numeric id" }))
  .refine((ids) => new Set(ids).size === ids.length, { message: "must not name a user twice" });

const labelName = z
  .string()
  .refine((name) => name.trim() !== "", { message: "must not be blank" })
  .refine((name) => !name.includes(","), { message: "must not contain a comma (the API sends labels comma-separated)" })
  .refine((name) => name.length <= 255, { message: "must be at most 255 characters" });

const labels = z.array(labelName).refine((names) => new Set(names.map(labelKey)).size === names.length, {
  message: "must not name a label twice (label names are matched without regard to case)",
});

/** The server sends an unset boolean as null, which means false. */
const nullIsFalse = (declared: unknown, live: unknown) => declared === false && live === null;

const userIdsOf = (key: "assignees" | "reviewers") => (live: Record<string, unknown>) => ((live[key] ?? []) as { id: number }[]).map((user) => user.id);

const schema = z.object({
  /** The project the merge request belongs to (numeric id or full path); the source branch is in it. */
  project: ownerInput(ownerReference),
  /** The branch with the changes. */
  sourceBranch: field(branch, { replaceOnChange: true }),
  /** The branch to merge into; changes in place. */
  targetBranch: branch,
  // Issuable strips the title (`strip_attributes! :title`).
  title: field(
    z
      .string()
      .refine((text) => text.trim() !== "", { message: "must not be blank" })
      .refine((text) => text.trim().length <= MAX_TITLE, { message: `must be at most ${MAX_TITLE} characters` }),
    { sameValue: (declared, live) => typeof declared === "string" && declared.trim() === live },
  ),
  /** Markdown, at most 1,048,576 characters. */
  description: field(z.string().max(MAX_DESCRIPTION, { message: `must be at most ${MAX_DESCRIPTION} characters` }).optional(), { sameValue: (declared, live) => typeof declared === "string" && declared.replace(/\r\n/g, "\n") === ((live as string | null) ?? "").replace(/\r\n/g, "\n") }),
  // `locked` is a short-lived state of an open merge request.
  /** `opened` (default) or `closed`; a merged merge request stays merged. */
  state: field(z.enum(["opened", "closed"], { message: 'must be "opened" or "closed"' }).default("opened"), { toApi: (value, body) => (body.state_event = value === "closed" ? "close" : "reopen"), sameValue: (declared, live) => declared === "opened" && live === "locked" }),
  /** Label names; unknown ones are created as project labels. Removing the property removes all labels. */
  labels: field(labels.optional(), { unsetAs: [], sameValue: sameLabels, toApi: (value, body) => (body.labels = (value as string[]).join(",")) }),
  /** Users' numeric ids; `[]` or removing the property unassigns all. */
  assigneeIds: field(userIds.optional(), { unsetAs: [], sameValue: sameIds, fromApi: userIdsOf("assignees") }),
  /** Users' numeric ids; `[]` or removing the property removes all reviewers. */
  reviewerIds: field(userIds.optional(), { unsetAs: [], sameValue: sameIds, fromApi: userIdsOf("reviewers") }),
  /** The milestone's global id; removing the property unsets it. */
  milestoneId: field(z.number().int().positive({ message: "must be a milestone's numeric id" }).optional(), { unsetAs: 0, sameValue: (declared, live) => declared === 0 && live === null, fromApi: (live) => (live.milestone as { id: number } | null)?.id ?? null }),
  /** Delete the source branch when it is merged. */
  removeSourceBranch: field(z.boolean().optional(), { fromApi: (live) => live.force_remove_source_branch, sameValue: nullIsFalse }),
  /** Squash the commits on merge; the project's default when not declared (project settings may override it at merge time). */
  squash: field(z.boolean().optional(), { sameValue: nullIsFalse }),
  /** Not mergeable before this instant (ISO 8601). */
  mergeAfter: field(z.string().refine((text) => !Number.isNaN(Date.parse(text)), { message: "must be an ISO 8601 date and time such as 2030-01-01T00:00:00Z" }).optional(), { sameValue: (declared, live) => typeof live === "string" && Date.parse(declared as string) === Date.parse(live) }),
  /** Lock the discussion to project members. */
  discussionLocked: field(z.boolean().optional(), { sameValue: nullIsFalse }),
  /** A merge request from a fork: the upstream project's numeric id (the merge request lives there). */
  targetProjectId: field(z.number().int().positive({ message: "must be a project's numeric id" }).optional(), { replaceOnChange: true }),
  /** Forks only (targetProjectId set): members of the target project may push to the source branch. */
  allowCollaboration: field(z.boolean().optional(), { sameValue: nullIsFalse }),
  /** Deprecated (removed in API v5), Premium and Ultimate only. */
  approvalsBeforeMerge: field(z.number().int().min(0).optional(), { tier: "premium" }),
  adoptExisting,
});

type MergeRequestInputs = z.output<typeof schema>;

function labelKey(name: string): string {
  return name.trim().toLowerCase();
}

/** The same ids in any order. */
function sameIds(declared: unknown, live: unknown): boolean {
  if (!Array.isArray(declared) || !Array.isArray(live) || declared.length !== live.length) return false;
  const held = new Set(live);
  return declared.every((id) => held.has(id));
}

/** The same labels in any order and case: the server sorts them and keeps an existing label's case. */
function sameLabels(declared: unknown, live: unknown): boolean {
  if (!Array.isArray(declared) || !Array.isArray(live)) return false;
  return sameIds((declared as string[]).map(labelKey), (live as string[]).map(labelKey));
}

/** Fields the create endpoint does not take: sent by a PUT right after the POST. */
const UPDATE_ONLY = new Set(["state", "discussionLocked"]);

/** The resource id is the merge request's API path, e.g. `projects/acme%2Fweb/merge_requests/3`. */
function parseId(id: string): { path: string; project: string; iid: number } {
  return parsedId("MergeRequest", mergeRequestIdForm, id);
}

/** Where the merge request lives: the target project of a fork's merge request, else the project. */
const homeOf = (args: MergeRequestInputs): string | number => args.targetProjectId ?? args.project;

/** The branches a merge request names in its own project, where known. */
function branchesNamed(args: MergeRequestInputs): RefNeed[] {
  const named: RefNeed[] = [];
  if (typeof args.sourceBranch === "string" && !isUnknown(args.sourceBranch)) named.push({ property: "sourceBranch", name: args.sourceBranch, kind: "branch" });
  if (args.targetProjectId === undefined && typeof args.targetBranch === "string" && !isUnknown(args.targetBranch)) named.push({ property: "targetBranch", name: args.targetBranch, kind: "branch" });
  return named;
}

const idOf = (args: MergeRequestInputs, iid: number): string => mergeRequestId(homeOf(args), iid);

/** Whether a listed merge request belongs to `project` (an id, or a full path as `references.full` shows it). */
function inProject(mr: ListedMergeRequest, project: string | number): boolean {
  if (typeof project === "number") return mr.project_id === project;
  const fullPath = mr.references?.full.replace(/![0-9]+$/, "");
  return fullPath !== undefined && fullPath.toLowerCase() === project.toLowerCase();
}

/**
 * The open merge request of these branches in the project, if any: the server
 * keeps at most one. The list used is the instance-wide one (with `scope=all`),
 * filtered here by state and branches.
 */
function openMergeRequest(ctx: EngineContext, args: MergeRequestInputs): Promise<ListedMergeRequest | undefined> {
  return listedMergeRequestRequests.find(ctx.client, ALL_MERGE_REQUESTS, openOfBranches(args), (mr) => inProject(mr, homeOf(args)));
}

/** The query of the open merge requests of these branches, instance-wide. */
const openOfBranches = (args: MergeRequestInputs) => ({ scope: "all", state: "opened", source_branch: args.sourceBranch, target_branch: args.targetBranch });

/** A 409 naming the open merge request of the same branches (`... already exists for this source branch: !N`). */
function existingOpenIid(error: unknown): number | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  const match = /already exists for this source branch: !(\d+)/.exec(error.serverMessage ?? "");
  return match ? Number(match[1]) : undefined;
}

function alreadyOpen(args: MergeRequestInputs, iid: number, doing: string): ExplainedError {
  const id = idOf(args, iid);
  return new ExplainedError(
    `MergeRequest: cannot ${doing}: merge request !${iid} of project ${homeOf(args)} is already open for ${args.sourceBranch} into ${args.targetBranch}, ` +
      `and the server keeps one open merge request per source and target branch. Take it over with adoptExisting: true or the import option (import: "${id}"), or close it.`,
  );
}

/** A PUT, sent again when another write saved the merge request first (409 `Resource lock`: nothing was written). */
async function putMergeRequest(ctx: EngineContext, path: string, body: Record<string, unknown>): Promise<MergeRequestLive> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await mergeRequestRequests.put(ctx.client, path, body);
    } catch (error) {
      const locked = error instanceof ApiError && error.status === 409 && /Resource lock/i.test(error.serverMessage ?? "");
      if (!locked || attempt === 3) throw error;
    }
  }
}

/**
 * The declared assignees, reviewers and milestone that the server's answer
 * does not show. The server drops them without an error (users who cannot read
 * the merge request, all but the first assignee and reviewer below Premium,
 * a milestone that is not the project's or its groups');
 * left alone, that is a change at every preview with nothing saying why, so
 * the create or update that meets it fails and names them. `only`: the
 * properties an update sent.
 */
function notKept(args: MergeRequestInputs, live: MergeRequestLive, only?: ReadonlySet<string>): string[] {
  const missing: string[] = [];
  const judged = (property: string) => !only || only.has(property);
  const users = (property: "assigneeIds" | "reviewerIds", kept: { id: number }[] | undefined) => {
    if (!judged(property)) return;
    const dropped = (args[property] ?? []).filter((id) => !(kept ?? []).some((user) => user.id === id));
    if (dropped.length) missing.push(`${property} ${dropped.join(", ")}`);
  };
  users("assigneeIds", live.assignees);
  users("reviewerIds", live.reviewers);
  if (judged("milestoneId") && args.milestoneId !== undefined && live.milestone?.id !== args.milestoneId) missing.push(`milestoneId ${args.milestoneId}`);
  return missing;
}

function notKeptMessage(args: MergeRequestInputs, iid: number, missing: string[]): string {
  return (
    `MergeRequest !${iid} of project ${homeOf(args)}: the server did not keep ${missing.join(" and ")}; it drops, without an error, ` +
    "assignees and reviewers who cannot read the merge request, all but the first assignee and the first reviewer below the Premium tier, " +
    "and a milestone that is not the project's or its groups'. Give those users access to the project (or remove them from the program), " +
    "declare one assignee and one reviewer on Free, and one of the project's milestones; until then every preview shows this change."
  );
}

/** The Premium tier, for more than one assignee or reviewer (`multiple_merge_request_assignees`, `..._reviewers`). */
function severalUsersTier(args: MergeRequestInputs): Pick<Needs, "tier" | "tierFor"> {
  const assignees = (args.assigneeIds?.length ?? 0) > 1;
  const reviewers = (args.reviewerIds?.length ?? 0) > 1;
  if (!assignees && !reviewers) return {};
  const what = `more than one ${assignees && reviewers ? "assignee or reviewer" : assignees ? "assignee" : "reviewer"}`;
  return { tier: "premium", tierFor: { properties: [assignees && "assigneeIds", reviewers && "reviewerIds"].filter((name) => name !== false), what } };
}

/** A merged merge request is final: the update explains that instead of asking for a reopen the server ignores. */
function refuseMerged(id: string, olds: MergeRequestInputs, recordedState: unknown): void {
  if (recordedState !== "merged") return;
  throw new ExplainedError(
    `MergeRequest ${id}: it was merged outside this program (a refresh recorded state: merged), and a merged merge request cannot be reopened or changed back. ` +
      `To keep declaring one for ${olds.sourceBranch} into ${olds.targetBranch}, replace it with a new one (\`pulumi up --replace <urn>\`, once the source branch has new commits); ` +
      "to stop managing it, remove it from the program and the state (`pulumi state delete <urn>`).",
  );
}

export const mergeRequestDefinition = defineObjectResource({
  name: "MergeRequest",
  words: { noun: "merge request" },
  imported: { notImported: "a merge request is work under review, not a setting of the platform" },
  idForm: mergeRequestIdForm,
  schema,
  outputs: {
    /** The merge request's number in its project (`!3`). */
    iid: { fromId: (id) => Number(id.split("/").at(-1)) },
    /** Its global id. */
    mergeRequestId: (live: MergeRequestLive) => live.id,
    webUrl: (live) => live.web_url,
    /** When it was merged; null while it is not. */
    mergedAt: (live) => live.merged_at ?? null,
  },
  validate: (args) => {
    const problems: { property: string; reason: string }[] = [];
    if (args.sourceBranch === args.targetBranch && args.targetProjectId === undefined) {
      problems.push({ property: "targetBranch", reason: "targetBranch: must differ from sourceBranch (a merge request within one project merges one branch into another)" });
    }
    if (args.allowCollaboration !== undefined && args.targetProjectId === undefined) {
      problems.push({ property: "allowCollaboration", reason: "allowCollaboration: applies only to a merge request from a fork (set targetProjectId); within one project the server always shows false" });
    }
    return problems;
  },
  // create_merge_request_from and update_merge_request: Developer (an author may also edit their own).
  // An open merge request of the same branches is a collision.
  needs: (args, operation) => ({
    on: onProject(args.project),
    subject: `project ${homeOf(args)}`,
    role: operation === "read" ? "Reporter" : "Developer",
    // Both branches must exist (a fork's target branch is in the target project, not verified here).
    ...(operation === "create" || operation === "update" ? { refs: branchesNamed(args) } : {}),
    // Below Premium the server keeps the first assignee and the first reviewer only (see `notKept`).
    ...severalUsersTier(args),
    // A fork's merge request lives in the target project, which is not the owner verified here.
    unique: args.targetProjectId !== undefined ? undefined : {
      list: `open merge requests ${args.sourceBranch} -> ${args.targetBranch}`,
      read: (ctx) => listedMergeRequestRequests.list(ctx.client, ALL_MERGE_REQUESTS, openOfBranches(args)),
      find: (found, owner) => {
        const same = (found as ListedMergeRequest[]).find((mr) => mr.project_id === owner.id);
        return same && { what: `an open merge request of ${args.sourceBranch} into ${args.targetBranch} (!${same.iid})`, id: idOf(args, same.iid) };
      },
    },
  }),
  deleteBeforeReplace: (olds, news) => olds.project === news.project && olds.sourceBranch === news.sourceBranch && olds.targetBranch === news.targetBranch,

  async create(ctx, args) {
    const body = requestBody(this.fields, Object.fromEntries(Object.entries(args).filter(([name]) => !UPDATE_ONLY.has(name))));
    // If the answer to the POST is lost, the open merge request of these branches is the one it created.
    const live = await mergeRequestRequests
      .post(ctx.client, mergeRequestsPath(args.project), body, () => openMergeRequest(ctx, args))
      .catch((error: unknown) => {
        const iid = existingOpenIid(error);
        throw iid === undefined ? error : alreadyOpen(args, iid, "create it");
      });
    const located: Located<MergeRequestLive> = { id: idOf(args, live.iid), live };
    // A new merge request is open and its discussion unlocked (null, which behaves as false): only the other values need the PUT.
    const afterCreate = requestBody(this.fields, { state: args.state === "closed" ? "closed" : undefined, discussionLocked: args.discussionLocked === true ? true : undefined });
    let created = located;
    if (Object.keys(afterCreate).length > 0) {
      try {
        created = { id: located.id, live: await putMergeRequest(ctx, parseId(located.id).path, afterCreate) };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw PartialCreateError.fromLive(`MergeRequest: !${live.iid} was created but not closed or locked as declared (${reason}). Run \`pulumi up\` again.`, located.id, live);
      }
    }
    // Recorded as the server keeps it, so the next preview shows what is still to do.
    const missing = notKept(args, created.live);
    if (missing.length) throw PartialCreateError.fromLive(notKeptMessage(args, live.iid, missing), created.id, created.live);
    return created;
  },

  async read(ctx, id) {
    return mergeRequestRequests.get(ctx.client, parseId(id).path);
  },

  async update(ctx, id, args, changed, olds) {
    refuseMerged(id, olds, (olds as Record<string, unknown>).state);
    const body = requestBody(this.fields, args, changed);
    const live = await putMergeRequest(ctx, parseId(id).path, body).catch((error: unknown) => {
      const iid = existingOpenIid(error);
      throw iid === undefined ? error : alreadyOpen(args, iid, `reopen ${id}`);
    });
    const missing = notKept(args, live, changed);
    if (missing.length) throw new ExplainedError(notKeptMessage(args, live.iid, missing));
    return live;
  },

  async delete(ctx, id, args) {
    // The API deletes no merge requests: closing it is what destroy can do. A merged one stays as it is.
    if ((args as Record<string, unknown>).state === "merged") return;
    await putMergeRequest(ctx, parseId(id).path, { state_event: "close" });
  },

  async adopt(ctx, args) {
    const found = await openMergeRequest(ctx, args);
    return found ? { id: idOf(args, found.iid), live: found } : undefined;
  },
});

export type MergeRequestArgs = ResourceArgs<typeof schema>;

/**
 * A merge request kept open by the program. Destroy closes it (the API
 * deletes none); one merged outside the program is reported, not reopened.
 *
 * ```ts
 * new MergeRequest("release", { project: "acme/web", sourceBranch: "release/1.x", targetBranch: "main",
 *   title: "Release 1.x", labels: ["release"], assigneeIds: [42] });
 * ```
 */
export interface MergeRequest extends Omit<ResourceOutputs<typeof mergeRequestDefinition>, "state"> {
  /** `opened` or `closed` as declared; `merged` once merged outside the program (a refresh records it). */
  readonly state: pulumi.Output<"opened" | "closed" | "merged">;
}
export class MergeRequest extends PlatformResource {
  static {
    ofKind(this, mergeRequestDefinition);
  }
  constructor(name: string, args: MergeRequestArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
