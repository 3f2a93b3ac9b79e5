/**
 * Every data function the package offers, one module per API area. To add
 * one: declare it in its area's module (`defineObjectFunction` or
 * `defineListFunction`, see ./core.ts) and export it here.
 */
export type { Camelized, DataFunction, DataOutput, FunctionOptions, FunctionOutputOptions, InputArgs } from "./core";
export { getMetadata, getMetadataOutput, type Metadata } from "./metadata";
export {
  getRegistryRepositories,
  getRegistryRepositoriesOutput,
  getRegistryRepository,
  getRegistryRepositoryOutput,
  getRegistryTags,
  getRegistryTagsOutput,
  getRegistryTag,
  getRegistryTagOutput,
  type RegistryRepository,
  type RegistryTagSummary,
  type RegistryTag,
} from "./container-registry";
export { getRegistryCatalog, getRegistryCatalogOutput, type CatalogRepository } from "./registry-catalog";
export {
  getVulnerabilityFindings,
  getVulnerabilityFindingsOutput,
  getDependencies,
  getDependenciesOutput,
  type VulnerabilityFinding,
  type Dependency,
} from "./security-reports";
export { getErrorTrackingClientKeys, getErrorTrackingClientKeysOutput, type ErrorTrackingClientKeyInfo } from "./error-tracking";
export {
  getBadges,
  getBadgesOutput,
  getBadge,
  getBadgeOutput,
  getRenderedBadge,
  getRenderedBadgeOutput,
  type BadgeInfo,
  type RenderedBadge,
} from "./badges";
export {
  getGroupIntegrations,
  getGroupIntegrationsOutput,
  getGroupIntegration,
  getGroupIntegrationOutput,
  type GroupIntegrationSummary,
  type GroupIntegrationInfo,
} from "./integrations";
export {
  getPipelineSchedules,
  getPipelineSchedulesOutput,
  getPipelineSchedule,
  getPipelineScheduleOutput,
  getPipelineSchedulePipelines,
  getPipelineSchedulePipelinesOutput,
  type PipelineScheduleSummary,
  type PipelineScheduleInfo,
  type SchedulePipeline,
} from "./pipeline-schedules";
export { getApplicationSettings, getApplicationSettingsOutput, type ApplicationSettingsInfo } from "./application-settings";
export {
  getVirtualRegistries,
  getVirtualRegistriesOutput,
  getVirtualRegistry,
  getVirtualRegistryOutput,
  getUpstreams,
  getUpstreamsOutput,
  getUpstream,
  getUpstreamOutput,
  getCleanupPolicy,
  getCleanupPolicyOutput,
  type VirtualRegistryInfo,
  type VirtualRegistryDetail,
  type UpstreamInfo,
  type UpstreamDetail,
  type VirtualRegistryCleanupPolicyInfo,
} from "./virtual-registries";
export { getEpic, getEpicOutput, getEpicChildren, getEpicChildrenOutput, type Epic } from "./epics";
export { getStarredProjects, getStarredProjectsOutput, getStarrers, getStarrersOutput, type StarredProject, type Starrer } from "./starring";
export {
  getSamlIdentities,
  getSamlIdentitiesOutput,
  getSamlIdentity,
  getSamlIdentityOutput,
  getSamlGroupLinks,
  getSamlGroupLinksOutput,
  getSamlGroupLink,
  getSamlGroupLinkOutput,
  type SamlIdentityInfo,
  type SamlGroupLinkInfo,
} from "./saml";
export {
  getMergeRequests,
  getMergeRequestsOutput,
  getProjectMergeRequests,
  getProjectMergeRequestsOutput,
  getMergeRequest,
  getMergeRequestOutput,
  getMergeRequestDiffs,
  getMergeRequestDiffsOutput,
  getMergeRequestRawDiffs,
  getMergeRequestRawDiffsOutput,
  getMergeRequestPipelines,
  getMergeRequestPipelinesOutput,
  type MergeRequestSummary,
  type MergeRequestInfo,
  type MergeRequestDiff,
  type MergeRequestPipeline,
} from "./merge-requests";
export {
  getGroup,
  getGroupOutput,
  getGroups,
  getGroupsOutput,
  getGroupPersonalAccessTokens,
  getGroupPersonalAccessTokensOutput,
  type GroupInfo,
  type GroupSummary,
  type GroupPersonalAccessToken,
} from "./groups";
export {
  getRepositoryTree,
  getRepositoryTreeOutput,
  getRepositoryBlob,
  getRepositoryBlobOutput,
  getRepositoryArchive,
  getRepositoryArchiveOutput,
  getRepositoryCompare,
  getRepositoryCompareOutput,
  getRepositoryContributors,
  getRepositoryContributorsOutput,
  getRepositoryMergeBase,
  getRepositoryMergeBaseOutput,
  getRepositoryChangelog,
  getRepositoryChangelogOutput,
  type RepositoryTreeEntry,
  type RepositoryBlob,
  type RepositoryArchive,
  type ArchiveFormat,
  type RepositoryComparison,
  type RepositoryCommit,
  type RepositoryContributor,
  type RepositoryChangelog,
} from "./repository";
export {
  getProjectVariables,
  getProjectVariablesOutput,
  getGroupVariables,
  getGroupVariablesOutput,
  getInstanceVariables,
  getInstanceVariablesOutput,
  type CiVariableInfo,
} from "./ci-variables";
export { getProjectHooks, getProjectHooksOutput, getGroupHooks, getGroupHooksOutput, type HookInfo } from "./hooks";
export { getGroupSubgroups, getGroupSubgroupsOutput, getGroupDescendants, getGroupDescendantsOutput } from "./groups";
export { getLabels, getLabelsOutput, type LabelInfo } from "./labels";
export { getUser, getUserOutput, getUsers, getUsersOutput, type UserInfo } from "./users";
export { getGroupMembers, getGroupMembersOutput, getProjectMembers, getProjectMembersOutput, type MemberInfo } from "./members";
export { getProject, getProjectOutput, getProjects, getProjectsOutput, type ProjectInfo } from "./projects";
export {
  getProtectedBranches,
  getProtectedBranchesOutput,
  getProtectedBranch,
  getProtectedBranchOutput,
  getProtectedTags,
  getProtectedTagsOutput,
  getProtectedTag,
  getProtectedTagOutput,
  type ProtectedBranchInfo,
  type ProtectedTagInfo,
} from "./protected-refs";
export { getApprovalRules, getApprovalRulesOutput, type ApprovalRuleInfo } from "./approval-rules";
export {
  getGroupAccessTokens,
  getGroupAccessTokensOutput,
  getProjectAccessTokens,
  getProjectAccessTokensOutput,
  getDeployTokens,
  getDeployTokensOutput,
  getDeployKeys,
  getDeployKeysOutput,
  type AccessTokenInfo,
  type DeployTokenInfo,
  type DeployKeyInfo,
} from "./access-tokens";
export {
  getProtectedEnvironments,
  getProtectedEnvironmentsOutput,
  getGroupProtectedEnvironments,
  getGroupProtectedEnvironmentsOutput,
  type ProtectedEnvironmentInfo,
} from "./protected-environments";
export { getProjectApprovalSettings, getProjectApprovalSettingsOutput, type ProjectApprovalSettingsInfo } from "./approval-settings";
