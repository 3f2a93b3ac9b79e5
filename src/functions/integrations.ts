/**
 * Group integrations: the active
 * integrations of a group, and one integration with its settings. Both need
 * at least the Maintainer role in the group.
 *
 * Where the API documentation is silent, real servers (lib/api/integrations.rb,
 * integratable_operations.rb, Entities::IntegrationBasic / Integration) are
 * followed: the list is not paginated and holds active integrations only; one
 * integration adds `properties`, its settings by name; one never configured
 * on the group is 404 `Integration Not Found`; a disabled one (DELETE) is
 * still found, `active: false`, settings reset.
 *
 * Secrets: real servers leave password-type settings and the webhook out of
 * `properties`, but older ones and other implementations of this API show
 * them. Whenever a result holds a webhook, a token, a key or a password (or a
 * per-event webhook override), its Output form is secret.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { ownerReference } from "../api/owner";
import { defineListFunction, defineObjectFunction, type Camelized } from "./core";

/** Null behaves as false; a server may leave out switches its edition lacks. */
const flag = z.boolean().nullable().optional();

const summaryShape = z.looseObject({
  id: z.number(),
  title: z.string(),
  /** The integration's name in paths (`slack`, `microsoft-teams`). */
  slug: z.string(),
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  active: z.boolean(),
  commit_events: flag,
  push_events: flag,
  issues_events: flag,
  alert_events: flag,
  confidential_issues_events: flag,
  merge_requests_events: flag,
  tag_push_events: flag,
  deployment_events: flag,
  note_events: flag,
  confidential_note_events: flag,
  pipeline_events: flag,
  wiki_page_events: flag,
  job_events: flag,
  comment_on_event_enabled: flag,
  /** True when the settings come from an ancestor group's integration (`use_inherited_settings`). */
  inherited: flag,
  /** Enterprise edition only. */
  vulnerability_events: flag,
});

const detailShape = summaryShape.extend({
  /** The settings by name (`webhook`, `branches_to_be_notified`, ...), camelCased like every key. */
  properties: z.record(z.string(), z.unknown()).optional(),
});

export type GroupIntegrationSummary = Camelized<z.output<typeof summaryShape>>;
export type GroupIntegrationInfo = Camelized<z.output<typeof detailShape>>;

/** Settings names (camelCase) that carry credentials, or webhooks that let anyone post. */
export const INTEGRATION_SECRETS = [
  "webhook",
  "token",
  "apiKey",
  "password",
  "serviceAccountKey",
  ...["issue", "confidentialIssue", "mergeRequest", "note", "confidentialNote", "pipeline", "push", "tagPush", "wikiPage", "deployment", "groupMentions", "groupConfidentialMentions"].map(
    (event) => `${event}Channel`,
  ),
] as const;

const group = ownerReference;
const maintainerNeeded = () => "Group integrations need at least the Maintainer role in the group.";

const groupIntegrations = defineListFunction({
  name: "getGroupIntegrations",
  args: z.object({ /** The group (id or full path). */ group }),
  path: (args) => apiPath`/groups/${args.group}/integrations`,
  subject: (args) => `the integrations of group ${args.group}`,
  refusals: { 403: maintainerNeeded },
  secrets: INTEGRATION_SECRETS,
  item: summaryShape,
});

/**
 * The active integrations of a group, with their event switches.
 *
 * ```ts
 * const chat = (await getGroupIntegrations({ group: "acme" })).filter((i) => i.slug === "slack");
 * ```
 */
export const getGroupIntegrations = groupIntegrations;
/** `getGroupIntegrations` as an Output. */
export const getGroupIntegrationsOutput = groupIntegrations.output;

const groupIntegration = defineObjectFunction({
  name: "getGroupIntegration",
  args: z.object({
    group,
    /** The integration's slug, as in its path: lowercase words joined by dashes. */
    slug: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, { message: "must be an integration's slug, lowercase words joined by dashes (slack, microsoft-teams, custom-issue-tracker)" }),
  }),
  path: (args) => apiPath`/groups/${args.group}/integrations/${args.slug}`,
  subject: (args) => `the ${args.slug} integration of group ${args.group}`,
  refusals: {
    404: (args) =>
      `When the server names the Integration, ${args.slug} was never configured on this group (a disabled one is still found, inactive); set one up with GroupIntegration. Otherwise check the group, and that the token's user can see it.`,
    403: maintainerNeeded,
  },
  secrets: INTEGRATION_SECRETS,
  result: detailShape,
});

/**
 * One integration of a group with its settings; secret in the Output form when the server shows a credential.
 *
 * ```ts
 * const slack = await getGroupIntegration({ group: "acme", slug: "slack" });
 * console.log(slack.active, slack.properties?.branchesToBeNotified);
 * ```
 */
export const getGroupIntegration = groupIntegration;
/** `getGroupIntegration` as an Output. */
export const getGroupIntegrationOutput = groupIntegration.output;
