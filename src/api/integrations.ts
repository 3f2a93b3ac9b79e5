/**
 * Integrations of a group: the list of its active integrations
 * (`/groups/:id/integrations`, not paginated) and one integration by its slug,
 * with `properties`, its settings by name. One never configured on the group is
 * 404 `Integration Not Found`; a disabled one (DELETE resets it) is still
 * found, `active: false`.
 */
import { z } from "zod";
import { apiPath, pathSegment } from "../client";
import { requestsOf } from "./core";
import { idForm } from "./id-form";

/** Null behaves as false; a server may leave out switches its edition lacks. */
const flag = z.boolean().nullable().optional();

export const groupIntegrationSummary = z.looseObject({
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

export const groupIntegration = groupIntegrationSummary.extend({
  /** The settings by name (`webhook`, `branches_to_be_notified`, ...), camelCased like every key. */
  properties: z.record(z.string(), z.unknown()).optional(),
});

/** Per-event webhook (or channel) overrides of the chat notifiers that have them. */
export const CHANNEL_OVERRIDES = [
  "pushChannel",
  "issueChannel",
  "confidentialIssueChannel",
  "mergeRequestChannel",
  "noteChannel",
  "confidentialNoteChannel",
  "tagPushChannel",
  "pipelineChannel",
  "wikiPageChannel",
  "deploymentChannel",
  "groupMentionsChannel",
  "groupConfidentialMentionsChannel",
  // IntegrationsHelpers.chat_notification_channels also has these two.
  "alertChannel",
  "incidentChannel",
] as const;

/**
 * The settings that hold credentials, or webhooks that let anyone post, by
 * name (camelCase; a name means the same thing in every integration that
 * takes it): secret wherever they are written or read.
 */
export const INTEGRATION_CREDENTIALS: readonly string[] = [
  "webhook",
  "token",
  "apiKey",
  "apiToken",
  "userKey",
  "password",
  "diffblueLicenseKey",
  "diffblueAccessTokenSecret",
  "googleIapServiceAccountJson",
  // Google Play's, as a project shows it.
  "serviceAccountKey",
  ...CHANNEL_OVERRIDES,
];

export type GroupIntegrationSummary = z.output<typeof groupIntegrationSummary>;
export type GroupIntegration = z.output<typeof groupIntegration>;
export const integrationSummaryRequests = requestsOf(groupIntegrationSummary);
export const integrationRequests = requestsOf(groupIntegration);

/** `/groups/acme/integrations`. */
export const groupIntegrationsPath = (group: string | number): string => apiPath`/groups/${group}/integrations`;
/** `/groups/acme/integrations/slack`. */
export const groupIntegrationPath = (group: string | number, slug: string): string => `${groupIntegrationsPath(group)}/${pathSegment(slug)}`;

/** A recorded integration id (`groups/acme/integrations/slack`), or a slug alone. */
const INTEGRATION_ID = /^(groups\/[^/]+\/integrations\/)?([a-z0-9-]+)$/;

/** A recorded integration id read back as its API path; undefined when it is not one. */
export function parseGroupIntegrationId(id: string): string | undefined {
  return INTEGRATION_ID.exec(id)?.[1] ? "/" + id : undefined;
}

/** A group integration id as resources record it. */
export const groupIntegrationIdForm = idForm("of the form groups/<group>/integrations/<slug>", parseGroupIntegrationId);

/** The slug of a recorded integration id, or of a slug alone. */
export const integrationSlugOf = (value: string): string | undefined => INTEGRATION_ID.exec(value)?.[2];
