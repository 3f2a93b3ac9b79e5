/**
 * The protected environments of a project and of a group (Premium and
 * Ultimate): who may deploy and whose approvals a deployment needs. Reading
 * them needs what managing them needs (`admin_protected_environments`): the
 * Maintainer role on a project, the Owner role on a group.
 */
import { z } from "zod";
import { ownerReference } from "../api/owner";
import { groupEnvironmentsOf, groupProtectedEnvironmentNeeds, projectEnvironmentsOf, protectedEnvironment, protectedEnvironmentNeeds } from "../api/protected-environments";
import { defineListFunction, type Camelized } from "./core";

export type ProtectedEnvironmentInfo = Camelized<z.output<typeof protectedEnvironment>>;

const projectEnvironments = defineListFunction({
  name: "getProtectedEnvironments",
  args: z.object({
    /** The project (id or full path). */
    project: ownerReference,
  }),
  path: (args) => projectEnvironmentsOf(args.project),
  subject: (args) => `the protected environments of project ${args.project}`,
  needs: (args) => protectedEnvironmentNeeds(args),
  item: protectedEnvironment,
});

/**
 * A project's protected environments, each with its deploy access levels and approval rules.
 *
 * ```ts
 * const environments = await getProtectedEnvironments({ project: "acme/web" });
 * ```
 */
export const getProtectedEnvironments = projectEnvironments;
/** `getProtectedEnvironments` as an Output. */
export const getProtectedEnvironmentsOutput = projectEnvironments.output;

const groupEnvironments = defineListFunction({
  name: "getGroupProtectedEnvironments",
  args: z.object({
    /** The group (id or full path). */
    group: ownerReference,
  }),
  path: (args) => groupEnvironmentsOf(args.group),
  subject: (args) => `the protected environments of group ${args.group}`,
  needs: (args) => groupProtectedEnvironmentNeeds(args),
  item: protectedEnvironment,
});

/**
 * A group's protected environments, one per deployment tier it protects.
 *
 * ```ts
 * const tiers = await getGroupProtectedEnvironments({ group: "acme" });
 * ```
 */
export const getGroupProtectedEnvironments = groupEnvironments;
/** `getGroupProtectedEnvironments` as an Output. */
export const getGroupProtectedEnvironmentsOutput = groupEnvironments.output;
