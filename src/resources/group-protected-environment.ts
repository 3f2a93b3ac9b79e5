/** GroupProtectedEnvironment: a group's protected environment, by deployment tier (see ./environment-protection.ts). */
import type * as pulumi from "@pulumi/pulumi";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { environmentProtectionDefinition } from "./environment-protection";

export const groupProtectedEnvironmentDefinition = environmentProtectionDefinition("group", "GroupProtectedEnvironment");

export type GroupProtectedEnvironmentArgs = ResourceArgs<typeof groupProtectedEnvironmentDefinition.schema>;

/**
 * A group's protected environment: the environments of one deployment tier
 * (production, staging, testing, development or other) in every project
 * below the group, who may deploy to them and whose approvals a deployment
 * needs (Premium and Ultimate; the group's Owner role). A change is made in
 * place, one PUT.
 *
 * ```ts
 * new GroupProtectedEnvironment("production", { group: "acme", name: "production", deployAccessLevels: [{ accessLevel: "maintainer" }] });
 * ```
 */
export interface GroupProtectedEnvironment extends ResourceOutputs<typeof groupProtectedEnvironmentDefinition> {}
export class GroupProtectedEnvironment extends PlatformResource {
  static {
    ofKind(this, groupProtectedEnvironmentDefinition);
  }
  constructor(name: string, args: GroupProtectedEnvironmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
