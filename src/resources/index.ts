/** Every resource the provider offers; add a resource module here. */
import type { AnyResourceDefinition } from "../engine/definition";
import { applicationSettingsDefinition } from "./application-settings";
import { badgeDefinition } from "./badge";
import { mergeRequestDefinition } from "./merge-request";
import { groupSettingsDefinition } from "./group-settings";
import { pipelineScheduleDefinition } from "./pipeline-schedule";
import { groupIntegrationDefinition } from "./group-integration";
import { samlGroupLinkDefinition } from "./saml-group-link";
import { cleanupPolicyDefinition } from "./cleanup-policy";
import { upstreamDefinition } from "./upstream";
import { virtualRegistryDefinition } from "./virtual-registry";
import { containerRegistryVisibilityDefinition } from "./container-registry-visibility";
import { containerRegistryCleanupDefinition } from "./container-registry-cleanup";
import { errorTrackingClientKeyDefinition } from "./error-tracking-client-key";
import { epicLinkDefinition } from "./epic-link";
import { samlIdentityDefinition } from "./saml-identity";
import { projectStarDefinition } from "./project-star";
import { exclusiveBadgesDefinition } from "./exclusive-badges";
import { exclusiveSamlGroupLinksDefinition } from "./exclusive-saml-group-links";
import { exclusivePipelineSchedulesDefinition } from "./exclusive-pipeline-schedules";
import { exclusiveGroupIntegrationsDefinition } from "./exclusive-group-integrations";
import { exclusiveUpstreamsDefinition } from "./exclusive-upstreams";
import { pipelineScheduleRunDefinition } from "./pipeline-schedule-run";
import { changelogCommitDefinition } from "./changelog-commit";
import { groupVariableDefinition, instanceVariableDefinition, projectVariableDefinition } from "./ci-variable";
import { projectHookDefinition } from "./project-hook";
import { groupHookDefinition } from "./group-hook";
import { groupDefinition } from "./group";
import { labelDefinition } from "./label";
import { exclusiveLabelsDefinition } from "./exclusive-labels";
import { groupMemberDefinition } from "./group-member";
import { projectMemberDefinition } from "./project-member";
import { exclusiveGroupMembersDefinition } from "./exclusive-group-members";
import { exclusiveProjectMembersDefinition } from "./exclusive-project-members";
import { groupShareDefinition } from "./group-share";
import { projectShareDefinition } from "./project-share";
import { projectDefinition } from "./project";
import { protectedBranchDefinition } from "./protected-branch";
import { protectedTagDefinition } from "./protected-tag";
import { approvalRuleDefinition } from "./approval-rule";
import { groupAccessTokenDefinition, projectAccessTokenDefinition } from "./access-token";
import { deployTokenDefinition } from "./deploy-token";
import { deployKeyDefinition } from "./deploy-key";

export const definitions = {
  Badge: badgeDefinition,
  PipelineSchedule: pipelineScheduleDefinition,
  GroupIntegration: groupIntegrationDefinition,
  SamlGroupLink: samlGroupLinkDefinition,
  VirtualRegistry: virtualRegistryDefinition,
  Upstream: upstreamDefinition,
  CleanupPolicy: cleanupPolicyDefinition,
  GroupSettings: groupSettingsDefinition,
  ApplicationSettings: applicationSettingsDefinition,
  ContainerRegistryVisibility: containerRegistryVisibilityDefinition,
  ContainerRegistryCleanup: containerRegistryCleanupDefinition,
  ErrorTrackingClientKey: errorTrackingClientKeyDefinition,
  SamlIdentity: samlIdentityDefinition,
  EpicLink: epicLinkDefinition,
  ProjectStar: projectStarDefinition,
  ExclusiveBadges: exclusiveBadgesDefinition,
  ExclusiveSamlGroupLinks: exclusiveSamlGroupLinksDefinition,
  ExclusivePipelineSchedules: exclusivePipelineSchedulesDefinition,
  ExclusiveGroupIntegrations: exclusiveGroupIntegrationsDefinition,
  ExclusiveUpstreams: exclusiveUpstreamsDefinition,
  MergeRequest: mergeRequestDefinition,
  PipelineScheduleRun: pipelineScheduleRunDefinition,
  ChangelogCommit: changelogCommitDefinition,
  ProjectVariable: projectVariableDefinition,
  GroupVariable: groupVariableDefinition,
  InstanceVariable: instanceVariableDefinition,
  ProjectHook: projectHookDefinition,
  GroupHook: groupHookDefinition,
  Group: groupDefinition,
  Label: labelDefinition,
  ExclusiveLabels: exclusiveLabelsDefinition,
  GroupMember: groupMemberDefinition,
  ProjectMember: projectMemberDefinition,
  ExclusiveGroupMembers: exclusiveGroupMembersDefinition,
  ExclusiveProjectMembers: exclusiveProjectMembersDefinition,
  GroupShare: groupShareDefinition,
  ProjectShare: projectShareDefinition,
  Project: projectDefinition,
  ProtectedBranch: protectedBranchDefinition,
  ProtectedTag: protectedTagDefinition,
  ApprovalRule: approvalRuleDefinition,
  GroupAccessToken: groupAccessTokenDefinition,
  ProjectAccessToken: projectAccessTokenDefinition,
  DeployToken: deployTokenDefinition,
  DeployKey: deployKeyDefinition,
} satisfies Record<string, AnyResourceDefinition>;

export type ResourceKind = keyof typeof definitions;
