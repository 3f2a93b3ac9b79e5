/**
 * Repository: commit a release's changelog. The server generates the notes
 * as `getRepositoryChangelog` does and commits them to the changelog file on
 * a branch. It allows five changelog requests a minute per user and project
 * (reads included): the client waits out the window within
 * `platform:retryTimeout`, and a failure past it says so. A trigger resource
 * commits it when a release's version changes: ../resources/changelog-commit.ts.
 */
import { z } from "zod";
import { CHANGELOG_RATE_LIMIT, changelogArgs, changelogCommitArgs, changelogCommitBody, changelogNeeds, changelogPath, changelogSubject } from "../api/repository";
import { defineAction } from "./core";

/**
 * Generates the changelog of a version and commits it to the changelog file
 * (default `CHANGELOG.md`) on a branch (default: the default branch).
 * Answers the version and branch it committed.
 *
 * ```ts
 * await commitChangelog({ project: "acme/web", version: "1.5.0", message: "Changelog for 1.5.0" });
 * ```
 */
export const commitChangelog = defineAction({
  name: "commitChangelog",
  verb: "commit",
  args: z.object({ ...changelogArgs, ...changelogCommitArgs }),
  subject: changelogSubject,
  needs: changelogNeeds,
  refusals: {
    429: () => CHANGELOG_RATE_LIMIT,
  },
  async run(call, args) {
    await call.client.post<unknown>(changelogPath(args), changelogCommitBody(args));
    return { version: args.version, branch: args.branch ?? null, file: args.file ?? null };
  },
});
