/**
 * A local emulator of the platform REST API v4: a real HTTP server on
 * 127.0.0.1 with an in-memory model seeded from a small description.
 *
 *     const emulator = await startEmulator();
 *     await fetch(`${emulator.apiUrl}/projects/acme%2Fweb/badges`, {
 *       headers: { "PRIVATE-TOKEN": emulator.tokens.alice },
 *     });
 *     await emulator.stop();
 */
import "./node-version"; // first: says what to do on a Node.js older than 22
export { portFromProject } from "./project-port";
export { startEmulator, stateFromSeed, DEFAULT_MAX_URL_LENGTH, BACKGROUND_WORK_INTERVAL_MS } from "./server";
export type { Emulator, EmulatorOptions, EmulatorTls, RequestLogEntry } from "./server";
export { FAULT_KINDS, DEFAULT_SLOW_MS, DEFAULT_FAULT_SEED, FaultPlanError, parseFaultPlan, faultRatePlan, faultCounts } from "./faults";
export type { FaultKind, FaultName, FaultPlan, FaultRule, InjectedAnswer, EchoedRequest } from "./faults";
export type { RateLimitOptions } from "./rate-limit";
export { defaultSeed, selfManagedSeed } from "./seeds/default";
export { readSeed, DEFAULT_INSTANCE } from "./seed";
export { SeedError } from "./seed-error";
export type { Seed, SeedUser, SeedGroup, SeedProject } from "./seed";
export { EmulatorState, AccessLevel, defineStore } from "./state";
export type {
  AccessLevelValue,
  Clock,
  Group,
  InstanceInfo,
  Members,
  Offering,
  Project,
  SerializedState,
  Tier,
  User,
  Visibility,
} from "./state";
export { route, ok, created, noContent, paginate, requireUser, API_PREFIX } from "./router";
export type { ApiResponse, HttpMethod, RequestContext, RouteDefinition } from "./router";
export type { AreaSeed, EmulatorArea, RouteModule } from "./area";
export {
  offsetPaginationHeaders,
  paginateOffset,
  paginateKeyset,
  pageUrl,
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
  MAX_COUNT_LIMIT,
} from "./pagination";
export type { KeysetOptions } from "./pagination";
export { badgeStore } from "./areas/badges";
export type { BadgeRecord } from "./areas/badges";
export { virtualRegistryStore, addCacheEntry } from "./areas/virtual-registries/model";
export type { VirtualRegistryRecord, UpstreamRecord, RegistryUpstreamRecord, CacheEntryRecord } from "./areas/virtual-registries/model";
export { cleanupPolicyStore } from "./areas/virtual-registries/cleanup";
export { containerRegistryStore } from "./areas/container-registry/model";
export { samlIdentityStore } from "./areas/saml/identities";
export type { SamlIdentityRecord } from "./areas/saml/identities";
export { starringStore } from "./areas/starring/model";
export type { StarRecord } from "./areas/starring/model";
export { projectDetailsStore } from "./areas/projects";
export type { ProjectDetailsRecord } from "./areas/projects";
export { epicStore } from "./areas/epics/model";
export type { EpicRecord } from "./areas/epics/model";
export { credentialsStore } from "./areas/group-tokens/model";
export type { CredentialRecord, TokenKind } from "./areas/group-tokens/model";
export { groupDetailsStore } from "./areas/groups/model";
export type { GroupDetailsRecord } from "./areas/groups/model";
export { mergeRequestStore } from "./areas/merge-requests/model";
export { issueStore } from "./areas/issues/model";
export type { IssueRecord, IssueNoteRecord } from "./areas/issues/model";
export type { MergeRequestRecord, DiffFileRecord, MergeRequestPipelineRecord } from "./areas/merge-requests/model";
export { ciVariableStore } from "./areas/ci-variables/model";
export { hooksStore } from "./areas/hooks/model";
export type { HookRecord, QueuedDelivery, DeliveryLog } from "./areas/hooks/model";
export { labelStore } from "./areas/labels";
export type { GroupLabelRecord } from "./areas/labels";
export { deployKeyStore } from "./areas/deploy-keys/model";
export { protectedEnvironmentsStore } from "./areas/protected-environments/model";
export type { DeployKeyRecord } from "./areas/deploy-keys/model";
