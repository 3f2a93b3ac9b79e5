/**
 * CleanupPolicy: the virtual-registry cache cleanup policy of a top-level
 * group. One per group: create is POST,
 * update a PATCH of the changed fields, delete a DELETE; a group change
 * deletes the old policy before creating the new one. The run figures
 * (`nextRunAt`, `lastRunAt`, ...) are outputs only, so they never show as a diff.
 * A policy that already exists is taken over with `adoptExisting: true`. The
 * resource id is the group as declared; the policy has no id of its own.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { ApiError } from "../client";
import { defineObjectResource, type EngineContext } from "../engine/definition";
import { ExplainedError } from "../engine/errors";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { requestBody } from "../engine/values";
import { onGroup } from "../api/needs";
import { adoptExisting, ownerInput } from "./common";
import { cleanupPolicyRequests, cleanupPolicyPath as policyPath, topLevelGroup, type CleanupPolicy as CleanupPolicyLive } from "../api/virtual-registries";

const CADENCES = [1, 7, 14, 30, 90] as const;

const schema = z.object({
  /** The top-level group (id or path). */
  group: ownerInput(topLevelGroup),
  /** Days between runs: 1 daily, 7 weekly, 14 bi-weekly, 30 monthly, 90 quarterly. */
  cadence: z
    .number()
    .refine((value) => (CADENCES as readonly number[]).includes(value), { message: "must be one of 1, 7, 14, 30 or 90 (days)" })
    .optional(),
  enabled: z.boolean().optional(),
  /** Cache entries not downloaded for this many days are deleted (1 to 365). */
  keepNDaysAfterDownload: z.number().int().min(1).max(365).optional(),
  notifyOnSuccess: z.boolean().optional(),
  notifyOnFailure: z.boolean().optional(),
  adoptExisting,
});

/**
 * The group's policy, or undefined when it has none (ActiveRecord's `404 Not found`, raised once the flag and the
 * tier passed; their own `404 Not Found` is an error, as is a missing group).
 */
async function currentPolicy(ctx: EngineContext, group: string | number): Promise<CleanupPolicyLive | undefined> {
  try {
    return await cleanupPolicyRequests.get(ctx.client, policyPath(group));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.serverMessage.trim() === "404 Not found") return undefined;
    throw error;
  }
}

/** Fields a PATCH must carry at least one of on real servers (`at_least_one_of`); the notify flags do not count. */
const PATCH_ANCHORS = ["enabled", "cadence", "keepNDaysAfterDownload"] as const;

export const cleanupPolicyDefinition = defineObjectResource({
  name: "CleanupPolicy",
  words: { noun: "cleanup policy" },
  imported: {
    word: "cleanup-policy",
    listed: "cleanup policy",
    on: ["top-level group"],
    async find({ owner, read }) {
      const address = { group: owner.id };
      const live = await read(String(owner.id), address);
      return { found: live ? [{ importId: String(owner.id), name: "", live, address }] : [] };
    },
  },
  onePerOwner: { owner: "group", what: "cleanup policy for" },
  schema,
  // One policy per group: the old one must go before the new one can be created.
  deleteBeforeReplace: true,
  // Unlike the container registry routes, this one answers 404 for a missing tier and a missing flag alike.
  // A group has one policy.
  needs: (args) => ({
    on: onGroup(args.group),
    role: "Owner",
    tier: "premium",
    featureFlag: "maven_virtual_registry",
    refusedWith: { 404: ["tier", "featureFlag"] },
    unique: {
      list: "cleanup policy",
      read: async (ctx, owner) => {
        const policy = await currentPolicy(ctx, owner.id);
        return policy ? [policy] : [];
      },
      find: (policies) => (policies.length ? { what: "a cleanup policy", id: String(args.group) } : undefined),
    },
  }),
  outputs: {
    groupId: (live: CleanupPolicyLive) => live.group_id,
    /** When the next run is due. */
    nextRunAt: (live: CleanupPolicyLive) => live.next_run_at,
    lastRunAt: (live: CleanupPolicyLive) => live.last_run_at,
    /** Bytes the last run deleted. */
    lastRunDeletedSize: (live: CleanupPolicyLive) => live.last_run_deleted_size,
    lastRunDeletedEntriesCount: (live: CleanupPolicyLive) => live.last_run_deleted_entries_count,
    /** `scheduled`, or another state of the run. */
    status: (live: CleanupPolicyLive) => live.status,
    failureMessage: (live: CleanupPolicyLive) => live.failure_message,
    /** The last run's figures per registry kind (`container`, `maven`). */
    lastRunDetailedMetrics: (live: CleanupPolicyLive) => live.last_run_detailed_metrics,
  },

  async create(ctx, args) {
    try {
      // A lost response is recovered by reading the group's policy: there can be only one.
      const live = await cleanupPolicyRequests.post(ctx.client, policyPath(args.group), requestBody(this.fields, args), () => currentPolicy(ctx, args.group));
      return { id: String(args.group), live };
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.fieldErrors?.["group"]?.some((m) => /taken/.test(m))) {
        throw new ExplainedError(
          `CleanupPolicy: group ${String(args.group)} already has a cleanup policy (a group has one). ` +
            "Set `adoptExisting: true` to take it over, or delete it first.",
        );
      }
      throw error;
    }
  },

  async read(ctx, id) {
    return currentPolicy(ctx, id);
  },

  async update(ctx, id, args, changed) {
    const body = requestBody(this.fields, args, changed);
    if (Object.keys(body).length === 0) {
      // Only provider options changed: nothing to send, the current policy is the result.
      const live = await currentPolicy(ctx, id);
      if (!live) throw new ExplainedError(`CleanupPolicy: group ${id} has no cleanup policy any more; run \`pulumi refresh\`.`);
      return live;
    }
    // Real servers want one of enabled, cadence or keep_n_days_after_download in every PATCH:
    // when only a notify flag changes, the declared (or current) `enabled` goes along unchanged.
    if (!PATCH_ANCHORS.some((name) => changed.has(name))) {
      const anchor = PATCH_ANCHORS.find((name) => args[name] !== undefined);
      if (anchor) Object.assign(body, requestBody(this.fields, args, new Set([anchor])));
      else body["enabled"] = (await currentPolicy(ctx, id))?.enabled ?? false;
    }
    return cleanupPolicyRequests.patch(ctx.client, policyPath(id), body);
  },

  async delete(ctx, id) {
    await ctx.client.delete(policyPath(id));
  },

  async adopt(ctx, args) {
    const live = await currentPolicy(ctx, args.group);
    return live ? { id: String(args.group), live } : undefined;
  },
});

export type CleanupPolicyArgs = ResourceArgs<typeof schema>;

/**
 * The virtual-registry cleanup policy of a top-level group.
 *
 * ```ts
 * new CleanupPolicy("cleanup", { group: "acme", cadence: 7, enabled: true, keepNDaysAfterDownload: 30 });
 * ```
 */
export interface CleanupPolicy extends ResourceOutputs<typeof cleanupPolicyDefinition> {}
export class CleanupPolicy extends PlatformResource {
  static {
    ofKind(this, cleanupPolicyDefinition);
  }
  constructor(name: string, args: CleanupPolicyArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
