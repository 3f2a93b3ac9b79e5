/** ProtectedEnvironment: a project's protected environment, by its name (see ./environment-protection.ts). */
import type * as pulumi from "@pulumi/pulumi";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { environmentProtectionDefinition } from "./environment-protection";

export type { EnvironmentDeployEntry, EnvironmentApprovalEntry } from "./environment-protection";

export const protectedEnvironmentDefinition = environmentProtectionDefinition("project", "ProtectedEnvironment");

export type ProtectedEnvironmentArgs = ResourceArgs<typeof protectedEnvironmentDefinition.schema>;

/**
 * A project's protected environment: who may deploy to it, and whose
 * approvals a deployment needs (Premium and Ultimate). A change is made in
 * place, one PUT: the environment is never unprotected in between.
 *
 * ```ts
 * new ProtectedEnvironment("production", {
 *   project: "acme/web",
 *   name: "production",
 *   deployAccessLevels: [{ accessLevel: "maintainer" }, { groupId: 12, groupInheritanceType: 1 }],
 *   approvalRules: [{ accessLevel: "maintainer", requiredApprovals: 2 }],
 * });
 * ```
 */
export interface ProtectedEnvironment extends ResourceOutputs<typeof protectedEnvironmentDefinition> {}
export class ProtectedEnvironment extends PlatformResource {
  static {
    ofKind(this, protectedEnvironmentDefinition);
  }
  constructor(name: string, args: ProtectedEnvironmentArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
