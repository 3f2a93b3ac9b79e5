/**
 * ChangelogCommit: commits a release's changelog (`POST
 * /projects/:id/repository/changelog`) at `up`, when the resource is created
 * and whenever its inputs change: a new `version` commits that version's
 * notes. The function form is `commitChangelog` (../actions/repository.ts).
 * Destroy does nothing on the server: the commit stays in the repository's
 * history. The server allows five changelog requests a minute per user and
 * project; the client waits out the window within `platform:retryTimeout`.
 *
 * The resource id is `projects/<project>/changelog/<version>`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { isUnknown } from "../engine/values";
import { ApiError } from "../client";
import { ExplainedError } from "../engine/errors";
import { CHANGELOG_RATE_LIMIT, changelogArgs, changelogCommitArgs, changelogCommitBody, changelogNeeds, changelogPath } from "../api/repository";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { recordedOutput } from "../engine/definition";
import { defineActionTrigger, triggers } from "./action-trigger";

const schema = z.object({
  ...changelogArgs,
  ...changelogCommitArgs,
  /** Values whose change commits the notes again (the version alone usually suffices). */
  triggers,
});

export const changelogCommitDefinition = defineActionTrigger({
  name: "ChangelogCommit",
  words: { noun: "changelog commit" },
  schema,
  outputs: {
    /** When the notes were committed (ISO 8601). */
    committedAt: recordedOutput<string>(),
  },
  needs: (args) => ({
    ...changelogNeeds(args),
    subject: `${args.branch === undefined ? "the default branch" : `branch ${args.branch}`} of project ${args.project}`,
    ...(typeof args.branch === "string" && !isUnknown(args.branch) ? { refs: [{ property: "branch", name: args.branch, kind: "branch" as const }] } : {}),
  }),
  async run(ctx, args) {
    try {
      await ctx.client.post<unknown>(changelogPath(args), changelogCommitBody(args));
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) throw new ExplainedError(`ChangelogCommit: ${error.message} ${CHANGELOG_RATE_LIMIT}`);
      throw error;
    }
    return { id: `projects/${args.project}/changelog/${args.version}`, outputs: { committedAt: new Date().toISOString() } };
  },
});

export type ChangelogCommitArgs = ResourceArgs<typeof schema>;

/**
 * Commits a version's changelog at `up`: once when created, again when the
 * version (or another input) changes; never during a preview.
 *
 * ```ts
 * const version = new pulumi.Config().require("releaseVersion");
 * new ChangelogCommit("changelog", { project: "acme/web", version });
 * ```
 */
export interface ChangelogCommit extends ResourceOutputs<typeof changelogCommitDefinition> {}
export class ChangelogCommit extends PlatformResource {
  static {
    ofKind(this, changelogCommitDefinition);
  }
  constructor(name: string, args: ChangelogCommitArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
