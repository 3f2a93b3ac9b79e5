/**
 * Project and group webhooks: an owner's hooks with their event switches.
 * Real servers never show a hook's token (nor its custom headers' values),
 * so no result holds one; a hook's URL may carry credentials, so the Output
 * forms are secret when they list a hook.
 */
import { z } from "zod";
import { hook as hookShape, hookNeeds, hooksPath } from "../api/hooks";
import { ownerReference } from "../api/owner";
import { defineListFunction, type Camelized } from "./core";

export type HookInfo = Camelized<z.output<typeof hookShape>>;

const projectHooks = defineListFunction({
  name: "getProjectHooks",
  args: z.object({ /** The project (id or full path). */ project: ownerReference }),
  path: (args) => hooksPath({ project: args.project }),
  subject: (args) => `the webhooks of project ${args.project}`,
  needs: (args) => hookNeeds("project", args.project),
  item: hookShape,
});

/**
 * A project's webhooks: URL, name, event switches, branch filter, custom
 * header names, and whether repeated failures disabled one (`alertStatus`).
 * Never a token.
 *
 * ```ts
 * const hooks = await getProjectHooks({ project: "acme/web" });
 * const disabled = hooks.filter((hook) => hook.alertStatus !== "executable");
 * ```
 */
export const getProjectHooks = projectHooks;
/** `getProjectHooks` as an Output; secret when it lists a hook, whose URL may carry credentials. */
export const getProjectHooksOutput = projectHooks.output;

const groupHooks = defineListFunction({
  name: "getGroupHooks",
  args: z.object({ /** The group (id or full path). */ group: ownerReference }),
  path: (args) => hooksPath({ group: args.group }),
  subject: (args) => `the webhooks of group ${args.group}`,
  needs: (args) => hookNeeds("group", args.group),
  item: hookShape,
});

/**
 * A group's webhooks (Premium and up), as `getProjectHooks` gives a project's,
 * with the group's own switches (`subgroupEvents`, `memberEvents`, `projectEvents`). Never a token.
 *
 * ```ts
 * const hooks = await getGroupHooks({ group: "acme" });
 * ```
 */
export const getGroupHooks = groupHooks;
/** `getGroupHooks` as an Output; secret when it lists a hook, whose URL may carry credentials. */
export const getGroupHooksOutput = groupHooks.output;
