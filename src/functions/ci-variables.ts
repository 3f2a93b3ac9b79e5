/**
 * The CI/CD variables of a project, a group or the instance, each with its
 * value (null for a hidden variable, whose value the server never shows).
 * Values are secrets: the Output form of each function is secret.
 */
import { z } from "zod";
import { ciVariable, groupVariablesPath, INSTANCE_VARIABLES_PATH, projectVariablesPath, variableNeeds } from "../api/ci-variables";
import { ownerReference } from "../api/owner";
import { defineListFunction, type Camelized } from "./core";

export type CiVariableInfo = Camelized<z.output<typeof ciVariable>>;

const projectVariables = defineListFunction({
  name: "getProjectVariables",
  args: z.object({ /** The project (id or full path). */ project: ownerReference }),
  path: (args) => projectVariablesPath(args.project),
  subject: (args) => `the CI/CD variables of project ${args.project}`,
  needs: (args) => variableNeeds("project", args),
  item: ciVariable,
});

/**
 * A project's CI/CD variables, every scope of each key (a secret Output in the Output form).
 *
 * ```ts
 * const variables = getProjectVariablesOutput({ project: "acme/web" });
 * ```
 */
export const getProjectVariables = projectVariables;
/** `getProjectVariables` as an Output; secret, since it holds the values. */
export const getProjectVariablesOutput = projectVariables.output;

const groupVariables = defineListFunction({
  name: "getGroupVariables",
  args: z.object({ /** The group (id or full path). */ group: ownerReference }),
  path: (args) => groupVariablesPath(args.group),
  subject: (args) => `the CI/CD variables of group ${args.group}`,
  needs: (args) => variableNeeds("group", args),
  item: ciVariable,
});

/**
 * A group's own CI/CD variables (not those of its ancestors).
 *
 * ```ts
 * const variables = await getGroupVariables({ group: "acme" });
 * ```
 */
export const getGroupVariables = groupVariables;
/** `getGroupVariables` as an Output; secret, since it holds the values. */
export const getGroupVariablesOutput = groupVariables.output;

const instanceVariables = defineListFunction({
  name: "getInstanceVariables",
  args: z.object({}),
  path: () => INSTANCE_VARIABLES_PATH,
  subject: () => "the instance's CI/CD variables",
  needs: () => variableNeeds("instance", {}),
  item: ciVariable,
});

/**
 * The instance's CI/CD variables (self-managed; an administrator's token).
 *
 * ```ts
 * const variables = await getInstanceVariables({});
 * ```
 */
export const getInstanceVariables = instanceVariables;
/** `getInstanceVariables` as an Output; secret, since it holds the values. */
export const getInstanceVariablesOutput = instanceVariables.output;
