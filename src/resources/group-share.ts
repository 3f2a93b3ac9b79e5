/** GroupShare: a group invited into a group (see ./share.ts). */
import * as pulumi from "@pulumi/pulumi";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { shareDefinition } from "./share";

export const groupShareDefinition = shareDefinition("group", "GroupShare", "gitlab_group_share_group");

export type GroupShareArgs = ResourceArgs<typeof groupShareDefinition.schema>;

/**
 * A group invited into a group: its members get their role in the group, its
 * subgroups and projects, at most `groupAccess`.
 *
 * ```ts
 * new GroupShare("ops-into-platform", { group: "acme/platform", sharedWith: "ops", groupAccess: "developer" });
 * ```
 */
export interface GroupShare extends ResourceOutputs<typeof groupShareDefinition> {}
export class GroupShare extends PlatformResource {
  static {
    ofKind(this, groupShareDefinition);
  }
  constructor(name: string, args: GroupShareArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
