/** The `virtualRegistries` seed section: upstreams and registries per top-level group, checked as the API checks them. */
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
import { type EmulatorState, type Group } from "../../state";
import { checkRegistry, checkUpstream, link, MAX_REGISTRIES_PER_GROUP, Sequences, virtualRegistryStore, type UpstreamRecord, type VirtualRegistryRecord } from "./model";

// "virtualRegistries": { "acme": {
//   "upstreams": [{ "name": "Docker Hub", "url": "https://registry-1.docker.io", "cacheValidityHours": 48,
//                   "username": "u", "password": "p", "description": "..." }],
//   "registries": [{ "name": "containers", "description": "...", "upstreams": ["Docker Hub"] }] } }
// Registries link the seed's upstreams by name, in position order. An upstream
// no registry links is kept, as one whose association was deleted is on real
// servers; the group list shows it. The API's limits and checks apply.

const seedUpstream = z.object(
  {
    name: z.string({ error: "must be the upstream's name" }).min(1, "must be the upstream's name"),
    url: z.string({ error: "must be the upstream's URL" }),
    description: z.string({ error: "must be a string" }).optional(),
    cacheValidityHours: z.number({ error: "must be an integer" }).int("must be an integer").default(24),
    username: z.string({ error: "must be a string" }).optional(),
    password: z.string({ error: "must be a string" }).optional(),
  },
  { error: "needs a name and a url" },
);

const seedRegistry = z.object(
  {
    name: z.string({ error: "must be the registry's name" }).min(1, "must be the registry's name"),
    description: z.string({ error: "must be a string" }).optional(),
    upstreams: z.array(z.string({ error: "must be an upstream's name" }), { error: "must be a list of upstream names" }).default([]),
  },
  { error: "needs a name" },
);

export const virtualRegistriesSeedSchema = keyedSection(
  "top-level group path",
  z
    .object(
      {
        upstreams: z.array(seedUpstream, { error: "must be an array" }).default([]),
        registries: z
          .array(seedRegistry, { error: "must be an array" })
          .max(MAX_REGISTRIES_PER_GROUP, `at most ${MAX_REGISTRIES_PER_GROUP} registries per top-level group`)
          .default([]),
      },
      { error: "must be an object" },
    )
    .nullable()
    .transform((entry) => entry ?? { upstreams: [], registries: [] }),
);
type SeedGroupRegistries = z.output<typeof virtualRegistriesSeedSchema>[string];

/** Runs one of the API's model checks on seed data, reporting its field errors as a SeedError. */
function seedChecked(where: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    const body = (error as { body?: { message?: unknown } }).body;
    throw new SeedError(`${where}: ${JSON.stringify(body?.message ?? (error as Error).message)}`);
  }
}

function seedUpstreams(state: EmulatorState, group: Group, list: SeedGroupRegistries["upstreams"], where: string): Map<string, UpstreamRecord> {
  const byName = new Map<string, UpstreamRecord>();
  list.forEach((value, index) => {
    const at = `${where}[${index}]`;
    if (byName.has(value.name)) throw new SeedError(`${at}: another upstream of the seed is named ${value.name}`);
    const upstream: UpstreamRecord = {
      id: 0,
      groupId: group.id,
      url: value.url,
      name: value.name,
      description: value.description ?? null,
      cacheValidityHours: value.cacheValidityHours,
      username: value.username ?? null,
      password: value.password ?? null,
      createdAt: group.createdAt,
      updatedAt: group.createdAt,
    };
    seedChecked(at, () => checkUpstream(state, upstream));
    upstream.id = state.nextId(Sequences.upstreams);
    virtualRegistryStore.of(state).upstreams.push(upstream);
    byName.set(upstream.name, upstream);
  });
  return byName;
}

function seedRegistries(state: EmulatorState, group: Group, list: SeedGroupRegistries["registries"], upstreams: Map<string, UpstreamRecord>, where: string): void {
  list.forEach((value, index) => {
    const at = `${where}[${index}]`;
    const registry: VirtualRegistryRecord = { id: 0, groupId: group.id, name: value.name, description: value.description ?? null, createdAt: group.createdAt, updatedAt: group.createdAt };
    seedChecked(at, () => checkRegistry(state, registry));
    registry.id = state.nextId(Sequences.registries);
    virtualRegistryStore.of(state).registries.push(registry);
    for (const name of value.upstreams) {
      const upstream = upstreams.get(name);
      if (!upstream) throw new SeedError(`${at}.upstreams: no upstream named ${name} in this group's seed`);
      seedChecked(`${at}.upstreams`, () => link(state, registry.id, upstream.id));
    }
  });
}

export function applyVirtualRegistriesSeed(state: EmulatorState, section: z.output<typeof virtualRegistriesSeedSchema> | undefined): void {
  if (section === undefined) return;
  for (const [fullPath, entry] of Object.entries(section)) {
    const where = `virtualRegistries["${fullPath}"]`;
    const group = state.groupByFullPath(fullPath);
    if (!group) throw new SeedError(`${where}: unknown group ${fullPath}`);
    if (group.parentId !== null) throw new SeedError(`${where}: virtual registries exist only on top-level groups`);
    const byName = seedUpstreams(state, group, entry.upstreams, `${where}.upstreams`);
    seedRegistries(state, group, entry.registries, byName, `${where}.registries`);
  }
}
