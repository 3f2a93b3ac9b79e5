/**
 * The `groupDetails` seed section, keyed by group full path: what the core
 * model of a group lacks (custom attributes, storage, archived and deletion
 * state, statistics).
 */
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
import type { EmulatorState } from "../../state";
import { groupDetailsStore, zeroStatistics, type StatisticsField } from "./model";

const SEED_STATISTICS: Record<string, StatisticsField> = {
  repositorySize: "repository_size",
  wikiSize: "wiki_size",
  lfsObjectsSize: "lfs_objects_size",
  jobArtifactsSize: "job_artifacts_size",
  pipelineArtifactsSize: "pipeline_artifacts_size",
  packagesSize: "packages_size",
  snippetsSize: "snippets_size",
  uploadsSize: "uploads_size",
};

const bytes = z.number({ error: "must be a whole number of bytes" }).int("must be a whole number of bytes").min(0, "must be a whole number of bytes");

const seedGroupDetails = z.strictObject(
  {
    customAttributes: z.record(z.string(), z.string({ error: "must be a string" }), { error: "must be an object of strings" }).default({}),
    repositoryStorage: z.string({ error: "must be a storage name" }).min(1, "must be a storage name").default("default"),
    archived: z.boolean({ error: "must be a boolean" }).default(false),
    markedForDeletionOn: z
      .string({ error: "must be a date (YYYY-MM-DD) or null" })
      .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date (YYYY-MM-DD) or null")
      .nullable()
      .default(null),
    statistics: z
      .strictObject(Object.fromEntries(Object.keys(SEED_STATISTICS).map((name) => [name, bytes.optional()])), { error: "must be an object" })
      .default({}),
  },
  { error: "must be an object" },
);

export const groupDetailsSeedSchema = keyedSection("group full path", seedGroupDetails);

export function applyGroupDetailsSeed(state: EmulatorState, section: z.infer<typeof groupDetailsSeedSchema> | undefined): void {
  if (section === undefined) return;
  for (const [fullPath, entry] of Object.entries(section)) {
    const group = state.groupByFullPath(fullPath);
    if (!group) throw new SeedError(`groupDetails["${fullPath}"]: unknown group ${fullPath}`);
    const statistics = zeroStatistics();
    for (const [name, size] of Object.entries(entry.statistics)) if (size !== undefined) statistics[SEED_STATISTICS[name]!] = size;
    groupDetailsStore.of(state)[String(group.id)] = { ...entry, customAttributes: { ...entry.customAttributes }, statistics };
  }
}
