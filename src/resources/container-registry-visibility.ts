/**
 * ContainerRegistryVisibility: who may see the container registry of a project
 * that already exists (`container_registry_access_level`
 * through `PUT /projects/:id`). A settings resource (../engine/settings.ts): it
 * never creates or deletes the project; create records the level the project
 * had, and delete gives it back unless `restoreOnDelete: false`.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { field } from "../api/fields";
import { ownerInput } from "./common";
import { defineSettingsResource, type EngineContext } from "../engine/definition";
import { ExplainedError } from "../engine/errors";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { restoreOnDelete } from "../engine/settings";
import { onProject } from "../api/needs";
import { ownerReference } from "../api/owner";
import { projectRequests, projectPath, type Project as ProjectLive } from "../api/projects";

export const REGISTRY_ACCESS_LEVELS = ["enabled", "private", "disabled"] as const;

const schema = z.object({
  /** The project (numeric id or full path). Never created or deleted here. */
  project: ownerInput(ownerReference),
  /**
   * `enabled`: visible to everyone with access to the project (a public
   * project's registry is public); `private`: only members with at least the
   * Reporter role; `disabled`: the registry is off.
   */
  accessLevel: field(z.enum(REGISTRY_ACCESS_LEVELS), { api: "container_registry_access_level" }),
  /** Give the prior level back on delete (default true); false leaves it as it is. */
  restoreOnDelete,
});

/** The resource id is the project's API path without the leading slash. */
const pathOfId = (id: string) => "/" + id;
const readProject = (ctx: EngineContext, path: string) => projectRequests.get(ctx.client, path);

export const containerRegistryVisibilityDefinition = defineSettingsResource({
  name: "ContainerRegistryVisibility",
  words: { noun: "container registry visibility" },
  imported: {
    word: "registry-visibility",
    listed: "container registry visibility",
    on: ["project"],
    async find({ owner, locate }) {
      const address = { project: owner.id };
      const located = await locate(address);
      if (located.live.container_registry_access_level === undefined) return { found: [], skipped: [{ what: "container registry visibility", why: "the server shows no container registry access level" }] };
      return { found: [{ importId: located.id, name: "", live: located.live, address }] };
    },
  },
  onePerOwner: { owner: "project", what: "registry visibility for" },
  notFoundSubject: "Project",
  schema,
  outputs: {
    /** The project's numeric id. */
    projectId: (live: ProjectLive) => live.id,
    fullPath: (live) => live.path_with_namespace,
  },
  // Changing a project's features needs admin_project: the Maintainer role.
  needs: (args, operation) => (operation === "read" ? { on: onProject(args.project) } : { on: onProject(args.project), role: "Maintainer" }),

  async locate(ctx, args) {
    const live = await readProject(ctx, projectPath(args.project));
    // The numeric id: a rename or transfer of the project never loses the resource.
    return { id: `projects/${live.id}`, live };
  },

  async read(ctx, id) {
    return readProject(ctx, pathOfId(id));
  },

  async update(ctx, id, args) {
    const live = await projectRequests.put(ctx.client, pathOfId(id), { container_registry_access_level: args.accessLevel });
    // Servers from before the field (GitLab < 14.9) ignore it and answer 200 without it.
    if (live.container_registry_access_level !== args.accessLevel) {
      throw new ExplainedError(
        `ContainerRegistryVisibility: the server did not apply container_registry_access_level ${args.accessLevel} to project ${live.path_with_namespace} ` +
          `(it answered ${JSON.stringify(live.container_registry_access_level ?? null)}); it may be too old to know the setting.`,
      );
    }
    return live;
  },
});

export type ContainerRegistryVisibilityArgs = ResourceArgs<typeof schema>;

/**
 * The visibility of an existing project's container registry. Delete gives the
 * prior level back (unless `restoreOnDelete: false`).
 *
 * ```ts
 * new ContainerRegistryVisibility("web-registry", { project: "acme/web", accessLevel: "private" });
 * ```
 */
export interface ContainerRegistryVisibility extends ResourceOutputs<typeof containerRegistryVisibilityDefinition> {}
export class ContainerRegistryVisibility extends PlatformResource {
  static {
    ofKind(this, containerRegistryVisibilityDefinition);
  }
  constructor(name: string, args: ContainerRegistryVisibilityArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
