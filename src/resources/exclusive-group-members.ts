/** ExclusiveGroupMembers: a group's direct members are the program's (see ./exclusive-memberships.ts). */
import * as pulumi from "@pulumi/pulumi";
import { ofKind, PlatformResource, type ResourceOutputs } from "../engine/resource";
import { exclusiveMembershipsDefinition } from "./exclusive-memberships";
import type { ExclusiveSetArgs } from "./exclusive-set";

export const exclusiveGroupMembersDefinition = exclusiveMembershipsDefinition("group", "ExclusiveGroupMembers", "GroupMember");

export type ExclusiveGroupMembersArgs = ExclusiveSetArgs<{ group: string | number }>;

/**
 * The members the program declares are the only direct members of a group.
 * After a refresh, the preview names every other direct member and the next
 * `up` removes them; `ignore` leaves members managed elsewhere alone. It
 * never removes the token's user or the group's last Owner.
 *
 * ```ts
 * new ExclusiveGroupMembers("only-ours", { group: "acme", keep: [alice.userId, bob.userId], ignore: ["*_bot_*"] });
 * ```
 */
export interface ExclusiveGroupMembers extends ResourceOutputs<typeof exclusiveGroupMembersDefinition> {}
export class ExclusiveGroupMembers extends PlatformResource {
  static {
    ofKind(this, exclusiveGroupMembersDefinition);
  }
  constructor(name: string, args: ExclusiveGroupMembersArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
