/**
 * pulumi-platform: Pulumi resources for the platform's REST API v4.
 *
 * The resource classes, and `providers`: the dynamic ResourceProvider each
 * class passes to Pulumi, which tests and tools can call exactly as the engine does.
 */
import "./node-version"; // first: says what to do on a Node.js older than 22
import type * as pulumi from "@pulumi/pulumi";
import { provider } from "./runtime";
import { definitions, type ResourceKind } from "./resources";

export { Badge, type BadgeArgs } from "./resources/badge";
export { GroupSettings, type GroupSettingsArgs } from "./resources/group-settings";
export { ApplicationSettings, type ApplicationSettingsArgs } from "./resources/application-settings";
export {
  PipelineSchedule,
  type PipelineScheduleArgs,
  type PipelineScheduleVariable,
  type PipelineScheduleInput,
} from "./resources/pipeline-schedule";
export { GroupIntegration, type GroupIntegrationArgs, type IntegrationSlug } from "./resources/group-integration";
export { SamlGroupLink, type SamlGroupLinkArgs, type AccessLevelName } from "./resources/saml-group-link";
export { VirtualRegistry, type VirtualRegistryArgs } from "./resources/virtual-registry";
export { Upstream, type UpstreamArgs } from "./resources/upstream";
export { CleanupPolicy, type CleanupPolicyArgs } from "./resources/cleanup-policy";
export { ContainerRegistryVisibility, type ContainerRegistryVisibilityArgs } from "./resources/container-registry-visibility";
export { ContainerRegistryCleanup, type ContainerRegistryCleanupArgs, type AcceptedRun } from "./resources/container-registry-cleanup";
export { ErrorTrackingClientKey, type ErrorTrackingClientKeyArgs } from "./resources/error-tracking-client-key";
export { ProjectStar, type ProjectStarArgs } from "./resources/project-star";
export { MergeRequest, type MergeRequestArgs } from "./resources/merge-request";
export { EpicLink, type EpicLinkArgs } from "./resources/epic-link";
export { SamlIdentity, type SamlIdentityArgs } from "./resources/saml-identity";
export { ExclusiveBadges, type ExclusiveBadgesArgs } from "./resources/exclusive-badges";
export { ExclusiveSamlGroupLinks, type ExclusiveSamlGroupLinksArgs } from "./resources/exclusive-saml-group-links";
export { ExclusivePipelineSchedules, type ExclusivePipelineSchedulesArgs } from "./resources/exclusive-pipeline-schedules";
export { ExclusiveGroupIntegrations, type ExclusiveGroupIntegrationsArgs } from "./resources/exclusive-group-integrations";
export { ExclusiveUpstreams, type ExclusiveUpstreamsArgs } from "./resources/exclusive-upstreams";
export { PipelineScheduleRun, type PipelineScheduleRunArgs } from "./resources/pipeline-schedule-run";
export { ChangelogCommit, type ChangelogCommitArgs } from "./resources/changelog-commit";
export { ProjectVariable, type ProjectVariableArgs, GroupVariable, type GroupVariableArgs, InstanceVariable, type InstanceVariableArgs } from "./resources/ci-variable";
export { ProjectHook, type ProjectHookArgs } from "./resources/project-hook";
export { GroupHook, type GroupHookArgs } from "./resources/group-hook";
export { Group, type GroupArgs, type DeletionMode } from "./resources/group";
export { Label, type LabelArgs } from "./resources/label";
export { ExclusiveLabels, type ExclusiveLabelsArgs } from "./resources/exclusive-labels";
export { GroupMember, type GroupMemberArgs } from "./resources/group-member";
export { ProjectMember, type ProjectMemberArgs } from "./resources/project-member";
export { ExclusiveGroupMembers, type ExclusiveGroupMembersArgs } from "./resources/exclusive-group-members";
export { ExclusiveProjectMembers, type ExclusiveProjectMembersArgs } from "./resources/exclusive-project-members";
export { GroupShare, type GroupShareArgs } from "./resources/group-share";
export { ProjectShare, type ProjectShareArgs } from "./resources/project-share";
export { Project, type ProjectArgs } from "./resources/project";
export { ProtectedBranch, type ProtectedBranchArgs } from "./resources/protected-branch";
export { ProtectedTag, type ProtectedTagArgs } from "./resources/protected-tag";
export { ApprovalRule, type ApprovalRuleArgs } from "./resources/approval-rule";
export type { RefAccessLevelName, RefAccess } from "./api/protected-refs";
export { GroupAccessToken, ProjectAccessToken, type GroupAccessTokenArgs, type ProjectAccessTokenArgs } from "./resources/access-token";
export { DeployToken, type DeployTokenArgs } from "./resources/deploy-token";
export { DeployKey, type DeployKeyArgs } from "./resources/deploy-key";
export type { Entry as ExclusiveSetEntry } from "./resources/exclusive-set";
export { resetDeclarations } from "./engine/declarations";
export * from "./functions";
export * from "./actions";

/** Each kind's provider as the engine's host gets it from the provider text (./engine/shim.ts), built on first use. */
export const providers = Object.defineProperties(
  {},
  Object.fromEntries(Object.keys(definitions).map((kind) => [kind, { enumerable: true, get: () => provider(kind) }])),
) as Record<ResourceKind, Required<pulumi.dynamic.ResourceProvider>>;

export type { Connection } from "./connection";
export type { ConnectionInput, ConnectionArg } from "./engine/connections";
export { PlatformClient, ApiError, NetworkError, apiPath, closeAllPools, setClientClock } from "./client";
export type { ClientOptions, ApiErrorKind, ClientClock } from "./client";
export { PartialCreateError } from "./engine/errors";
