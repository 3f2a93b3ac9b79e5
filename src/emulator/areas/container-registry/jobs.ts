/**
 * The container registry's background work: bulk tag deletions accepted by
 * `DELETE /projects/:id/registry/repositories/:repository_id/tags`, and
 * repository deletions.
 *
 * Bulk deletion works as the real worker does, step by step:
 * 1. `latest` is never removed (`keep_latest` defaults to true);
 * 2. names must match `\A<name_regex_delete or name_regex>\z` and not
 *    `\A<name_regex_keep>\z` (the expressions are pasted between the anchors
 *    without a group, as the real service does: `\Aa|b\z` is "starts with a
 *    or ends with b");
 * 3. `keep_n`: the candidates are ordered by manifest creation, newest first
 *    (an unknown time counts as now; among equal times the later name first,
 *    as reversing a sort of the by-name list gives), and the first keep_n are kept;
 * 4. `older_than`: only candidates created before now minus the duration go
 *    (an unknown time is kept);
 * 5. tags protected for the user who asked are left out;
 * 6. on the hosted offering at most HOSTED_BULK_DELETE_CAP tags go per call,
 *    the oldest first (the real hosted service stops at a time limit; the
 *    number is the default of `container_registry_cleanup_tags_service_max_list_size`);
 * blobs stay (tags are removed, nothing else).
 *
 * Repository deletion: the API marks the repository `delete_scheduled`; one
 * run of `runDue` moves every scheduled repository to `delete_ongoing` (the
 * real cron worker picks it up and deletes its tags), the next run removes it.
 */
import { RE2JS } from "re2js";
import {
  containerRegistryStore,
  isProtectedName,
  protectedPatternsFor,
  repositoryById,
  type BulkDeleteParams,
  type RegistryRepositoryRecord,
  type RegistryTagRecord,
} from "./model";
import type { EmulatorState } from "../../state";
import { durationSeconds } from "./duration";

export const HOSTED_BULK_DELETE_CAP = 200;
/** `Gitlab::ExclusiveLease` timeout of the bulk deletion: once an hour per repository. */
export const BULK_DELETE_LEASE_MS = 3_600_000;
export const BULK_DELETE_AGAIN_MESSAGE =
  "This request has already been made. You can run this at most once an hour for a given container repository";

// ---------------------------------------------------------------------------
// Bulk deletion

const timeOf = (tag: RegistryTagRecord, now: number): number => (tag.createdAt === null ? now : Date.parse(tag.createdAt));

/** The names a bulk deletion removes now (rules 1 to 6 above), oldest first. */
export function tagsToBulkDelete(
  state: EmulatorState,
  repository: RegistryRepositoryRecord,
  params: BulkDeleteParams,
  protectedPatterns: readonly RE2JS[],
): RegistryTagRecord[] {
  const now = state.clock();
  const deleteRegex = RE2JS.compile(`\\A${params.nameRegexDelete ?? params.nameRegex ?? ""}\\z`);
  const keepRegex = RE2JS.compile(`\\A${params.nameRegexKeep ?? ""}\\z`);
  let candidates = repository.tags
    .filter((tag) => tag.name !== "latest")
    .filter((tag) => deleteRegex.matcher(tag.name).find() && !keepRegex.matcher(tag.name).find());
  if (params.keepN !== null) {
    // `sort_by { created_at }.reverse` over the tags listed by name: among equal times the later name comes first.
    candidates = [...candidates].sort((a, b) => timeOf(b, now) - timeOf(a, now) || (a.name < b.name ? 1 : -1)).slice(Math.max(params.keepN, 0));
  }
  if (params.olderThan !== null) {
    const cutoff = now - (durationSeconds(params.olderThan) ?? 0) * 1000;
    candidates = candidates.filter((tag) => tag.createdAt !== null && Date.parse(tag.createdAt) < cutoff);
  }
  candidates = candidates.filter((tag) => !isProtectedName(protectedPatterns, tag.name));
  candidates.sort((a, b) => timeOf(a, now) - timeOf(b, now) || (a.name < b.name ? -1 : 1));
  return state.instance.offering === "hosted" ? candidates.slice(0, HOSTED_BULK_DELETE_CAP) : candidates;
}

export function removeTags(repository: RegistryRepositoryRecord, names: ReadonlySet<string>): void {
  repository.tags = repository.tags.filter((tag) => !names.has(tag.name));
}

function runBulkDeletes(state: EmulatorState): void {
  const store = containerRegistryStore.of(state);
  const now = state.clock();
  const due = store.pendingBulkDeletes.filter((pending) => Date.parse(pending.acceptedAt) <= now);
  store.pendingBulkDeletes = store.pendingBulkDeletes.filter((pending) => !due.includes(pending));
  for (const pending of due) {
    const repository = repositoryById(state, pending.repositoryId);
    const project = repository ? state.projectById(repository.projectId) : undefined;
    if (!repository || !project) continue;
    const user = state.userById(pending.userId) ?? null;
    const doomed = tagsToBulkDelete(state, repository, pending.params, protectedPatternsFor(state, user, project));
    removeTags(repository, new Set(doomed.map((tag) => tag.name)));
  }
}

function advanceRepositoryDeletions(state: EmulatorState): void {
  const store = containerRegistryStore.of(state);
  store.repositories = store.repositories.filter((repository) => repository.status !== "delete_ongoing");
  for (const repository of store.repositories) {
    if (repository.status === "delete_scheduled") {
      repository.status = "delete_ongoing";
      repository.tags = [];
    }
  }
}

/** The area's background work at the state's clock: accepted bulk deletions, then repository deletions. */
export function runContainerRegistryWork(state: EmulatorState): void {
  runBulkDeletes(state);
  advanceRepositoryDeletions(state);
}
