/**
 * ProjectHook: a project's webhook. The project cannot change in place; every
 * setting updates in place. Needs the Maintainer role.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { PROJECT_HOOK_EVENTS, hookNeeds, projectHookIdForm, type Hook as HookLive } from "../api/hooks";
import { ownerReference } from "../api/owner";
import { defineObjectResource } from "../engine/definition";
import { PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { ownerInput } from "./common";
import { createHook, eventSwitches, hookSettings, importedHook, importedHooks, readHook, terraformHook, updateHook, validateHook } from "./webhook";

const schema = z.object({
  /** The project (numeric id or full path). */
  project: ownerInput(ownerReference),
  ...hookSettings,
  /** The events that trigger the hook (`pushEvents` is on unless set false; the others are off unless set true). */
  ...eventSwitches(PROJECT_HOOK_EVENTS),
});

export const projectHookDefinition = defineObjectResource({
  name: "ProjectHook",
  words: { noun: "project webhook" },
  imported: {
    word: "project-hook",
    listed: "project webhooks",
    on: ["project"],
    find: (reading) => importedHooks(reading, "project"),
    findOne: (reading, key) => importedHook(reading, "project", key),
  },
  terraform: [{ type: "gitlab_project_hook", target: (id) => terraformHook("project", id) }],
  idForm: projectHookIdForm,
  schema,
  outputs: {
    /** The hook's numeric id on the server. */
    hookId: { value: (live: HookLive) => live.id, fromId: (id) => Number(id.split("/").at(-1)) },
    /** `executable`, or `temporarily_disabled`/`disabled` after repeated failed deliveries (as last read). */
    alertStatus: { value: (live: HookLive) => live.alert_status ?? "executable", derivedFrom: [] },
    /** Until when a temporarily disabled hook gets no events; null otherwise. */
    disabledUntil: { value: (live: HookLive) => live.disabled_until ?? null, derivedFrom: [] },
  },
  validate: validateHook,
  needs: (args) => hookNeeds("project", args.project),
  create(ctx, args) {
    return createHook(ctx, this.fields, args);
  },
  read: (ctx, id) => readHook(ctx, "project", id),
  update(ctx, id, args, changed, olds) {
    return updateHook(ctx, this.fields, id, args, changed, olds);
  },
  async delete(ctx, id) {
    await ctx.client.delete("/" + id);
  },
});

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
  constructor(name: string, args: ProjectHookArgs, opts?: pulumi.CustomResourceOptions) {
    super(projectHookDefinition, name, args, opts);
  }
}
