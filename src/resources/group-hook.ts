/**
 * GroupHook: a group's webhook, for the events of the group and of every
 * project in it and its subgroups. The group cannot change in place; every
 * setting updates in place. Needs the Owner role and the Premium tier.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { GROUP_HOOK_EVENTS, hookNeeds, groupHookIdForm, type Hook as HookLive } from "../api/hooks";
import { ownerReference } from "../api/owner";
import { defineObjectResource } from "../engine/definition";
import { PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { ownerInput } from "./common";
import { createHook, eventSwitches, hookSettings, importedHook, importedHooks, readHook, terraformHook, updateHook, validateHook } from "./webhook";

const schema = z.object({
  /** The group (numeric id or full path). */
  group: ownerInput(ownerReference),
  ...hookSettings,
  /** The events that trigger the hook (`pushEvents` is on unless set false; the others are off unless set true). */
  ...eventSwitches(GROUP_HOOK_EVENTS),
});

export const groupHookDefinition = defineObjectResource({
  name: "GroupHook",
  words: { noun: "group webhook" },
  imported: {
    word: "group-hook",
    listed: "group webhooks",
    on: ["group"],
    find: (reading) => importedHooks(reading, "group"),
    findOne: (reading, key) => importedHook(reading, "group", key),
  },
  terraform: [{ type: "gitlab_group_hook", target: (id) => terraformHook("group", id) }],
  idForm: groupHookIdForm,
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
  needs: (args) => hookNeeds("group", args.group),
  create(ctx, args) {
    return createHook(ctx, this.fields, args);
  },
  read: (ctx, id) => readHook(ctx, "group", id),
  update(ctx, id, args, changed, olds) {
    return updateHook(ctx, this.fields, id, args, changed, olds);
  },
  async delete(ctx, id) {
    await ctx.client.delete("/" + id);
  },
});

export type GroupHookArgs = ResourceArgs<typeof schema>;

/**
 * A group webhook (Premium and up): the platform POSTs the events of the
 * group and its projects that it is on for to `url`, with `token` in `X-Gitlab-Token`.
 *
 * ```ts
 * new GroupHook("audit", { group: "acme", url: "https://audit.example.com/platform",
 *   token: config.requireSecret("auditHookToken"), pushEvents: false, memberEvents: true, subgroupEvents: true });
 * ```
 */
export interface GroupHook extends ResourceOutputs<typeof groupHookDefinition> {}
export class GroupHook extends PlatformResource {
  constructor(name: string, args: GroupHookArgs, opts?: pulumi.CustomResourceOptions) {
    super(groupHookDefinition, name, args, opts);
  }
}
