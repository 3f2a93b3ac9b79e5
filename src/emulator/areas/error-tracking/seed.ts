/** The `errorTracking` seed section: each project's client keys, with DSNs that stay the same on every start. */
import { createHash } from "node:crypto";
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
import { type EmulatorState, type Project } from "../../state";
import { errorTrackingStore, KEY_SEQUENCE, type ClientKeyRecord } from "./routes";

// "errorTracking": { "acme/web": { "clientKeys": [{ "publicKey": "glet_...", "active": true }] } }

const PUBLIC_KEY_PATTERN = /^glet_[0-9a-f]{32}$/;
const PUBLIC_KEY_RULE = 'must be "glet_" and 32 lowercase hex digits';

const seedClientKey = z.object(
  {
    id: z.number({ error: "must be an integer" }).int("must be an integer").optional(),
    publicKey: z.string({ error: PUBLIC_KEY_RULE }).regex(PUBLIC_KEY_PATTERN, PUBLIC_KEY_RULE).optional(),
    active: z.boolean({ error: "must be a boolean" }).default(true),
  },
  { error: "must be an object" },
);

export const errorTrackingSeedSchema = keyedSection(
  "project full path",
  z.object({ clientKeys: z.array(seedClientKey, { error: "must be an array" }).default([]) }, { error: "must be an object" }).nullable(),
);

function seededKey(state: EmulatorState, project: Project, seed: z.infer<typeof seedClientKey>, index: number): ClientKeyRecord {
  if (seed.id !== undefined) state.reserveId(KEY_SEQUENCE, seed.id);
  // Without a given key, one derived from the project and position, so every start of a seed has the same DSNs.
  const derived = createHash("sha1").update(`${state.projectFullPath(project)}#${index}`).digest("hex").slice(0, 32);
  return {
    id: seed.id ?? state.nextId(KEY_SEQUENCE),
    projectId: project.id,
    publicKey: seed.publicKey ?? `glet_${derived}`,
    active: seed.active,
    // Seeded state is the same on every start: no wall-clock time in it.
    createdAt: project.createdAt,
  };
}

export function applyErrorTrackingSeed(state: EmulatorState, section: z.infer<typeof errorTrackingSeedSchema> | undefined): void {
  if (section === undefined) return;
  const { clientKeys } = errorTrackingStore.of(state);
  for (const [fullPath, entry] of Object.entries(section)) {
    const where = `errorTracking["${fullPath}"]`;
    const project = state.projectByFullPath(fullPath);
    if (!project) throw new SeedError(`${where}: unknown project ${fullPath}`);
    (entry?.clientKeys ?? []).forEach((key, index) => {
      const record = seededKey(state, project, key, index);
      if (clientKeys.some((k) => k.id === record.id || k.publicKey === record.publicKey)) {
        throw new SeedError(`${where}.clientKeys[${index}]: repeats the id or public key of another key`);
      }
      clientKeys.push(record);
    });
  }
}
