/** ProjectMember: one user's direct membership of a project (see ./membership.ts). */
import * as pulumi from "@pulumi/pulumi";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { membershipDefinition } from "./membership";

export const projectMemberDefinition = membershipDefinition("project", "ProjectMember");

export type ProjectMemberArgs = ResourceArgs<typeof projectMemberDefinition.schema>;

/**
 * A user's direct membership of a project, with its role. A project's members
 * also include its groups' members, whose role a direct one may raise, never lower.
 *
 * ```ts
 * new ProjectMember("bob", { project: "acme/web", user: "bob", accessLevel: "developer" });
 * ```
 */
export interface ProjectMember extends ResourceOutputs<typeof projectMemberDefinition> {}
export class ProjectMember extends PlatformResource {
  static {
    ofKind(this, projectMemberDefinition);
  }
  constructor(name: string, args: ProjectMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
