/**
 * ProjectApprovalSettings: the merge request approval settings of a project
 * that already exists (`GET`/`POST /projects/:id/approvals`, Premium and
 * Ultimate). A settings resource (../engine/settings.ts): it never creates or
 * deletes the project; only the declared settings are managed, their values
 * before the first apply are recorded, and delete gives them back unless
 * `restoreOnDelete: false`.
 *
 * The number of approvals is an `ApprovalRule`'s: the deprecated
 * `approvals_before_merge` is not a setting here. `requirePasswordToApprove`
 * is the deprecated name of `requireReauthenticationToApprove`; both names
 * are sent with the one value, so servers from before 17.1 (which know only
 * the older name) apply it too.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { approvalSettingsNeeds, approvalSettingsOf, approvalSettingsRequests, type ApprovalSettings as ApprovalSettingsLive } from "../api/approval-settings";
import { field, snakeCase } from "../api/fields";
import { ownerReference } from "../api/owner";
import { projectPath, projectRequests } from "../api/projects";
import { defineSettingsResource, type EngineContext, type FieldTraits } from "../engine/definition";
import { ExplainedError } from "../engine/errors";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { restoreOnDelete } from "../engine/settings";
import { requestBody } from "../engine/values";
import { ownerInput } from "./common";

const PROJECT_ID = /^projects\/(\d+)$/;

const schema = z.object({
  /** The project (numeric id or full path). Never created or deleted here. */
  project: ownerInput(ownerReference),
  /** Remove every approval when commits are pushed to the source branch. */
  resetApprovalsOnPush: z.boolean().optional(),
  /** Remove only the approvals of code owners whose files a push changes; needs `resetApprovalsOnPush` false. */
  selectiveCodeOwnerRemovals: z.boolean().optional(),
  /** Prevent editing the approval rules in merge requests. */
  disableOverridingApproversPerMergeRequest: z.boolean().optional(),
  /** Authors may approve their own merge requests. */
  mergeRequestsAuthorApproval: z.boolean().optional(),
  /** Users who add commits to a merge request may not approve it. */
  mergeRequestsDisableCommittersApproval: z.boolean().optional(),
  /** Approvers authenticate again before they approve (`require_password_to_approve` before GitLab 17.1). */
  requireReauthenticationToApprove: field(z.boolean().optional(), {
    fromApi: (live) => live.require_reauthentication_to_approve ?? live.require_password_to_approve,
    toApi: (value, body) => {
      body.require_reauthentication_to_approve = value;
      body.require_password_to_approve = value;
    },
  }),
  /** Deprecated: use `requireReauthenticationToApprove`. */
  requirePasswordToApprove: field(z.boolean().optional(), { aliasOf: { property: "requireReauthenticationToApprove", deprecated: true } }),
  /** Give the prior values back on delete (default true); false leaves the settings as they are. */
  restoreOnDelete,
});

type Inputs = z.output<typeof schema>;

const projectIdOf = (id: string): number => Number(PROJECT_ID.exec(id)?.[1]);

/** The settings as the server answers them, with the project they are of (the answer does not say). */
type ProjectSettingsLive = ApprovalSettingsLive & { project_id: number };

async function settingsOf(ctx: EngineContext, projectId: number, answer?: Promise<ApprovalSettingsLive>): Promise<ProjectSettingsLive> {
  return { ...(await (answer ?? approvalSettingsRequests.get(ctx.client, approvalSettingsOf(projectId)))), project_id: projectId };
}

/** Whether the answer holds the value sent: a server that does not know a setting, or whose tier lacks it, drops it silently. */
function appliedIn(fields: Readonly<Record<string, FieldTraits | undefined>>, name: string, args: Inputs, live: ProjectSettingsLive): boolean {
  const traits = fields[name] ?? {};
  const shown = traits.fromApi ? traits.fromApi(live) : live[snakeCase(name)];
  return shown === undefined || shown === args[name as keyof Inputs];
}

export const projectApprovalSettingsDefinition = defineSettingsResource({
  name: "ProjectApprovalSettings",
  words: { noun: "merge request approval settings" },
  imported: {
    word: "approval-settings",
    listed: "merge request approval settings",
    on: ["project"],
    async find({ owner, locate, unmetNeeds }) {
      const address = { project: owner.id };
      // Below Premium the server neither applies nor enforces them: nothing the program could manage.
      const unmet = await unmetNeeds({ tier: "premium" });
      if (unmet !== undefined) return { found: [], skipped: [{ what: "merge request approval settings", why: unmet }] };
      const located = await locate(address);
      return { found: [{ importId: located.id, name: "", live: located.live, address, leaveOut: new Map([["requirePasswordToApprove", "the deprecated name of requireReauthenticationToApprove"]]) }] };
    },
  },
  terraform: [
    {
      type: "gitlab_project_level_mr_approvals",
      target: (id) => (/^\d+$/.test(id) || id.includes("/") ? { owner: { kind: "project", ref: id } } : undefined),
    },
  ],
  onePerOwner: { owner: "project", what: "merge request approval settings for" },
  notFoundSubject: "Project",
  schema,
  outputs: {
    /** The project's numeric id. */
    projectId: { value: (live: ProjectSettingsLive) => live.project_id, fromId: projectIdOf, derivedFrom: [] },
  },
  needs: (args, operation) => approvalSettingsNeeds(args, operation),

  validate(args) {
    if (args.selectiveCodeOwnerRemovals === true && args.resetApprovalsOnPush === true) {
      return [{ property: "selectiveCodeOwnerRemovals", reason: "selectiveCodeOwnerRemovals: can be true only while resetApprovalsOnPush is false" }];
    }
    return [];
  },

  async locate(ctx, args) {
    const project = await projectRequests.get(ctx.client, projectPath(args.project));
    // The numeric id: a rename or transfer of the project never loses the resource.
    return { id: `projects/${project.id}`, live: await settingsOf(ctx, project.id) };
  },

  read(ctx, id) {
    return settingsOf(ctx, projectIdOf(id));
  },

  async update(ctx, id, args, changed) {
    const projectId = projectIdOf(id);
    const fields = this.fields ?? {};
    const path = approvalSettingsOf(projectId);
    // The write sets values: an answer lost after it was applied shows in the settings read back, else it is sent again.
    const written = async () => {
      const now = await approvalSettingsRequests.get(ctx.client, path);
      return [...changed].every((name) => appliedIn(fields, name, args, { ...now, project_id: projectId })) ? now : undefined;
    };
    const live = await settingsOf(ctx, projectId, approvalSettingsRequests.post(ctx.client, path, requestBody(fields, args, changed), written));
    const ignored = [...changed].filter((name) => !appliedIn(fields, name, args, live));
    if (ignored.length) {
      throw new ExplainedError(
        `ProjectApprovalSettings: the server did not apply ${ignored.join(", ")} to project ${projectId}; the project's tier may not have them, or the server is too old to know them.`,
      );
    }
    return live;
  },
});

export type ProjectApprovalSettingsArgs = ResourceArgs<typeof schema>;

/**
 * The merge request approval settings of an existing project (Premium and
 * Ultimate). Only the declared settings are managed; delete gives back the
 * values they had before (unless `restoreOnDelete: false`).
 *
 * ```ts
 * new ProjectApprovalSettings("web-approvals", { project: "acme/web", resetApprovalsOnPush: true, mergeRequestsAuthorApproval: false });
 * ```
 */
export interface ProjectApprovalSettings extends ResourceOutputs<typeof projectApprovalSettingsDefinition> {}
export class ProjectApprovalSettings extends PlatformResource {
  static {
    ofKind(this, projectApprovalSettingsDefinition);
  }
  constructor(name: string, args: ProjectApprovalSettingsArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
