/**
 * What a client reads to learn, before it writes, whether the server will
 * accept the write, besides the caller's effective role (the members area's
 * `members/all/:user_id`): a namespace's plan, the instance's licence and its
 * feature flags. The provider's preview verification (src/engine/verify.ts)
 * reads these.
 *
 * - `GET /namespaces/:id`:
 *   `plan` only for callers who may administer the namespace (its Owners and
 *   administrators). On the hosted offering it is the top-level group's
 *   subscription; on self-managed and dedicated instances namespaces carry no
 *   subscription and show `default` [inferred: `actual_plan_name` without
 *   namespace plans], the licence decides.
 * - `GET /license`: administrators only; its `plan`.
 * - `GET /features`: administrators only; the flags set
 *   on the instance, each `on`, `off` or `conditional` with its gates (`actors`
 *   as flipper ids, `Group:<id>`). A flag never set is not listed.
 * - `GET /features/definitions`:
 *   administrators only; every flag the code defines, with `default_enabled`,
 *   the value a flag never set runs on. A flag removed from the code (its
 *   feature generally available) is in neither list and is on.
 */
import { hasGroupAccess } from "../../access";
import { forbidden, notFound } from "../../errors";
import { findGroup } from "../../lookup";
import { ok, requireUser, route } from "../../router";
import { type EmulatorArea } from "../../area";
import type { EmulatorState, Group } from "../../state";
import { AccessLevel } from "../../state";

/** The plan a namespace shows: the hosted subscription of its top-level group, else `default`. */
function planOf(state: EmulatorState, group: Group): string {
  return state.instance.offering === "hosted" ? state.tierOf(group) : "default";
}

const namespace = route("GET", "/namespaces/:id", { params: { id: { type: "string", required: true } } }, (ctx) => {
  const user = requireUser(ctx);
  let group: Group;
  try {
    group = findGroup(ctx);
  } catch {
    throw notFound("Namespace");
  }
  const { state } = ctx;
  const body: Record<string, unknown> = {
    id: group.id,
    name: group.name,
    path: group.path,
    kind: "group",
    full_path: state.groupFullPath(group),
    parent_id: group.parentId,
    avatar_url: null,
    web_url: `https://${state.instance.host}/groups/${state.groupFullPath(group)}`,
  };
  if (hasGroupAccess(state, user, group, AccessLevel.Owner)) body.plan = planOf(state, group);
  return ok(body);
});

const license = route("GET", "/license", {}, (ctx) => {
  if (!requireUser(ctx).isAdmin) throw forbidden();
  const { tier } = ctx.state.instance;
  return ok({ id: 1, plan: tier, expired: false, starts_at: "2026-01-01", expires_at: "2027-01-01", user_limit: 100, active_users: ctx.state.users.length });
});

const features = route("GET", "/features", {}, (ctx) => {
  if (!requireUser(ctx).isAdmin) throw forbidden();
  const { state } = ctx;
  const flags = Object.entries(state.instance.featureFlags ?? {}).map(([name, setting]) => {
    if (typeof setting === "boolean") return { name, state: setting ? "on" : "off", gates: [{ key: "boolean", value: setting }] };
    const actors = setting.flatMap((path) => {
      const group = state.groupByFullPath(path);
      return group ? [`Group:${group.id}`] : [];
    });
    return { name, state: "conditional", gates: [{ key: "boolean", value: false }, { key: "actors", value: actors }] };
  });
  return ok(flags);
});

const featureDefinitions = route("GET", "/features/definitions", {}, (ctx) => {
  if (!requireUser(ctx).isAdmin) throw forbidden();
  const definitions = Object.entries(ctx.state.featureFlagDefinitions()).map(([name, { defaultEnabled }]) => ({
    name,
    introduced_by_url: null,
    rollout_issue_url: null,
    milestone: null,
    log_state_changes: null,
    type: "beta",
    group: null,
    default_enabled: defaultEnabled,
  }));
  return ok(definitions);
});

export const accessFactsArea: EmulatorArea = { name: "access-facts", routes: [namespace, license, features, featureDefinitions] };
