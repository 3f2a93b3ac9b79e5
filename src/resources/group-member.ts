/** GroupMember: one user's direct membership of a group (see ./membership.ts). */
import * as pulumi from "@pulumi/pulumi";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { membershipDefinition } from "./membership";

export const groupMemberDefinition = membershipDefinition("group", "GroupMember");

export type GroupMemberArgs = ResourceArgs<typeof groupMemberDefinition.schema>;

/**
 * A user's direct membership of a group, with its role. Members of a group
 * are members of its subgroups and projects with the same role, at least.
 *
 * ```ts
 * new GroupMember("alice", { group: "acme", user: "alice", accessLevel: "maintainer", expiresAt: "2027-06-30" });
 * ```
 */
export interface GroupMember extends ResourceOutputs<typeof groupMemberDefinition> {}
export class GroupMember extends PlatformResource {
  static {
    ofKind(this, groupMemberDefinition);
  }
  constructor(name: string, args: GroupMemberArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
