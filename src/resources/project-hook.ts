/**
 * ProjectHook: a project's webhook. The project cannot change in place; every
 * setting updates in place. Needs the Maintainer role.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { PROJECT_HOOK_EVENTS } from "../api/hooks";
import { ownerReference } from "../api/owner";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { ownerInput } from "./common";
import { eventSwitches, hookDefinition, hookSettings } from "./webhook";

const schema = z.object({
  /** The project (numeric id or full path). */
  project: ownerInput(ownerReference),
  ...hookSettings,
  /** The events that trigger the hook (`pushEvents` is on unless set false; the others are off unless set true). */
  ...eventSwitches(PROJECT_HOOK_EVENTS),
});

export const projectHookDefinition = hookDefinition("project", schema);

export type ProjectHookArgs = ResourceArgs<typeof schema>;

/**
 * A project webhook: the platform POSTs the events it is on for to `url`,
 * with `token` in `X-Gitlab-Token`.
 *
 * ```ts
 * new ProjectHook("ci-events", { project: "acme/web", url: "https://ci.example.com/hooks/platform",
 *   token: config.requireSecret("hookToken"), pushEvents: true, mergeRequestsEvents: true, pushEventsBranchFilter: "main" });
 * ```
 */
export interface ProjectHook extends ResourceOutputs<typeof projectHookDefinition> {}
export class ProjectHook extends PlatformResource {
  static {
    ofKind(this, projectHookDefinition);
  }
  constructor(name: string, args: ProjectHookArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
