/**
 * The virtual-registry cleanup policy of a top-level group, and its scheduler.
 *
 * Behaviour taken from the real server's source:
 * - Gate: the `maven_virtual_registry` feature flag off → 404 (not 401 as on
 *   the container routes); a tier below Premium → 404; anonymous → 401;
 *   anyone but an Owner, and any subgroup → 403.
 * - One policy per group: a second POST is 400 `{"group":["has already been taken"]}`;
 *   GET or PATCH without one is `404 Not found`.
 * - cadence ∈ {1, 7, 14, 30, 90} days, keep_n_days_after_download ∈ 1..365,
 *   otherwise Grape's `does not have a valid value`.
 * - next_run_at is the last run (or the creation) plus the cadence. A run
 *   (`emulator.runDueWork()` once the clock passes next_run_at) deletes the
 *   cache entries of the group's upstreams not downloaded for
 *   keep_n_days_after_download days, and records the figures.
 */
import { hasGroupAccess } from "../../access";
import { forbidden, notFound, paramError, recordNotFound, validationError } from "../../errors";
import { findGroup } from "../../lookup";
import { created, noContent, ok, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, defineStore, type EmulatorState, type Group } from "../../state";
import { isPremiumOrAbove, virtualRegistryStore } from "./model";

const DAY_MS = 86_400_000;
export const CLEANUP_CADENCES = [1, 7, 14, 30, 90] as const;

export interface CleanupPolicyRecord {
  groupId: number;
  cadence: number;
  enabled: boolean;
  keepNDaysAfterDownload: number;
  notifyOnSuccess: boolean;
  notifyOnFailure: boolean;
  status: string;
  nextRunAt: string;
  lastRunAt: string | null;
  lastRunDeletedSize: number;
  lastRunDeletedEntriesCount: number;
  failureMessage: string | null;
  lastRunDetailedMetrics: Record<string, { deleted_entries_count: number; deleted_size: number }>;
  createdAt: string;
  updatedAt: string;
}

export const cleanupPolicyStore = defineStore("virtual-registry-cleanup", (): { policies: CleanupPolicyRecord[] } => ({ policies: [] }));

const addDays = (iso: string, days: number): string => new Date(Date.parse(iso) + days * DAY_MS).toISOString();

function gatedGroup(ctx: RequestContext<unknown>): Group {
  const group = findGroup(ctx);
  if (!ctx.state.featureEnabled("maven_virtual_registry", ctx.state.topLevelGroup(group))) throw notFound();
  if (!isPremiumOrAbove(ctx.state, group)) throw notFound();
  requireUser(ctx);
  if (group.parentId !== null || !hasGroupAccess(ctx.state, ctx.user, group, AccessLevel.Owner)) throw forbidden();
  return group;
}

const policyOf = (state: EmulatorState, group: Group) => cleanupPolicyStore.of(state).policies.find((p) => p.groupId === group.id);

function present(policy: CleanupPolicyRecord): Record<string, unknown> {
  return {
    group_id: policy.groupId,
    next_run_at: policy.nextRunAt,
    last_run_at: policy.lastRunAt,
    last_run_deleted_size: policy.lastRunDeletedSize,
    last_run_deleted_entries_count: policy.lastRunDeletedEntriesCount,
    keep_n_days_after_download: policy.keepNDaysAfterDownload,
    status: policy.status,
    cadence: policy.cadence,
    enabled: policy.enabled,
    notify_on_success: policy.notifyOnSuccess,
    notify_on_failure: policy.notifyOnFailure,
    failure_message: policy.failureMessage,
    last_run_detailed_metrics: policy.lastRunDetailedMetrics,
    created_at: policy.createdAt,
    updated_at: policy.updatedAt,
  };
}

const PATH = "/groups/:id/-/virtual_registries/cleanup/policy";
const policyParams = {
  id: { type: "string", required: true },
  cadence: { type: "integer", values: CLEANUP_CADENCES },
  enabled: { type: "boolean" },
  keep_n_days_after_download: { type: "integer", values: Array.from({ length: 365 }, (_, i) => i + 1) },
  notify_on_success: { type: "boolean" },
  notify_on_failure: { type: "boolean" },
} as const;
const WRITABLE = ["cadence", "enabled", "keep_n_days_after_download", "notify_on_success", "notify_on_failure"] as const;

/** Runs one policy now: deletes the stale cache entries of the group's upstreams and records the figures. */
function runPolicy(state: EmulatorState, policy: CleanupPolicyRecord): void {
  const store = virtualRegistryStore.of(state);
  const upstreamIds = new Set(store.upstreams.filter((u) => u.groupId === policy.groupId).map((u) => u.id));
  const cutoff = state.clock() - policy.keepNDaysAfterDownload * DAY_MS;
  const stale = store.cacheEntries.filter((entry) => upstreamIds.has(entry.upstreamId) && Date.parse(entry.downloadedAt) < cutoff);
  store.cacheEntries = store.cacheEntries.filter((entry) => !stale.includes(entry));
  const deletedSize = stale.reduce((sum, entry) => sum + entry.size, 0);
  const now = state.now();
  Object.assign(policy, {
    lastRunAt: now,
    nextRunAt: addDays(now, policy.cadence),
    lastRunDeletedSize: deletedSize,
    lastRunDeletedEntriesCount: stale.length,
    lastRunDetailedMetrics: { container: { deleted_entries_count: stale.length, deleted_size: deletedSize } },
    status: "scheduled",
    failureMessage: null,
  });
}

export const virtualRegistryCleanupRoutes: readonly RouteDefinition[] = [
    route("GET", PATH, { params: { id: policyParams.id } }, (ctx) => {
      const policy = policyOf(ctx.state, gatedGroup(ctx));
      if (!policy) throw recordNotFound();
      return ok(present(policy));
    }),

    route("POST", PATH, { params: policyParams }, (ctx) => {
      const group = gatedGroup(ctx);
      if (policyOf(ctx.state, group)) throw validationError({ group: ["has already been taken"] });
      const now = ctx.state.now();
      const { cadence = 7, enabled = false, keep_n_days_after_download = 30, notify_on_success = false, notify_on_failure = false } = ctx.params;
      const policy: CleanupPolicyRecord = {
        groupId: group.id,
        cadence,
        enabled,
        keepNDaysAfterDownload: keep_n_days_after_download,
        notifyOnSuccess: notify_on_success,
        notifyOnFailure: notify_on_failure,
        status: "scheduled",
        nextRunAt: addDays(now, cadence),
        lastRunAt: null,
        lastRunDeletedSize: 0,
        lastRunDeletedEntriesCount: 0,
        failureMessage: null,
        lastRunDetailedMetrics: {},
        createdAt: now,
        updatedAt: now,
      };
      cleanupPolicyStore.of(ctx.state).policies.push(policy);
      return created(present(policy));
    }),

    route("PATCH", PATH, { params: policyParams }, (ctx) => {
      if (WRITABLE.every((name) => ctx.params[name] === undefined)) {
        throw paramError(`${WRITABLE.join(", ")} are missing, at least one parameter must be provided`);
      }
      const policy = policyOf(ctx.state, gatedGroup(ctx));
      if (!policy) throw recordNotFound();
      const { cadence, enabled, keep_n_days_after_download, notify_on_success, notify_on_failure } = ctx.params;
      if (cadence !== undefined && cadence !== policy.cadence) {
        policy.cadence = cadence;
        policy.nextRunAt = addDays(policy.lastRunAt ?? policy.createdAt, cadence);
      }
      if (enabled !== undefined) policy.enabled = enabled;
      if (keep_n_days_after_download !== undefined) policy.keepNDaysAfterDownload = keep_n_days_after_download;
      if (notify_on_success !== undefined) policy.notifyOnSuccess = notify_on_success;
      if (notify_on_failure !== undefined) policy.notifyOnFailure = notify_on_failure;
      policy.updatedAt = ctx.state.now();
      return ok(present(policy));
    }),

    route("DELETE", PATH, { params: { id: policyParams.id } }, (ctx) => {
      const group = gatedGroup(ctx);
      const { policies } = cleanupPolicyStore.of(ctx.state);
      const policy = policyOf(ctx.state, group);
      if (!policy) throw recordNotFound();
      policies.splice(policies.indexOf(policy), 1);
      return noContent();
    }),
];

/** The scheduler: every enabled policy whose next run is due runs once. */
export function runDuePolicies(state: EmulatorState): void {
  const now = state.clock();
  for (const policy of cleanupPolicyStore.of(state).policies) {
    if (policy.enabled && Date.parse(policy.nextRunAt) <= now) runPolicy(state, policy);
  }
}
