/**
 * What the secrets test plants, derived from the code's own declarations: the
 * fields each resource declares secret (`secret: true` traits), per slug for
 * GroupIntegration, plus the token. A secret field added later is planted
 * automatically when it takes a string; a field the plan cannot plant fails
 * the test by name, so none is skipped silently.
 *
 * Every planted value is distinct and carries a marker (`plnt007z3f9a1c2e`):
 * letters and digits only, so it reads the same in JSON, URLs and logs, and a
 * search finds it in any text that holds the value or a part of it.
 */
import { randomBytes } from "node:crypto";
import type { z } from "zod";
import type { Declaration } from "./programs/secrets/index";
// The code's declarations, from the build the program runs.
import { definitions, type ResourceKind } from "../../dist/resources/index";
import { FAMILY_OF, INTEGRATION_SLUGS, integrationSettings, type IntegrationSlug } from "../../dist/resources/group-integration";
import type { FieldTraits } from "../../dist/engine/definition";

export type { Declaration };

/** One value planted somewhere: in a field, the token, a prior value on the server, an out-of-band edit. */
export interface Planted {
  marker: string;
  value: string;
  /** `GroupIntegration slack.webhook (set B, from config)`. */
  what: string;
  /** Made by the server (a DSN), not planted: searched for as it is, since it carries no marker. */
  serverMade?: boolean;
}

export const MARKER = /plnt\d{3}z[0-9a-f]{8}/g;

export class Plantings {
  readonly all: Planted[] = [];

  /** A new distinct value; `shape` says whether the field wants a URL. */
  plant(what: string, shape: "plain" | "url" = "plain"): string {
    const marker = `plnt${String(this.all.length).padStart(3, "0")}z${randomBytes(4).toString("hex")}`;
    const value = shape === "url" ? `https://secrets.example.com/hooks/${marker}` : marker;
    this.all.push({ marker, value, what });
    return value;
  }

  /** A secret the server made (an error-tracking DSN, its key): searched for like a planted value. */
  receive(value: string, what: string): void {
    if (!this.all.some((planted) => planted.value === value)) this.all.push({ marker: value, value, what, serverMade: true });
  }

  /** The server-made secrets received so far. */
  get serverMade(): Planted[] {
    return this.all.filter((planted) => planted.serverMade);
  }

  byMarker(marker: string): Planted | undefined {
    return this.all.find((planted) => planted.marker === marker);
  }
}

/** The secret fields a resource kind declares (`secret: true`), by property name. */
export function secretFieldsOf(kind: ResourceKind): string[] {
  const fields = (definitions[kind].fields ?? {}) as Record<string, FieldTraits | undefined>;
  // A visible property holding secret values (schedule variables) counts too: its values are planted (STRUCTURED).
  return Object.keys(fields).filter((name) => fields[name]?.secret === true || fields[name]?.secretParts !== undefined);
}

/** Every secret field of the code, as `Kind.field`, and `GroupIntegration <slug>.field` per slug that takes it. */
export function secretFieldsInCode(): string[] {
  const result: string[] = [];
  for (const kind of Object.keys(definitions) as ResourceKind[]) {
    const secret = secretFieldsOf(kind);
    if (kind === "GroupIntegration") {
      for (const slug of INTEGRATION_SLUGS) for (const field of integrationSettings(slug)) if (secret.includes(field)) result.push(`GroupIntegration ${slug}.${field}`);
    } else {
      for (const field of secret) result.push(`${kind}.${field}`);
    }
  }
  return result.sort();
}

/** Resources whose settings are read back and kept as prior values: their secret fields also get a planted prior value. */
export const SETTINGS_KINDS = (Object.keys(definitions) as ResourceKind[]).filter((kind) => definitions[kind].kind === "settings");

// ---------------------------------------------------------------------------
// The declarations, before their secrets are planted

const BOT_EVENTS = ["pushEvents", "issuesEvents", "confidentialIssuesEvents", "mergeRequestsEvents", "tagPushEvents", "noteEvents", "confidentialNoteEvents", "pipelineEvents", "wikiPageEvents"];

/** The non-secret settings each slug needs; its secrets are planted. */
function integrationArgs(slug: IntegrationSlug): Record<string, unknown> {
  const ci: Partial<Record<IntegrationSlug, Record<string, unknown>>> = {
    bamboo: { bambooUrl: "https://bamboo.example.com", buildKey: "PLAT-BUILD", username: "ci-bot" },
    teamcity: { teamcityUrl: "https://teamcity.example.com", buildType: "Platform_Build", username: "ci-bot" },
    "drone-ci": { droneUrl: "https://drone.example.com" },
    buildkite: { projectUrl: "https://buildkite.com/acme/platform" },
  };
  // The slugs of the other families that take a secret: their required settings besides it.
  const others: Partial<Record<IntegrationSlug, Record<string, unknown>>> = {
    jira: { url: "https://jira.example.com", username: "ci-bot" },
    zentao: { url: "https://zentao.example.com", zentaoProductXid: "7" },
    harbor: { url: "https://harbor.example.com", projectName: "platform", username: "robot" },
    packagist: { username: "acme" },
    pushover: { priority: "0", device: "", sound: "" },
    "diffblue-cover": { diffblueAccessTokenName: "cover-bot" },
    "squash-tm": { url: "https://squash.example.com/hook" },
  };
  switch (FAMILY_OF[slug]) {
    case "chat notifier":
      return { channel: "ci", pushEvents: false };
    case "messaging bot":
      return { room: "ops", ...Object.fromEntries(BOT_EVENTS.map((name) => [name, name === "pipelineEvents"])) };
    case "CI server":
      return ci[slug]!;
    case "monitoring":
      return slug === "prometheus" ? { apiUrl: "https://prometheus.example.com", googleIapAudienceClientId: "platform.apps.example.com" } : { datadogEnv: "ci" };
    default:
      return others[slug] ?? {};
  }
}

/** Why the exclusive sets (../../src/resources/exclusive-set.ts) are not in the secrets program. */
const EXCLUSIVE_SET =
  "no secret input or output (an entry of `unexpected` names an object by id, name, URL or slug); a refresh in the secrets program would record the other declarations' objects as unexpected, and exclusive-sets.e2e.test.ts checks its own exported state";
/**
 * Kinds the secrets program does not declare, each with the reason: only a
 * kind with no secret field, input or output, may be left out.
 */
export const NOT_IN_SECRETS_PROGRAM: Partial<Record<ResourceKind, string>> = {
  SamlIdentity:
    "no secret input or output (an extern_uid is an identifier), and group SAML identities exist on the hosted offering only, while the secrets program runs on a self-managed instance",
  ExclusiveBadges: EXCLUSIVE_SET,
  ExclusiveSamlGroupLinks: EXCLUSIVE_SET,
  ExclusivePipelineSchedules: EXCLUSIVE_SET,
  ExclusiveGroupIntegrations: EXCLUSIVE_SET,
  ExclusiveUpstreams: EXCLUSIVE_SET,
  MergeRequest: "no secret input or output",
  ContainerRegistryCleanup: "no secret input or output (a rule of tag names and ages)",
  PipelineScheduleRun: "no secret input or output: a trigger that runs a schedule at up",
  ChangelogCommit: "no secret input or output: a trigger that commits a changelog at up",
};

/** One declaration of each kind (the Upstream's registry comes first), without secrets. */
const BASE: Partial<Record<Exclude<ResourceKind, "GroupIntegration">, Omit<Declaration, "kind" | "secrets">>> = {
  VirtualRegistry: { name: "registry", args: { group: "acme", name: "secrets-test" } },
  Upstream: { name: "upstream", args: { registry: { output: ["registry", "registryId"] }, name: "Docker Hub", url: "https://registry-1.docker.io", username: "puller" } },
  CleanupPolicy: { name: "cleanup", args: { group: "acme", enabled: true, cadence: 7 } },
  // No secret input or output, but nothing stops declaring it here: acme&1 takes the unassigned epic 5 on the Ultimate instance.
  EpicLink: { name: "epic-link", args: { group: "acme", epicIid: 1, childEpicId: 5 } },
  PipelineSchedule: {
    name: "schedule",
    args: {
      project: "acme/web",
      description: "Secrets test",
      ref: "main",
      cron: "0 3 * * *",
      variables: [
        { key: "FIRST_SECRET", value: "" },
        { key: "SECOND_SECRET", value: "" },
      ],
    },
  },
  ApplicationSettings: { name: "instance", args: { akismetEnabled: true, recaptchaEnabled: true, signupEnabled: false } },
  GroupSettings: { name: "group-settings", args: { group: "acme", twoFactorGracePeriod: 24, requestAccessEnabled: false } },
  Badge: { name: "badge", args: { project: "acme/web", name: "secrets", linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/badge.svg" } },
  SamlGroupLink: { name: "saml", args: { group: "acme", samlGroupName: "secrets-test", accessLevel: "developer" } },
  ContainerRegistryVisibility: { name: "registry-visibility", args: { project: "acme/web", accessLevel: "private" } },
  // No secret input; its secret outputs (the DSN) come from the server: secrets.e2e.test.ts searches for them too.
  ErrorTrackingClientKey: { name: "error-tracking-key", args: { project: "acme/web" } },
  // No secret input or output; declared anyway, as root (the stack's user) starring acme/web, which root has not starred.
  ProjectStar: { name: "star", args: { project: "acme/web" } },
};

/** Secret fields that hold structures: where in them the secret strings go (values the program marks secret itself). */
const STRUCTURED: Record<string, (string | number)[][]> = {
  "PipelineSchedule.variables": [
    ["variables", 0, "value"],
    ["variables", 1, "value"],
  ],
};

/** A field's value: plain when the schema takes it, else a URL (webhooks). */
function shapeOf(kind: ResourceKind, field: string): "plain" | "url" {
  const schema = (definitions[kind].schema as z.ZodObject).shape[field] as z.ZodType;
  return schema.safeParse("plnt000z00000000").success ? "plain" : "url";
}

/** Where a secret field's planted strings go in the declaration's arguments. */
function pathsOf(kind: ResourceKind, field: string): (string | number)[][] {
  const structured = STRUCTURED[`${kind}.${field}`];
  if (structured) return structured;
  const schema = (definitions[kind].schema as z.ZodObject).shape[field] as z.ZodType;
  if (!schema.safeParse("plnt000z00000000").success && !schema.safeParse("https://secrets.example.com/x").success) {
    throw new Error(`the secrets test does not know how to plant ${kind}.${field} (it takes no string): add it to STRUCTURED in test/e2e/secrets-plan.ts`);
  }
  return [[field]];
}

export interface PlantedField {
  /** `GroupIntegration slack.webhook`, `Upstream.password`. */
  field: string;
  value: string;
  viaConfig: boolean;
}

/**
 * The declarations of one set of secrets: every kind, every slug that takes a
 * secret, a fresh planted value in every secret string. Values alternate
 * between the stack config and the program's run time (`configFirst` says
 * which comes first, so a rotation swaps them). Returns the declarations, the
 * config secrets to set, and what was planted where.
 */
export function declarationsWithSecrets(plantings: Plantings, set: string, configFirst: boolean) {
  const declarations: Declaration[] = [];
  const config: Record<string, string> = {};
  const fields: PlantedField[] = [];
  let index = 0;
  const plantInto = (declaration: Declaration, kind: ResourceKind, field: string, label: string) => {
    for (const path of pathsOf(kind, field)) {
      const viaConfig = index++ % 2 === (configFirst ? 0 : 1);
      const value = plantings.plant(`${label}${path.length > 1 ? ` ${path.join(".")}` : ""} (set ${set}, ${viaConfig ? "stack config" : "program run time"})`, shapeOf(kind, field));
      const key = `${set.toLowerCase()}${String(index).padStart(3, "0")}`;
      if (viaConfig) config[key] = value;
      // A structured field's values (a schedule variable's) are as secret as the program gives them: a run-time one is wrapped.
      const wrapped = STRUCTURED[`${kind}.${field}`] !== undefined;
      declaration.secrets.push({ path, from: viaConfig ? { config: key } : { runtime: value, ...(wrapped ? { wrapped } : {}) } });
      fields.push({ field: label, value, viaConfig });
    }
  };

  for (const kind of Object.keys(definitions) as ResourceKind[]) {
    const secret = secretFieldsOf(kind);
    if (kind === "GroupIntegration") {
      for (const slug of INTEGRATION_SLUGS) {
        const planted = integrationSettings(slug).filter((field) => secret.includes(field));
        if (planted.length === 0) continue; // issue trackers take no secret
        const declaration: Declaration = { kind, name: `integration-${slug}`, args: { group: "acme", slug, ...integrationArgs(slug) }, secrets: [] };
        for (const field of planted) plantInto(declaration, kind, field, `GroupIntegration ${slug}.${field}`);
        declarations.push(declaration);
      }
      continue;
    }
    const base = BASE[kind];
    if (!base) {
      const outputs = definitions[kind].outputs as Record<string, { secret?: boolean }>;
      const secretOutputs = Object.keys(outputs).filter((name) => outputs[name]?.secret && name !== "restoreSecrets");
      if (NOT_IN_SECRETS_PROGRAM[kind] && secretFieldsOf(kind).length === 0 && secretOutputs.length === 0) continue;
      throw new Error(`the secrets test has no declaration of ${kind}: add one to BASE in test/e2e/secrets-plan.ts (only a kind without secrets may be listed in NOT_IN_SECRETS_PROGRAM)`);
    }
    const declaration: Declaration = { kind, name: base.name, args: structuredClone(base.args), secrets: [] };
    for (const field of secret) plantInto(declaration, kind, field, `${kind}.${field}`);
    declarations.push(declaration);
  }
  // The program declares them in order: the registry before its upstream.
  declarations.sort((a, b) => Number(a.kind === "Upstream") - Number(b.kind === "Upstream"));
  return { declarations, config, fields };
}
