/**
 * GroupIntegration: one integration configured on a group for its projects.
 *
 * The API has no create: `PUT /groups/:id/integrations/<slug>` sets an
 * integration up (creating or overwriting it), DELETE disables it and resets
 * its settings. Real servers also:
 * - never return secret settings (`api_field_names` drops password-type
 *   fields, i.e. names with token/key/password/secret, and `webhook`);
 * - declare a slug's required settings with Grape `requires`, so every PUT
 *   must carry them, secrets included ("webhook is missing" otherwise);
 * - keep an optional secret that a PUT leaves out, except when a URL setting
 *   that "exposes secrets" changes in the same PUT: then every secret not sent
 *   is reset.
 * So a PUT here sends the slug's required settings, the changed ones, and all
 * secrets when such a URL changes; an unchanged optional secret is not resent.
 *
 * Which slugs exist and what each takes is data: ./group-integration-catalogue.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { field } from "../api/fields";
import { ApiError, mayHaveBeenApplied } from "../client";
import { groupIntegrationPath, groupIntegrationsPath, integrationRequests, integrationSummaryRequests, type GroupIntegration as IntegrationLive, groupIntegrationIdForm } from "../api/integrations";
import { defineObjectResource, type EngineContext, type FieldTraits } from "../engine/definition";
import { ExplainedError, PartialCreateError } from "../engine/errors";
import { ofKind, PlatformResource, type ResourceOutputs } from "../engine/resource";
import type { ConnectionArg } from "../engine/connections";
import { apiFieldName } from "../engine/values";
import { onGroup } from "../api/needs";
import { ownerInput } from "./common";
import {
  common,
  CROSS_SETTING_RULES,
  EXPOSES_SECRETS,
  FAMILY_OF,
  INTEGRATION_SLUGS,
  integrationSettings,
  kinds,
  PROJECT_ONLY_SLUGS,
  requiredSettings,
  SECRET_SETTINGS,
  type IntegrationSlug,
} from "./group-integration-catalogue";
import { parsedId } from "../api/id-form";
import type { EstateReading, Findings, Found, NotDeclared } from "../engine/estate";

// The slugs and their settings are data: ./group-integration-catalogue.ts.
export { BRANCHES_TO_BE_NOTIFIED, FAMILY_OF, INTEGRATION_SLUGS, integrationSettings, PROJECT_ONLY_SLUGS, type IntegrationSlug } from "./group-integration-catalogue";

// ---------------------------------------------------------------------------
// The engine's view: one object with every setting optional; `validate` then
// holds the declaration to its slug's exact shape.

const byKind = z.discriminatedUnion("slug", kinds);

const allSettings: Record<string, z.ZodType> = {};
for (const k of kinds) {
  for (const [name, schema] of Object.entries(k.shape)) {
    if (name === "slug" || name in common) continue;
    const optional = schema instanceof z.ZodOptional ? schema : (schema as z.ZodType).optional();
    // A setting that slugs take with different rules (`token` is a bot's token for telegram, an
    // API token for pivotaltracker) is left to `validate`, which holds it to its own slug's rule
    // and says so; the first slug's rule here would fail it with the wrong explanation.
    const type = !(name in allSettings) || sameRule(allSettings[name]!, optional) ? optional : z.unknown().optional();
    const traits = settingTraits(name);
    allSettings[name] = traits ? field(type, traits) : type;
  }
}

/**
 * A setting's traits: credentials are secret, and the server never shows them
 * (the last applied value is kept); nor `buildKey`, not a secret, but its name
 * matches the server's secret-name pattern (token|key|password|...).
 */
function settingTraits(name: string): FieldTraits | undefined {
  if (SECRET_SETTINGS.includes(name)) return { secret: true, writeOnly: true };
  return name === "buildKey" ? { writeOnly: true } : undefined;
}

function sameRule(a: z.ZodType, b: z.ZodType): boolean {
  const inner = (s: z.ZodType) => (s instanceof z.ZodOptional ? s.unwrap() : s);
  // A setting's traits are on a copy of its type: the rule is the type it was copied from.
  const origin = (s: z.ZodType): z.ZodType => (s._zod.parent as z.ZodType | undefined) ?? s;
  return inner(origin(a)) === inner(origin(b));
}

const slugSchema = z.string().superRefine((value, issue) => {
  if ((INTEGRATION_SLUGS as string[]).includes(value)) return;
  const message = (PROJECT_ONLY_SLUGS as readonly string[]).includes(value)
    ? `${value} exists only for projects; groups cannot configure it`
    : `must be one of ${INTEGRATION_SLUGS.join(", ")}`;
  issue.addIssue({ code: "custom", message });
}) as unknown as z.ZodType<IntegrationSlug, string>; // what the refinement lets through

const schema = z.object({ ...common, slug: ownerInput(slugSchema), ...allSettings });
type Inputs = z.output<typeof schema> & Record<string, unknown>;

const SECRET_NAMES: ReadonlySet<string> = new Set(SECRET_SETTINGS);
/** The address and the provider's options: never part of a body. */
const NOT_SENT = new Set(["group", "slug", "adoptExisting"]);

/** The declaration held to its slug's exact shape, then to the rules across its settings. */
function validate(args: Inputs): { property: string; reason: string }[] {
  // An undefined property is an unset one, not an unknown setting.
  const declared = Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
  const slug = args.slug as IntegrationSlug;
  const result = byKind.safeParse(declared);
  if (result.success) return CROSS_SETTING_RULES[slug]?.(declared) ?? [];
  const takes = () => integrationSettings(slug).join(", ");
  return result.error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({
        property: key,
        reason: `${key}: the ${slug} integration (${FAMILY_OF[slug]}) has no such setting; it takes ${takes()}`,
      }));
    }
    const property = issue.path.join(".");
    const missing = issue.code === "invalid_type" && args[property] === undefined;
    const reason = missing ? `${property}: required by the ${slug} integration (${FAMILY_OF[slug]})` : `${property}: ${issue.message}`;
    return [{ property, reason }];
  });
}

// ---------------------------------------------------------------------------
// Requests

/** The resource id is the integration's API path: `groups/acme/integrations/slack`. */
function parseId(id: string): { path: string } {
  return { path: parsedId("GroupIntegration", groupIntegrationIdForm, id) };
}

const pathOf = (args: Inputs) => groupIntegrationPath(args.group, args.slug);
const idOf = (args: Inputs) => pathOf(args).slice(1);

/** The settings sit in `properties`, the switches beside them: one flat view for the engine. */
function flatten(live: IntegrationLive): IntegrationLive {
  return { ...live, ...(live.properties ?? {}) };
}

/** The live integration, or undefined when it was never configured or has been disabled (reset). */
async function readActive(ctx: EngineContext, path: string): Promise<IntegrationLive | undefined> {
  try {
    const live = await integrationRequests.get(ctx.client, path);
    return live.active ? flatten(live) : undefined;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.notFoundSubject === "Integration") return undefined;
    throw error;
  }
}

/**
 * The PUT body: the slug's required settings (the server demands them every
 * time), what changed, and every declared secret when a URL that exposes
 * secrets changed (the server resets the secrets it is not sent then).
 */
function setupBody(args: Inputs, changed: ReadonlySet<string> | "all"): Record<string, unknown> {
  const required = requiredSettings(args.slug);
  const exposing = EXPOSES_SECRETS[args.slug as IntegrationSlug] ?? [];
  const resendSecrets = changed === "all" || exposing.some((name) => changed.has(name));
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || NOT_SENT.has(name)) continue;
    const isSecret = SECRET_NAMES.has(name);
    const send = changed === "all" || required.has(name) || changed.has(name) || (isSecret && resendSecrets);
    if (send) body[apiFieldName(name, undefined)] = value;
  }
  return body;
}

async function setUp(ctx: EngineContext, args: Inputs, changed: ReadonlySet<string> | "all"): Promise<IntegrationLive> {
  return flatten(await integrationRequests.put(ctx.client, pathOf(args), setupBody(args, changed)));
}

/**
 * A group's integration of `slug` as platform-import declares it, when active:
 * its required write-only settings, which the server never shows, become
 * config entries.
 */
async function importedIntegration({ owner, read }: EstateReading, slug: string): Promise<Findings> {
  if (!(INTEGRATION_SLUGS as string[]).includes(slug)) return { found: [], skipped: [{ what: `integration ${slug}`, why: "the package does not manage this integration on groups" }] };
  const importId = groupIntegrationPath(owner.id, slug).slice(1);
  const address = { group: owner.id, slug };
  const live = await read(importId, address);
  if (!live) return { found: [] };
  const fields: Record<string, FieldTraits | undefined> = groupIntegrationDefinition.fields ?? {};
  const secrets = [...requiredSettings(slug)].filter((name) => fields[name]?.writeOnly);
  return { found: [{ importId, name: slug, live, address, secrets }] };
}

export const groupIntegrationDefinition = defineObjectResource({
  name: "GroupIntegration",
  words: { noun: "group integration" },
  imported: {
    word: "integration",
    listed: "integrations",
    on: ["group"],
    async find(reading) {
      const { ctx, owner } = reading;
      const summaries = await integrationSummaryRequests.list(ctx.client, groupIntegrationsPath(owner.id));
      const found: Found[] = [];
      const skipped: NotDeclared[] = [];
      const inherited: string[] = [];
      for (const summary of summaries.filter((one) => one.active).sort((a, b) => a.slug.localeCompare(b.slug, "en"))) {
        // An integration whose settings come from an ancestor's is that ancestor's to declare: the run over it imports it.
        if (summary.inherited === true) {
          inherited.push(summary.slug);
          skipped.push({ what: `integration ${summary.slug}`, why: "it inherits an ancestor group's settings; that group's integration is the one imported" });
          continue;
        }
        const one = await importedIntegration(reading, summary.slug);
        found.push(...one.found);
        skipped.push(...(one.skipped ?? []));
      }
      // The inherited ones stay: the set ignores them, so it never disables what an ancestor manages.
      const address = { group: owner.id, ...(inherited.length > 0 ? { ignore: inherited } : {}) };
      return { found, skipped, collections: [{ address, members: found.map((one) => one.importId) }] };
    },
    findOne: (reading, slug) => importedIntegration(reading, String(slug)),
  },
  terraform: [
    {
      // The group's id, or the `group` attribute; the slug is in the type's name.
      type: /^gitlab_group_integration_[a-z_]+$/,
      target: (id, attributes, type) => ({
        owner: { kind: "group", ref: typeof attributes.group === "string" && attributes.group !== "" ? attributes.group : id },
        key: type.slice("gitlab_group_integration_".length).replace(/_/g, "-"),
      }),
    },
    { type: /^gitlab_(project_)?integration_|^gitlab_service_/, target: () => ({ skipped: "a project's integration: the package manages groups' integrations only" }) },
  ],
  idForm: groupIntegrationIdForm,
  notFoundSubject: "Integration",
  schema,
  outputs: {
    /** The integration's numeric id on the server. */
    integrationId: (live: IntegrationLive) => live.id,
    /** The server's name for the integration (`Slack notifications`). */
    title: (live) => live.title,
    active: (live) => live.active,
  },
  validate,
  // An integration already active (set up by hand, or taken from an ancestor) is refused by create: take it over instead.
  needs: (args) => ({
    on: onGroup(args.group),
    role: "Maintainer",
    unique: {
      list: "integrations",
      read: (ctx, owner) => integrationSummaryRequests.getAll(ctx.client, groupIntegrationsPath(owner.id)),
      find: (integrations) =>
        integrations.some((integration) => integration.slug === args.slug && integration.active === true)
          ? { what: `an active ${args.slug} integration`, id: idOf(args) }
          : undefined,
    },
  }),

  async create(ctx, args) {
    // A PUT overwrites whatever is there: an integration someone already set up
    // by hand is taken over only when the program says so. (With adoptExisting
    // the engine's adopt has just looked, and found nothing active.)
    if (args.adoptExisting !== true) {
      const existing = await readActive(ctx, pathOf(args));
      if (existing) {
        throw new ExplainedError(
          `GroupIntegration: the ${args.slug} integration is already active on group ${args.group} (set up outside this stack). ` +
            `Set adoptExisting: true to take it over with the declared settings, or disable it on the group first.`,
        );
      }
    }
    try {
      return { id: idOf(args), live: await setUp(ctx, args, "all") };
    } catch (error) {
      // A PUT whose answer was lost may have set it up: recorded now (group and slug, nothing else known),
      // the next `up` updates it in place; otherwise its create would find it active and refuse.
      if (!mayHaveBeenApplied(error)) throw error;
      throw new PartialCreateError(
        `${(error as Error).message} The integration may have been set up all the same; it is recorded, and the next \`pulumi up\` sends its settings again.`,
        idOf(args),
        { group: args.group, slug: args.slug },
      );
    }
  },

  async read(ctx, id) {
    return readActive(ctx, parseId(id).path);
  },

  async update(ctx, _id, args, changed) {
    return setUp(ctx, args, changed);
  },

  async delete(ctx, id) {
    // Real servers keep the record and reset it (active false): that is "deleted".
    await ctx.client.delete(parseId(id).path);
  },

  async adopt(ctx, args) {
    const live = await readActive(ctx, pathOf(args));
    return live ? { id: idOf(args), live } : undefined;
  },
});

// ---------------------------------------------------------------------------
// The Pulumi class

type KindInputs = z.input<typeof byKind>;
/** Each slug's own arguments: `slug` is a literal, so the type tells which settings it takes. */
type ArgsOf<T> = T extends { slug: infer Slug } ? { slug: Slug } & { [K in keyof T as K extends "slug" ? never : K]: pulumi.Input<T[K]> } : never;
export type GroupIntegrationArgs = ArgsOf<KindInputs> & ConnectionArg;

/**
 * An integration configured on a group for all its projects (a chat notifier,
 * an issue tracker, a CI server, ...). Secrets (`webhook`, `token`, `apiKey`,
 * `apiToken`, `userKey`, `password`, license keys, per-event overrides) are
 * kept secret in the state.
 *
 * ```ts
 * new GroupIntegration("chat", {
 *   group: "acme", slug: "mattermost",
 *   webhook: config.requireSecret("mattermostWebhook"),
 *   branchesToBeNotified: "protected", pipelineEvents: true, pushEvents: false,
 * });
 * ```
 */
export interface GroupIntegration extends ResourceOutputs<typeof groupIntegrationDefinition> {}
export class GroupIntegration extends PlatformResource {
  static {
    ofKind(this, groupIntegrationDefinition);
  }
  constructor(name: string, args: GroupIntegrationArgs, opts?: pulumi.CustomResourceOptions) {
    super(name, args, opts);
  }
}
