/**
 * The `integrations` seed section, keyed by group full path:
 * `{ "acme": [{ "slug": "slack", "properties": { "webhook": "https://..." }, "events": { "push_events": false }, "active": true }] }`.
 * Integrations configured from the start, as a PUT (active) or a DELETE
 * (`active: false`, settings reset) would have left them. Slugs and settings
 * are checked against the catalogue; required settings must be given.
 */
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
import type { EmulatorState, Group } from "../../state";
import { EVENT_DEFAULTS, INTEGRATION_SEQUENCE, integrationStore, KINDS, type IntegrationRecord } from "./model";

const GROUP_SLUGS = Object.keys(KINDS).filter((slug) => !KINDS[slug]!.projectOnly);
const EVENTS_RULE = `must map event switches (${Object.keys(EVENT_DEFAULTS).join(", ")}) to booleans`;

const seedIntegration = z
  .object(
    {
      slug: z.enum(GROUP_SLUGS, { error: `must be a group integration: ${GROUP_SLUGS.join(", ")}` }),
      active: z.boolean({ error: "must be a boolean" }).default(true),
      properties: z.record(z.string(), z.unknown(), { error: "must be an object" }).default({}),
      events: z
        .record(z.string(), z.boolean({ error: EVENTS_RULE }), { error: EVENTS_RULE })
        .refine((events) => Object.keys(events).every((name) => name in EVENT_DEFAULTS), EVENTS_RULE)
        .default({}),
    },
    { error: "must be an object" },
  )
  .superRefine(({ slug, active, properties }, context) => {
    const { params } = KINDS[slug]!;
    for (const name of Object.keys(properties)) {
      if (!(name in params) || name.endsWith("_events")) context.addIssue({ code: "custom", path: ["properties", name], message: `is not a setting of ${slug}` });
    }
    const missing = active ? Object.entries(params).find(([name, rule]) => rule.required && !name.endsWith("_events") && !(name in properties)) : undefined;
    if (missing) context.addIssue({ code: "custom", path: ["properties", missing[0]], message: `is required by ${slug}` });
  });

export const integrationsSeedSchema = keyedSection("group full path", z.array(seedIntegration, { error: "must be an array of integrations" }));

function seededIntegration(state: EmulatorState, group: Group, seed: z.infer<typeof seedIntegration>): IntegrationRecord {
  // Seeded state is the same on every start: the group's creation time, not the clock.
  return {
    id: state.nextId(INTEGRATION_SEQUENCE),
    groupId: group.id,
    slug: seed.slug,
    active: seed.active,
    inheritFromId: null,
    properties: seed.active ? { ...seed.properties } : {},
    events: seed.active ? { ...seed.events } : {},
    commentOnEventEnabled: false,
    createdAt: group.createdAt,
    updatedAt: group.createdAt,
  };
}

export function applyIntegrationsSeed(state: EmulatorState, section: z.infer<typeof integrationsSeedSchema> | undefined): void {
  if (section === undefined) return;
  const { integrations } = integrationStore.of(state);
  for (const [fullPath, list] of Object.entries(section)) {
    const where = `integrations["${fullPath}"]`;
    const group = state.groupByFullPath(fullPath);
    if (!group) throw new SeedError(`${where}: unknown group ${fullPath}`);
    list.forEach((seed, index) => {
      if (integrations.some((i) => i.groupId === group.id && i.slug === seed.slug)) throw new SeedError(`${where}[${index}]: ${seed.slug} is configured twice`);
      integrations.push(seededIntegration(state, group, seed));
    });
  }
}
