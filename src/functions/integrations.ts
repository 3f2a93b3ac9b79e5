/**
 * Group integrations: the active
 * integrations of a group, and one integration with its settings. Both need
 * at least the Maintainer role in the group.
 *
 * Where the API documentation is silent, as real servers answer: the list is not paginated and holds active integrations only; one
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
import { groupIntegration as detailShape, groupIntegrationPath, groupIntegrationsPath, groupIntegrationSummary as summaryShape, INTEGRATION_CREDENTIALS } from "../api/integrations";
import { ownerReference } from "../api/owner";
import { defineListFunction, defineObjectFunction, groupNeeds, type Camelized } from "./core";

export type GroupIntegrationSummary = Camelized<z.output<typeof summaryShape>>;
export type GroupIntegrationInfo = Camelized<z.output<typeof detailShape>>;


const group = ownerReference;
const maintainerNeeded = groupNeeds("Maintainer");

const groupIntegrations = defineListFunction({
  name: "getGroupIntegrations",
  args: z.object({ /** The group (id or full path). */ group }),
  path: (args) => groupIntegrationsPath(args.group),
  subject: (args) => `the integrations of group ${args.group}`,
  needs: maintainerNeeded,
  secrets: INTEGRATION_CREDENTIALS,
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
  path: (args) => groupIntegrationPath(args.group, args.slug),
  subject: (args) => `the ${args.slug} integration of group ${args.group}`,
  refusals: {
    404: (args) =>
      `When the server names the Integration, ${args.slug} was never configured on this group (a disabled one is still found, inactive); set one up with GroupIntegration. Otherwise check the group.`,
  },
  needs: maintainerNeeded,
  secrets: INTEGRATION_CREDENTIALS,
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
