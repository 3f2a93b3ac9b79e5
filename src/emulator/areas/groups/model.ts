/**
 * What the core model does not hold about a group but the groups API shows or
 * filters on: custom attributes, the
 * archived flag, the date a group is marked for deletion, its repository
 * storage and its storage statistics. Kept in the groups area's own store and
 * seeded from the section `groupDetails` (keys are group full paths):
 *
 *     "groupDetails": {
 *       "acme": { "customAttributes": { "department": "engineering" },
 *                 "repositoryStorage": "default", "archived": false,
 *                 "markedForDeletionOn": "2024-06-01",
 *                 "statistics": { "repositorySize": 1024, "lfsObjectsSize": 2048 } }
 *     }
 *
 * Real sources followed: custom attributes are key/value pairs shown as
 * `[{"key","value"}]` (lib/api/entities/custom_attribute.rb) and only to
 * administrators (lib/api/helpers/custom_attributes.rb); the statistics
 * objects are `Entities::Namespace::RootStorageStatistics` and the group's
 * aggregated project statistics (lib/api/entities/group.rb).
 */
import { defineStore, type EmulatorState, type Group } from "../../state";

/** Sizes in bytes, as the API's `statistics` object names them (storage_size is their sum). */
export const STATISTICS_FIELDS = [
  "repository_size",
  "wiki_size",
  "lfs_objects_size",
  "job_artifacts_size",
  "pipeline_artifacts_size",
  "packages_size",
  "snippets_size",
  "uploads_size",
] as const;
export type StatisticsField = (typeof STATISTICS_FIELDS)[number];

export interface GroupDetailsRecord {
  customAttributes: Record<string, string>;
  repositoryStorage: string;
  archived: boolean;
  /** `YYYY-MM-DD`, or null when the group is not marked for deletion. */
  markedForDeletionOn: string | null;
  statistics: Record<StatisticsField, number>;
}

export const groupDetailsStore = defineStore("groupDetails", (): Record<string, GroupDetailsRecord> => ({}));

export const zeroStatistics = (): Record<StatisticsField, number> =>
  Object.fromEntries(STATISTICS_FIELDS.map((field) => [field, 0])) as Record<StatisticsField, number>;

/** A group's details, created with the defaults on first use. */
export function detailsOf(state: EmulatorState, group: Group): GroupDetailsRecord {
  const all = groupDetailsStore.of(state);
  return (all[String(group.id)] ??= {
    customAttributes: {},
    repositoryStorage: "default",
    archived: false,
    markedForDeletionOn: null,
    statistics: zeroStatistics(),
  });
}

/** `active` of `GET /groups`: neither archived nor marked for deletion. */
export function isActive(state: EmulatorState, group: Group): boolean {
  const details = detailsOf(state, group);
  return !details.archived && details.markedForDeletionOn === null;
}

/** `custom_attributes` as `Entities::CustomAttribute` lists them. */
export function presentCustomAttributes(state: EmulatorState, group: Group): { key: string; value: string }[] {
  return Object.entries(detailsOf(state, group).customAttributes).map(([key, value]) => ({ key, value }));
}

/** The group's own `statistics` (storage_size is the sum of the parts). */
export function presentStatistics(state: EmulatorState, group: Group): Record<string, number> {
  const parts = detailsOf(state, group).statistics;
  const storageSize = STATISTICS_FIELDS.reduce((sum, field) => sum + parts[field], 0);
  return { storage_size: storageSize, ...parts };
}

/**
 * `root_storage_statistics` of a top-level group: the sums over the group and
 * its subgroups. The container registry size exists only with the registry's
 * metadata database, which the emulator does not model: 0, not estimated.
 */
export function presentRootStorageStatistics(state: EmulatorState, group: Group): Record<string, number | boolean> {
  const totals = zeroStatistics();
  for (const member of [group, ...state.descendants(group)]) {
    for (const field of STATISTICS_FIELDS) totals[field] += detailsOf(state, member).statistics[field];
  }
  const storageSize = STATISTICS_FIELDS.reduce((sum, field) => sum + totals[field], 0);
  return {
    build_artifacts_size: totals.job_artifacts_size,
    container_registry_size: 0,
    container_registry_size_is_estimated: false,
    dependency_proxy_size: 0,
    lfs_objects_size: totals.lfs_objects_size,
    packages_size: totals.packages_size,
    pipeline_artifacts_size: totals.pipeline_artifacts_size,
    repository_size: totals.repository_size,
    snippets_size: totals.snippets_size,
    storage_size: storageSize,
    uploads_size: totals.uploads_size,
    wiki_size: totals.wiki_size,
  };
}
