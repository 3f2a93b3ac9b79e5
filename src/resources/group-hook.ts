/**
 * GroupHook: a group's webhook, for the events of the group and of every
 * project in it and its subgroups. The group cannot change in place; every
 * setting updates in place. Needs the Owner role and the Premium tier.
 */
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { GROUP_HOOK_EVENTS } from "../api/hooks";
import { ownerReference } from "../api/owner";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { ownerInput } from "./common";
import { eventSwitches, hookDefinition, hookSettings } from "./webhook";

const schema = z.object({
  /** The group (numeric id or full path). */
  group: ownerInput(ownerReference),
  ...hookSettings,
  /** The events that trigger the hook (`pushEvents` is on unless set false; the others are off unless set true). */
  ...eventSwitches(GROUP_HOOK_EVENTS),
});

export const groupHookDefinition = hookDefinition("group", schema);

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
  static {
    ofKind(this, groupHookDefinition);
  }
  constructor(name: string, args: GroupHookArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
