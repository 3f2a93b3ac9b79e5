/** ExclusiveProjectMembers: a project's direct members are the program's (see ./exclusive-memberships.ts). */
import * as pulumi from "@pulumi/pulumi";
import { ofKind, PlatformResource, type ResourceOutputs } from "../engine/resource";
import { exclusiveMembershipsDefinition } from "./exclusive-memberships";
import type { ExclusiveSetArgs } from "./exclusive-set";

export const exclusiveProjectMembersDefinition = exclusiveMembershipsDefinition("project", "ExclusiveProjectMembers", "ProjectMember");

export type ExclusiveProjectMembersArgs = ExclusiveSetArgs<{ project: string | number }>;

/**
 * The members the program declares are the only direct members of a project.
 * After a refresh, the preview names every other direct member and the next
 * `up` removes them; `ignore` leaves members managed elsewhere alone. It
 * never removes the token's user or a project's inherited members.
 *
 * ```ts
 * new ExclusiveProjectMembers("only-ours", { project: "acme/web", keep: [alice.userId, bob.userId], ignore: ["*_bot_*"] });
 * ```
 */
export interface ExclusiveProjectMembers extends ResourceOutputs<typeof exclusiveProjectMembersDefinition> {}
export class ExclusiveProjectMembers extends PlatformResource {
  static {
    ofKind(this, exclusiveProjectMembersDefinition);
  }
  constructor(name: string, args: ExclusiveProjectMembersArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
