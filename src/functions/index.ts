/**
 * Every data function the package offers, one module per API area. To add
 * one: declare it in its area's module (`defineObjectFunction` or
 * `defineListFunction`, see ./core.ts) and name it, and its `...Output` form,
 * in that module's block here (its result types exported beside them). A
 * module is loaded when one of its functions is first read (../lazy-load.ts):
 * a program calls a few.
 */
import { lazyLoad } from "../lazy-load";

export type { Camelized, DataFunction, DataOutput, FunctionOptions, FunctionOutputOptions, InputArgs } from "./core";

export type { Metadata } from "./metadata";
export const getMetadata: typeof import("./metadata").getMetadata = null as any;
export const getMetadataOutput: typeof import("./metadata").getMetadataOutput = null as any;
lazyLoad(exports, ["getMetadata", "getMetadataOutput"], () => require("./metadata"));

export type { RegistryRepository, RegistryTagSummary, RegistryTag } from "./container-registry";
export const getRegistryRepositories: typeof import("./container-registry").getRegistryRepositories = null as any;
export const getRegistryRepositoriesOutput: typeof import("./container-registry").getRegistryRepositoriesOutput = null as any;
export const getRegistryRepository: typeof import("./container-registry").getRegistryRepository = null as any;
export const getRegistryRepositoryOutput: typeof import("./container-registry").getRegistryRepositoryOutput = null as any;
export const getRegistryTags: typeof import("./container-registry").getRegistryTags = null as any;
export const getRegistryTagsOutput: typeof import("./container-registry").getRegistryTagsOutput = null as any;
export const getRegistryTag: typeof import("./container-registry").getRegistryTag = null as any;
export const getRegistryTagOutput: typeof import("./container-registry").getRegistryTagOutput = null as any;
lazyLoad(exports, ["getRegistryRepositories", "getRegistryRepositoriesOutput", "getRegistryRepository", "getRegistryRepositoryOutput", "getRegistryTags", "getRegistryTagsOutput", "getRegistryTag", "getRegistryTagOutput"], () => require("./container-registry"));

export type { CatalogRepository } from "./registry-catalog";
export const getRegistryCatalog: typeof import("./registry-catalog").getRegistryCatalog = null as any;
export const getRegistryCatalogOutput: typeof import("./registry-catalog").getRegistryCatalogOutput = null as any;
lazyLoad(exports, ["getRegistryCatalog", "getRegistryCatalogOutput"], () => require("./registry-catalog"));

export type { VulnerabilityFinding, Dependency } from "./security-reports";
export const getVulnerabilityFindings: typeof import("./security-reports").getVulnerabilityFindings = null as any;
export const getVulnerabilityFindingsOutput: typeof import("./security-reports").getVulnerabilityFindingsOutput = null as any;
export const getDependencies: typeof import("./security-reports").getDependencies = null as any;
export const getDependenciesOutput: typeof import("./security-reports").getDependenciesOutput = null as any;
lazyLoad(exports, ["getVulnerabilityFindings", "getVulnerabilityFindingsOutput", "getDependencies", "getDependenciesOutput"], () => require("./security-reports"));

export type { ErrorTrackingClientKeyInfo } from "./error-tracking";
export const getErrorTrackingClientKeys: typeof import("./error-tracking").getErrorTrackingClientKeys = null as any;
export const getErrorTrackingClientKeysOutput: typeof import("./error-tracking").getErrorTrackingClientKeysOutput = null as any;
lazyLoad(exports, ["getErrorTrackingClientKeys", "getErrorTrackingClientKeysOutput"], () => require("./error-tracking"));

export type { BadgeInfo, RenderedBadge } from "./badges";
export const getBadges: typeof import("./badges").getBadges = null as any;
export const getBadgesOutput: typeof import("./badges").getBadgesOutput = null as any;
export const getBadge: typeof import("./badges").getBadge = null as any;
export const getBadgeOutput: typeof import("./badges").getBadgeOutput = null as any;
export const getRenderedBadge: typeof import("./badges").getRenderedBadge = null as any;
export const getRenderedBadgeOutput: typeof import("./badges").getRenderedBadgeOutput = null as any;
lazyLoad(exports, ["getBadges", "getBadgesOutput", "getBadge", "getBadgeOutput", "getRenderedBadge", "getRenderedBadgeOutput"], () => require("./badges"));

export type { GroupIntegrationSummary, GroupIntegrationInfo } from "./integrations";
export const getGroupIntegrations: typeof import("./integrations").getGroupIntegrations = null as any;
export const getGroupIntegrationsOutput: typeof import("./integrations").getGroupIntegrationsOutput = null as any;
export const getGroupIntegration: typeof import("./integrations").getGroupIntegration = null as any;
export const getGroupIntegrationOutput: typeof import("./integrations").getGroupIntegrationOutput = null as any;
lazyLoad(exports, ["getGroupIntegrations", "getGroupIntegrationsOutput", "getGroupIntegration", "getGroupIntegrationOutput"], () => require("./integrations"));

export type { PipelineScheduleSummary, PipelineScheduleInfo, SchedulePipeline } from "./pipeline-schedules";
export const getPipelineSchedules: typeof import("./pipeline-schedules").getPipelineSchedules = null as any;
export const getPipelineSchedulesOutput: typeof import("./pipeline-schedules").getPipelineSchedulesOutput = null as any;
export const getPipelineSchedule: typeof import("./pipeline-schedules").getPipelineSchedule = null as any;
export const getPipelineScheduleOutput: typeof import("./pipeline-schedules").getPipelineScheduleOutput = null as any;
export const getPipelineSchedulePipelines: typeof import("./pipeline-schedules").getPipelineSchedulePipelines = null as any;
export const getPipelineSchedulePipelinesOutput: typeof import("./pipeline-schedules").getPipelineSchedulePipelinesOutput = null as any;
lazyLoad(exports, ["getPipelineSchedules", "getPipelineSchedulesOutput", "getPipelineSchedule", "getPipelineScheduleOutput", "getPipelineSchedulePipelines", "getPipelineSchedulePipelinesOutput"], () => require("./pipeline-schedules"));

export type { ApplicationSettingsInfo } from "./application-settings";
export const getApplicationSettings: typeof import("./application-settings").getApplicationSettings = null as any;
export const getApplicationSettingsOutput: typeof import("./application-settings").getApplicationSettingsOutput = null as any;
lazyLoad(exports, ["getApplicationSettings", "getApplicationSettingsOutput"], () => require("./application-settings"));

export type { VirtualRegistryInfo, VirtualRegistryDetail, UpstreamInfo, UpstreamDetail, VirtualRegistryCleanupPolicyInfo } from "./virtual-registries";
export const getVirtualRegistries: typeof import("./virtual-registries").getVirtualRegistries = null as any;
export const getVirtualRegistriesOutput: typeof import("./virtual-registries").getVirtualRegistriesOutput = null as any;
export const getVirtualRegistry: typeof import("./virtual-registries").getVirtualRegistry = null as any;
export const getVirtualRegistryOutput: typeof import("./virtual-registries").getVirtualRegistryOutput = null as any;
export const getUpstreams: typeof import("./virtual-registries").getUpstreams = null as any;
export const getUpstreamsOutput: typeof import("./virtual-registries").getUpstreamsOutput = null as any;
export const getUpstream: typeof import("./virtual-registries").getUpstream = null as any;
export const getUpstreamOutput: typeof import("./virtual-registries").getUpstreamOutput = null as any;
export const getCleanupPolicy: typeof import("./virtual-registries").getCleanupPolicy = null as any;
export const getCleanupPolicyOutput: typeof import("./virtual-registries").getCleanupPolicyOutput = null as any;
lazyLoad(exports, ["getVirtualRegistries", "getVirtualRegistriesOutput", "getVirtualRegistry", "getVirtualRegistryOutput", "getUpstreams", "getUpstreamsOutput", "getUpstream", "getUpstreamOutput", "getCleanupPolicy", "getCleanupPolicyOutput"], () => require("./virtual-registries"));

export type { Epic } from "./epics";
export const getEpic: typeof import("./epics").getEpic = null as any;
export const getEpicOutput: typeof import("./epics").getEpicOutput = null as any;
export const getEpicChildren: typeof import("./epics").getEpicChildren = null as any;
export const getEpicChildrenOutput: typeof import("./epics").getEpicChildrenOutput = null as any;
lazyLoad(exports, ["getEpic", "getEpicOutput", "getEpicChildren", "getEpicChildrenOutput"], () => require("./epics"));

export type { StarredProject, Starrer } from "./starring";
export const getStarredProjects: typeof import("./starring").getStarredProjects = null as any;
export const getStarredProjectsOutput: typeof import("./starring").getStarredProjectsOutput = null as any;
export const getStarrers: typeof import("./starring").getStarrers = null as any;
export const getStarrersOutput: typeof import("./starring").getStarrersOutput = null as any;
lazyLoad(exports, ["getStarredProjects", "getStarredProjectsOutput", "getStarrers", "getStarrersOutput"], () => require("./starring"));

export type { SamlIdentityInfo, SamlGroupLinkInfo } from "./saml";
export const getSamlIdentities: typeof import("./saml").getSamlIdentities = null as any;
export const getSamlIdentitiesOutput: typeof import("./saml").getSamlIdentitiesOutput = null as any;
export const getSamlIdentity: typeof import("./saml").getSamlIdentity = null as any;
export const getSamlIdentityOutput: typeof import("./saml").getSamlIdentityOutput = null as any;
export const getSamlGroupLinks: typeof import("./saml").getSamlGroupLinks = null as any;
export const getSamlGroupLinksOutput: typeof import("./saml").getSamlGroupLinksOutput = null as any;
export const getSamlGroupLink: typeof import("./saml").getSamlGroupLink = null as any;
export const getSamlGroupLinkOutput: typeof import("./saml").getSamlGroupLinkOutput = null as any;
lazyLoad(exports, ["getSamlIdentities", "getSamlIdentitiesOutput", "getSamlIdentity", "getSamlIdentityOutput", "getSamlGroupLinks", "getSamlGroupLinksOutput", "getSamlGroupLink", "getSamlGroupLinkOutput"], () => require("./saml"));

export type { MergeRequestSummary, MergeRequestInfo, MergeRequestDiff, MergeRequestPipeline } from "./merge-requests";
export const getMergeRequests: typeof import("./merge-requests").getMergeRequests = null as any;
export const getMergeRequestsOutput: typeof import("./merge-requests").getMergeRequestsOutput = null as any;
export const getProjectMergeRequests: typeof import("./merge-requests").getProjectMergeRequests = null as any;
export const getProjectMergeRequestsOutput: typeof import("./merge-requests").getProjectMergeRequestsOutput = null as any;
export const getMergeRequest: typeof import("./merge-requests").getMergeRequest = null as any;
export const getMergeRequestOutput: typeof import("./merge-requests").getMergeRequestOutput = null as any;
export const getMergeRequestDiffs: typeof import("./merge-requests").getMergeRequestDiffs = null as any;
export const getMergeRequestDiffsOutput: typeof import("./merge-requests").getMergeRequestDiffsOutput = null as any;
export const getMergeRequestRawDiffs: typeof import("./merge-requests").getMergeRequestRawDiffs = null as any;
export const getMergeRequestRawDiffsOutput: typeof import("./merge-requests").getMergeRequestRawDiffsOutput = null as any;
export const getMergeRequestPipelines: typeof import("./merge-requests").getMergeRequestPipelines = null as any;
export const getMergeRequestPipelinesOutput: typeof import("./merge-requests").getMergeRequestPipelinesOutput = null as any;
lazyLoad(exports, ["getMergeRequests", "getMergeRequestsOutput", "getProjectMergeRequests", "getProjectMergeRequestsOutput", "getMergeRequest", "getMergeRequestOutput", "getMergeRequestDiffs", "getMergeRequestDiffsOutput", "getMergeRequestRawDiffs", "getMergeRequestRawDiffsOutput", "getMergeRequestPipelines", "getMergeRequestPipelinesOutput"], () => require("./merge-requests"));

export type { GroupInfo, GroupSummary, GroupPersonalAccessToken } from "./groups";
export const getGroup: typeof import("./groups").getGroup = null as any;
export const getGroupOutput: typeof import("./groups").getGroupOutput = null as any;
export const getGroups: typeof import("./groups").getGroups = null as any;
export const getGroupsOutput: typeof import("./groups").getGroupsOutput = null as any;
export const getGroupPersonalAccessTokens: typeof import("./groups").getGroupPersonalAccessTokens = null as any;
export const getGroupPersonalAccessTokensOutput: typeof import("./groups").getGroupPersonalAccessTokensOutput = null as any;
export const getGroupSubgroups: typeof import("./groups").getGroupSubgroups = null as any;
export const getGroupSubgroupsOutput: typeof import("./groups").getGroupSubgroupsOutput = null as any;
export const getGroupDescendants: typeof import("./groups").getGroupDescendants = null as any;
export const getGroupDescendantsOutput: typeof import("./groups").getGroupDescendantsOutput = null as any;
lazyLoad(exports, ["getGroup", "getGroupOutput", "getGroups", "getGroupsOutput", "getGroupPersonalAccessTokens", "getGroupPersonalAccessTokensOutput", "getGroupSubgroups", "getGroupSubgroupsOutput", "getGroupDescendants", "getGroupDescendantsOutput"], () => require("./groups"));

export type { RepositoryTreeEntry, RepositoryBlob, RepositoryArchive, ArchiveFormat, RepositoryComparison, RepositoryCommit, RepositoryContributor, RepositoryChangelog } from "./repository";
export const getRepositoryTree: typeof import("./repository").getRepositoryTree = null as any;
export const getRepositoryTreeOutput: typeof import("./repository").getRepositoryTreeOutput = null as any;
export const getRepositoryBlob: typeof import("./repository").getRepositoryBlob = null as any;
export const getRepositoryBlobOutput: typeof import("./repository").getRepositoryBlobOutput = null as any;
export const getRepositoryArchive: typeof import("./repository").getRepositoryArchive = null as any;
export const getRepositoryArchiveOutput: typeof import("./repository").getRepositoryArchiveOutput = null as any;
export const getRepositoryCompare: typeof import("./repository").getRepositoryCompare = null as any;
export const getRepositoryCompareOutput: typeof import("./repository").getRepositoryCompareOutput = null as any;
export const getRepositoryContributors: typeof import("./repository").getRepositoryContributors = null as any;
export const getRepositoryContributorsOutput: typeof import("./repository").getRepositoryContributorsOutput = null as any;
export const getRepositoryMergeBase: typeof import("./repository").getRepositoryMergeBase = null as any;
export const getRepositoryMergeBaseOutput: typeof import("./repository").getRepositoryMergeBaseOutput = null as any;
export const getRepositoryChangelog: typeof import("./repository").getRepositoryChangelog = null as any;
export const getRepositoryChangelogOutput: typeof import("./repository").getRepositoryChangelogOutput = null as any;
lazyLoad(exports, ["getRepositoryTree", "getRepositoryTreeOutput", "getRepositoryBlob", "getRepositoryBlobOutput", "getRepositoryArchive", "getRepositoryArchiveOutput", "getRepositoryCompare", "getRepositoryCompareOutput", "getRepositoryContributors", "getRepositoryContributorsOutput", "getRepositoryMergeBase", "getRepositoryMergeBaseOutput", "getRepositoryChangelog", "getRepositoryChangelogOutput"], () => require("./repository"));

export type { CiVariableInfo } from "./ci-variables";
export const getProjectVariables: typeof import("./ci-variables").getProjectVariables = null as any;
export const getProjectVariablesOutput: typeof import("./ci-variables").getProjectVariablesOutput = null as any;
export const getGroupVariables: typeof import("./ci-variables").getGroupVariables = null as any;
export const getGroupVariablesOutput: typeof import("./ci-variables").getGroupVariablesOutput = null as any;
export const getInstanceVariables: typeof import("./ci-variables").getInstanceVariables = null as any;
export const getInstanceVariablesOutput: typeof import("./ci-variables").getInstanceVariablesOutput = null as any;
lazyLoad(exports, ["getProjectVariables", "getProjectVariablesOutput", "getGroupVariables", "getGroupVariablesOutput", "getInstanceVariables", "getInstanceVariablesOutput"], () => require("./ci-variables"));

export type { HookInfo } from "./hooks";
export const getProjectHooks: typeof import("./hooks").getProjectHooks = null as any;
export const getProjectHooksOutput: typeof import("./hooks").getProjectHooksOutput = null as any;
export const getGroupHooks: typeof import("./hooks").getGroupHooks = null as any;
export const getGroupHooksOutput: typeof import("./hooks").getGroupHooksOutput = null as any;
lazyLoad(exports, ["getProjectHooks", "getProjectHooksOutput", "getGroupHooks", "getGroupHooksOutput"], () => require("./hooks"));

export type { LabelInfo } from "./labels";
export const getLabels: typeof import("./labels").getLabels = null as any;
export const getLabelsOutput: typeof import("./labels").getLabelsOutput = null as any;
lazyLoad(exports, ["getLabels", "getLabelsOutput"], () => require("./labels"));

export type { UserInfo } from "./users";
export const getUser: typeof import("./users").getUser = null as any;
export const getUserOutput: typeof import("./users").getUserOutput = null as any;
export const getUsers: typeof import("./users").getUsers = null as any;
export const getUsersOutput: typeof import("./users").getUsersOutput = null as any;
lazyLoad(exports, ["getUser", "getUserOutput", "getUsers", "getUsersOutput"], () => require("./users"));

export type { MemberInfo } from "./members";
export const getGroupMembers: typeof import("./members").getGroupMembers = null as any;
export const getGroupMembersOutput: typeof import("./members").getGroupMembersOutput = null as any;
export const getProjectMembers: typeof import("./members").getProjectMembers = null as any;
export const getProjectMembersOutput: typeof import("./members").getProjectMembersOutput = null as any;
lazyLoad(exports, ["getGroupMembers", "getGroupMembersOutput", "getProjectMembers", "getProjectMembersOutput"], () => require("./members"));

export type { ProjectInfo } from "./projects";
export const getProject: typeof import("./projects").getProject = null as any;
export const getProjectOutput: typeof import("./projects").getProjectOutput = null as any;
export const getProjects: typeof import("./projects").getProjects = null as any;
export const getProjectsOutput: typeof import("./projects").getProjectsOutput = null as any;
lazyLoad(exports, ["getProject", "getProjectOutput", "getProjects", "getProjectsOutput"], () => require("./projects"));

export type { ProtectedBranchInfo, ProtectedTagInfo } from "./protected-refs";
export const getProtectedBranches: typeof import("./protected-refs").getProtectedBranches = null as any;
export const getProtectedBranchesOutput: typeof import("./protected-refs").getProtectedBranchesOutput = null as any;
export const getProtectedBranch: typeof import("./protected-refs").getProtectedBranch = null as any;
export const getProtectedBranchOutput: typeof import("./protected-refs").getProtectedBranchOutput = null as any;
export const getProtectedTags: typeof import("./protected-refs").getProtectedTags = null as any;
export const getProtectedTagsOutput: typeof import("./protected-refs").getProtectedTagsOutput = null as any;
export const getProtectedTag: typeof import("./protected-refs").getProtectedTag = null as any;
export const getProtectedTagOutput: typeof import("./protected-refs").getProtectedTagOutput = null as any;
lazyLoad(exports, ["getProtectedBranches", "getProtectedBranchesOutput", "getProtectedBranch", "getProtectedBranchOutput", "getProtectedTags", "getProtectedTagsOutput", "getProtectedTag", "getProtectedTagOutput"], () => require("./protected-refs"));

export type { ApprovalRuleInfo } from "./approval-rules";
export const getApprovalRules: typeof import("./approval-rules").getApprovalRules = null as any;
export const getApprovalRulesOutput: typeof import("./approval-rules").getApprovalRulesOutput = null as any;
lazyLoad(exports, ["getApprovalRules", "getApprovalRulesOutput"], () => require("./approval-rules"));

export type { AccessTokenInfo, DeployTokenInfo, DeployKeyInfo } from "./access-tokens";
export const getGroupAccessTokens: typeof import("./access-tokens").getGroupAccessTokens = null as any;
export const getGroupAccessTokensOutput: typeof import("./access-tokens").getGroupAccessTokensOutput = null as any;
export const getProjectAccessTokens: typeof import("./access-tokens").getProjectAccessTokens = null as any;
export const getProjectAccessTokensOutput: typeof import("./access-tokens").getProjectAccessTokensOutput = null as any;
export const getDeployTokens: typeof import("./access-tokens").getDeployTokens = null as any;
export const getDeployTokensOutput: typeof import("./access-tokens").getDeployTokensOutput = null as any;
export const getDeployKeys: typeof import("./access-tokens").getDeployKeys = null as any;
export const getDeployKeysOutput: typeof import("./access-tokens").getDeployKeysOutput = null as any;
lazyLoad(exports, ["getGroupAccessTokens", "getGroupAccessTokensOutput", "getProjectAccessTokens", "getProjectAccessTokensOutput", "getDeployTokens", "getDeployTokensOutput", "getDeployKeys", "getDeployKeysOutput"], () => require("./access-tokens"));

export type { ProtectedEnvironmentInfo } from "./protected-environments";
export const getProtectedEnvironments: typeof import("./protected-environments").getProtectedEnvironments = null as any;
export const getProtectedEnvironmentsOutput: typeof import("./protected-environments").getProtectedEnvironmentsOutput = null as any;
export const getGroupProtectedEnvironments: typeof import("./protected-environments").getGroupProtectedEnvironments = null as any;
export const getGroupProtectedEnvironmentsOutput: typeof import("./protected-environments").getGroupProtectedEnvironmentsOutput = null as any;
lazyLoad(exports, ["getProtectedEnvironments", "getProtectedEnvironmentsOutput", "getGroupProtectedEnvironments", "getGroupProtectedEnvironmentsOutput"], () => require("./protected-environments"));

export type { ProjectApprovalSettingsInfo } from "./approval-settings";
export const getProjectApprovalSettings: typeof import("./approval-settings").getProjectApprovalSettings = null as any;
export const getProjectApprovalSettingsOutput: typeof import("./approval-settings").getProjectApprovalSettingsOutput = null as any;
lazyLoad(exports, ["getProjectApprovalSettings", "getProjectApprovalSettingsOutput"], () => require("./approval-settings"));
