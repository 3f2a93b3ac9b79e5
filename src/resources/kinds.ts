/**
 * The kinds the provider offers: one line per resource module, exporting its
 * classes and their argument types. The package exports them all
 * (src/index.ts), and the registered kinds are the classes here (./index.ts):
 * the order of the lines means nothing.
 */
export { GroupAccessToken, ProjectAccessToken, type GroupAccessTokenArgs, type ProjectAccessTokenArgs } from "./access-token";
export { ApplicationSettings, type ApplicationSettingsArgs } from "./application-settings";
export { ApprovalRule, type ApprovalRuleArgs } from "./approval-rule";
export { Badge, type BadgeArgs } from "./badge";
export { ChangelogCommit, type ChangelogCommitArgs } from "./changelog-commit";
export { ProjectVariable, type ProjectVariableArgs, GroupVariable, type GroupVariableArgs, InstanceVariable, type InstanceVariableArgs } from "./ci-variable";
export { CleanupPolicy, type CleanupPolicyArgs } from "./cleanup-policy";
export { ContainerRegistryCleanup, type ContainerRegistryCleanupArgs, type AcceptedRun } from "./container-registry-cleanup";
export { ContainerRegistryVisibility, type ContainerRegistryVisibilityArgs } from "./container-registry-visibility";
export { DeployKey, type DeployKeyArgs } from "./deploy-key";
export { DeployToken, type DeployTokenArgs } from "./deploy-token";
export { EpicLink, type EpicLinkArgs } from "./epic-link";
export { ErrorTrackingClientKey, type ErrorTrackingClientKeyArgs } from "./error-tracking-client-key";
export { ExclusiveBadges, type ExclusiveBadgesArgs } from "./exclusive-badges";
export { ExclusiveGroupIntegrations, type ExclusiveGroupIntegrationsArgs } from "./exclusive-group-integrations";
export { ExclusiveGroupMembers, type ExclusiveGroupMembersArgs } from "./exclusive-group-members";
export { ExclusiveLabels, type ExclusiveLabelsArgs } from "./exclusive-labels";
export { ExclusivePipelineSchedules, type ExclusivePipelineSchedulesArgs } from "./exclusive-pipeline-schedules";
export { ExclusiveProjectMembers, type ExclusiveProjectMembersArgs } from "./exclusive-project-members";
export { ExclusiveSamlGroupLinks, type ExclusiveSamlGroupLinksArgs } from "./exclusive-saml-group-links";
export { ExclusiveUpstreams, type ExclusiveUpstreamsArgs } from "./exclusive-upstreams";
export { Group, type GroupArgs, type DeletionMode } from "./group";
export { GroupHook, type GroupHookArgs } from "./group-hook";
export { GroupIntegration, type GroupIntegrationArgs, type IntegrationSlug } from "./group-integration";
export { GroupMember, type GroupMemberArgs } from "./group-member";
export { GroupProtectedEnvironment, type GroupProtectedEnvironmentArgs } from "./group-protected-environment";
export { GroupSettings, type GroupSettingsArgs } from "./group-settings";
export { GroupShare, type GroupShareArgs } from "./group-share";
export { Label, type LabelArgs } from "./label";
export { MergeRequest, type MergeRequestArgs } from "./merge-request";
export { PipelineSchedule, type PipelineScheduleArgs, type PipelineScheduleVariable, type PipelineScheduleInput } from "./pipeline-schedule";
export { PipelineScheduleRun, type PipelineScheduleRunArgs } from "./pipeline-schedule-run";
export { Project, type ProjectArgs } from "./project";
export { ProjectHook, type ProjectHookArgs } from "./project-hook";
export { ProjectMember, type ProjectMemberArgs } from "./project-member";
export { ProjectShare, type ProjectShareArgs } from "./project-share";
export { ProjectStar, type ProjectStarArgs } from "./project-star";
export { ProtectedBranch, type ProtectedBranchArgs } from "./protected-branch";
export { ProtectedEnvironment, type ProtectedEnvironmentArgs, type EnvironmentDeployEntry, type EnvironmentApprovalEntry } from "./protected-environment";
export { ProtectedTag, type ProtectedTagArgs } from "./protected-tag";
export { SamlGroupLink, type SamlGroupLinkArgs, type AccessLevelName } from "./saml-group-link";
export { SamlIdentity, type SamlIdentityArgs } from "./saml-identity";
export { Upstream, type UpstreamArgs } from "./upstream";
export { VirtualRegistry, type VirtualRegistryArgs } from "./virtual-registry";
export { ProjectApprovalSettings, type ProjectApprovalSettingsArgs } from "./project-approval-settings";
