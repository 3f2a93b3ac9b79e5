/** ProjectShare: a group invited into a project (see ./share.ts). */
import * as pulumi from "@pulumi/pulumi";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { shareDefinition } from "./share";

export const projectShareDefinition = shareDefinition("project", "ProjectShare", "gitlab_project_share_group");

export type ProjectShareArgs = ResourceArgs<typeof projectShareDefinition.schema>;

/**
 * A group invited into a project: its members get their role in the project,
 * at most `groupAccess`, which is no higher than the sharer's own role there.
 *
 * ```ts
 * new ProjectShare("qa-on-web", { project: "acme/web", sharedWith: "qa", groupAccess: "reporter", expiresAt: "2027-06-30" });
 * ```
 */
export interface ProjectShare extends ResourceOutputs<typeof projectShareDefinition> {}
export class ProjectShare extends PlatformResource {
  static {
    ofKind(this, projectShareDefinition);
  }
  constructor(name: string, args: ProjectShareArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
