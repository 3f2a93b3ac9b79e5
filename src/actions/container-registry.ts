/**
 * The container registry: delete one tag, or one repository with all its
 * tags. A tag's deletion is done when answered (its blobs wait for garbage
 * collection); a repository's is scheduled (its status reads
 * `delete_scheduled`, then it is gone). Rules that delete many tags are the
 * cleanup resource's, not actions.
 */
import { z } from "zod";
import { inRepository, projectRepositoryPath, registryRepositorySubject, registryTagPath } from "../api/container-registry";
import { defineAction, projectNeeds } from "./core";
import { notDotSegments } from "../validation";

/**
 * Deletes one tag of a project's registry repository. A tag matching a
 * protection rule the caller's role does not pass is refused.
 *
 * ```ts
 * await deleteRegistryTag({ project: "acme/web", repositoryId: 3, name: "pr-142" });
 * ```
 */
export const deleteRegistryTag = defineAction({
  name: "deleteRegistryTag",
  verb: "delete",
  args: z.object({ ...inRepository, /** The tag's name. */ name: z.string().min(1).regex(/^[^/]+$/, { message: "must be a tag name (no /)" }).refine(...notDotSegments) }),
  subject: (args) => `tag ${args.name} of ${registryRepositorySubject(args)}`,
  needs: projectNeeds("Developer"),
  refusals: {
    403: () => "A protected tag also needs a role its protection rules allow to delete it (the server says `cannot delete protected tag(s)` then).",
  },
  async run(call, args) {
    await call.client.delete(registryTagPath(args.project, args.repositoryId, args.name));
    return { deleted: args.name };
  },
});

/**
 * Schedules the deletion of a project's registry repository with all its
 * tags; answers at once (the deletion runs in the background).
 *
 * ```ts
 * await deleteRegistryRepository({ project: "acme/web", repositoryId: 3 });
 * ```
 */
export const deleteRegistryRepository = defineAction({
  name: "deleteRegistryRepository",
  verb: "delete",
  args: z.object(inRepository),
  subject: registryRepositorySubject,
  needs: projectNeeds("Maintainer"),
  async run(call, args) {
    await call.client.delete(projectRepositoryPath(args.project, args.repositoryId));
    return { scheduled: true as const };
  },
});
