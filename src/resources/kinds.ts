/**
 * The kinds the provider offers, the one place a resource module is
 * registered: a block per module names its classes (each a type and a value)
 * and exports the types users write beside them (its arguments'). The package
 * exports them all (src/index.ts), and the registered kinds are the classes
 * here (./index.ts): the order of the blocks means nothing. A module is
 * loaded when one of its classes is first read (../lazy-load.ts): a program
 * uses a few kinds, and the provider host serves one at a time.
 */
import { lazyLoad } from "../lazy-load";

export type { GroupAccessTokenArgs, ProjectAccessTokenArgs } from "./access-token";
export type GroupAccessToken = import("./access-token").GroupAccessToken;
export const GroupAccessToken: typeof import("./access-token").GroupAccessToken = null as any;
export type ProjectAccessToken = import("./access-token").ProjectAccessToken;
export const ProjectAccessToken: typeof import("./access-token").ProjectAccessToken = null as any;
lazyLoad(exports, ["GroupAccessToken", "ProjectAccessToken"], () => require("./access-token"));

export type { ApplicationSettingsArgs } from "./application-settings";
export type ApplicationSettings = import("./application-settings").ApplicationSettings;
export const ApplicationSettings: typeof import("./application-settings").ApplicationSettings = null as any;
lazyLoad(exports, ["ApplicationSettings"], () => require("./application-settings"));

export type { ApprovalRuleArgs } from "./approval-rule";
export type ApprovalRule = import("./approval-rule").ApprovalRule;
export const ApprovalRule: typeof import("./approval-rule").ApprovalRule = null as any;
lazyLoad(exports, ["ApprovalRule"], () => require("./approval-rule"));

export type { BadgeArgs } from "./badge";
export type Badge = import("./badge").Badge;
export const Badge: typeof import("./badge").Badge = null as any;
lazyLoad(exports, ["Badge"], () => require("./badge"));

export type { ChangelogCommitArgs } from "./changelog-commit";
export type ChangelogCommit = import("./changelog-commit").ChangelogCommit;
export const ChangelogCommit: typeof import("./changelog-commit").ChangelogCommit = null as any;
lazyLoad(exports, ["ChangelogCommit"], () => require("./changelog-commit"));

export type { ProjectVariableArgs, GroupVariableArgs, InstanceVariableArgs } from "./ci-variable";
export type ProjectVariable = import("./ci-variable").ProjectVariable;
export const ProjectVariable: typeof import("./ci-variable").ProjectVariable = null as any;
export type GroupVariable = import("./ci-variable").GroupVariable;
export const GroupVariable: typeof import("./ci-variable").GroupVariable = null as any;
export type InstanceVariable = import("./ci-variable").InstanceVariable;
export const InstanceVariable: typeof import("./ci-variable").InstanceVariable = null as any;
lazyLoad(exports, ["ProjectVariable", "GroupVariable", "InstanceVariable"], () => require("./ci-variable"));

export type { CleanupPolicyArgs } from "./cleanup-policy";
export type CleanupPolicy = import("./cleanup-policy").CleanupPolicy;
export const CleanupPolicy: typeof import("./cleanup-policy").CleanupPolicy = null as any;
lazyLoad(exports, ["CleanupPolicy"], () => require("./cleanup-policy"));

export type { ContainerRegistryCleanupArgs, AcceptedRun } from "./container-registry-cleanup";
export type ContainerRegistryCleanup = import("./container-registry-cleanup").ContainerRegistryCleanup;
export const ContainerRegistryCleanup: typeof import("./container-registry-cleanup").ContainerRegistryCleanup = null as any;
lazyLoad(exports, ["ContainerRegistryCleanup"], () => require("./container-registry-cleanup"));

export type { ContainerRegistryVisibilityArgs } from "./container-registry-visibility";
export type ContainerRegistryVisibility = import("./container-registry-visibility").ContainerRegistryVisibility;
export const ContainerRegistryVisibility: typeof import("./container-registry-visibility").ContainerRegistryVisibility = null as any;
lazyLoad(exports, ["ContainerRegistryVisibility"], () => require("./container-registry-visibility"));

export type { DeployKeyArgs } from "./deploy-key";
export type DeployKey = import("./deploy-key").DeployKey;
export const DeployKey: typeof import("./deploy-key").DeployKey = null as any;
lazyLoad(exports, ["DeployKey"], () => require("./deploy-key"));

export type { DeployTokenArgs } from "./deploy-token";
export type DeployToken = import("./deploy-token").DeployToken;
export const DeployToken: typeof import("./deploy-token").DeployToken = null as any;
lazyLoad(exports, ["DeployToken"], () => require("./deploy-token"));

export type { EpicLinkArgs } from "./epic-link";
export type EpicLink = import("./epic-link").EpicLink;
export const EpicLink: typeof import("./epic-link").EpicLink = null as any;
lazyLoad(exports, ["EpicLink"], () => require("./epic-link"));

export type { ErrorTrackingClientKeyArgs } from "./error-tracking-client-key";
export type ErrorTrackingClientKey = import("./error-tracking-client-key").ErrorTrackingClientKey;
export const ErrorTrackingClientKey: typeof import("./error-tracking-client-key").ErrorTrackingClientKey = null as any;
lazyLoad(exports, ["ErrorTrackingClientKey"], () => require("./error-tracking-client-key"));

export type { ExclusiveBadgesArgs } from "./exclusive-badges";
export type ExclusiveBadges = import("./exclusive-badges").ExclusiveBadges;
export const ExclusiveBadges: typeof import("./exclusive-badges").ExclusiveBadges = null as any;
lazyLoad(exports, ["ExclusiveBadges"], () => require("./exclusive-badges"));

export type { ExclusiveGroupIntegrationsArgs } from "./exclusive-group-integrations";
export type ExclusiveGroupIntegrations = import("./exclusive-group-integrations").ExclusiveGroupIntegrations;
export const ExclusiveGroupIntegrations: typeof import("./exclusive-group-integrations").ExclusiveGroupIntegrations = null as any;
lazyLoad(exports, ["ExclusiveGroupIntegrations"], () => require("./exclusive-group-integrations"));

export type { ExclusiveGroupMembersArgs } from "./exclusive-group-members";
export type ExclusiveGroupMembers = import("./exclusive-group-members").ExclusiveGroupMembers;
export const ExclusiveGroupMembers: typeof import("./exclusive-group-members").ExclusiveGroupMembers = null as any;
lazyLoad(exports, ["ExclusiveGroupMembers"], () => require("./exclusive-group-members"));

export type { ExclusiveLabelsArgs } from "./exclusive-labels";
export type ExclusiveLabels = import("./exclusive-labels").ExclusiveLabels;
export const ExclusiveLabels: typeof import("./exclusive-labels").ExclusiveLabels = null as any;
lazyLoad(exports, ["ExclusiveLabels"], () => require("./exclusive-labels"));

export type { ExclusivePipelineSchedulesArgs } from "./exclusive-pipeline-schedules";
export type ExclusivePipelineSchedules = import("./exclusive-pipeline-schedules").ExclusivePipelineSchedules;
export const ExclusivePipelineSchedules: typeof import("./exclusive-pipeline-schedules").ExclusivePipelineSchedules = null as any;
lazyLoad(exports, ["ExclusivePipelineSchedules"], () => require("./exclusive-pipeline-schedules"));

export type { ExclusiveProjectMembersArgs } from "./exclusive-project-members";
export type ExclusiveProjectMembers = import("./exclusive-project-members").ExclusiveProjectMembers;
export const ExclusiveProjectMembers: typeof import("./exclusive-project-members").ExclusiveProjectMembers = null as any;
lazyLoad(exports, ["ExclusiveProjectMembers"], () => require("./exclusive-project-members"));

export type { ExclusiveSamlGroupLinksArgs } from "./exclusive-saml-group-links";
export type ExclusiveSamlGroupLinks = import("./exclusive-saml-group-links").ExclusiveSamlGroupLinks;
export const ExclusiveSamlGroupLinks: typeof import("./exclusive-saml-group-links").ExclusiveSamlGroupLinks = null as any;
lazyLoad(exports, ["ExclusiveSamlGroupLinks"], () => require("./exclusive-saml-group-links"));

export type { ExclusiveUpstreamsArgs } from "./exclusive-upstreams";
export type ExclusiveUpstreams = import("./exclusive-upstreams").ExclusiveUpstreams;
export const ExclusiveUpstreams: typeof import("./exclusive-upstreams").ExclusiveUpstreams = null as any;
lazyLoad(exports, ["ExclusiveUpstreams"], () => require("./exclusive-upstreams"));

export type { GroupArgs, DeletionMode } from "./group";
export type Group = import("./group").Group;
export const Group: typeof import("./group").Group = null as any;
lazyLoad(exports, ["Group"], () => require("./group"));

export type { GroupHookArgs } from "./group-hook";
export type GroupHook = import("./group-hook").GroupHook;
export const GroupHook: typeof import("./group-hook").GroupHook = null as any;
lazyLoad(exports, ["GroupHook"], () => require("./group-hook"));

export type { GroupIntegrationArgs, IntegrationSlug } from "./group-integration";
export type GroupIntegration = import("./group-integration").GroupIntegration;
export const GroupIntegration: typeof import("./group-integration").GroupIntegration = null as any;
lazyLoad(exports, ["GroupIntegration"], () => require("./group-integration"));

export type { GroupMemberArgs } from "./group-member";
export type GroupMember = import("./group-member").GroupMember;
export const GroupMember: typeof import("./group-member").GroupMember = null as any;
lazyLoad(exports, ["GroupMember"], () => require("./group-member"));

export type { GroupProtectedEnvironmentArgs } from "./group-protected-environment";
export type GroupProtectedEnvironment = import("./group-protected-environment").GroupProtectedEnvironment;
export const GroupProtectedEnvironment: typeof import("./group-protected-environment").GroupProtectedEnvironment = null as any;
lazyLoad(exports, ["GroupProtectedEnvironment"], () => require("./group-protected-environment"));

export type { GroupSettingsArgs } from "./group-settings";
export type GroupSettings = import("./group-settings").GroupSettings;
export const GroupSettings: typeof import("./group-settings").GroupSettings = null as any;
lazyLoad(exports, ["GroupSettings"], () => require("./group-settings"));

export type { GroupShareArgs } from "./group-share";
export type GroupShare = import("./group-share").GroupShare;
export const GroupShare: typeof import("./group-share").GroupShare = null as any;
lazyLoad(exports, ["GroupShare"], () => require("./group-share"));

export type { LabelArgs } from "./label";
export type Label = import("./label").Label;
export const Label: typeof import("./label").Label = null as any;
lazyLoad(exports, ["Label"], () => require("./label"));

export type { MergeRequestArgs } from "./merge-request";
export type MergeRequest = import("./merge-request").MergeRequest;
export const MergeRequest: typeof import("./merge-request").MergeRequest = null as any;
lazyLoad(exports, ["MergeRequest"], () => require("./merge-request"));

export type { PipelineScheduleArgs, PipelineScheduleVariable, PipelineScheduleInput } from "./pipeline-schedule";
export type PipelineSchedule = import("./pipeline-schedule").PipelineSchedule;
export const PipelineSchedule: typeof import("./pipeline-schedule").PipelineSchedule = null as any;
lazyLoad(exports, ["PipelineSchedule"], () => require("./pipeline-schedule"));

export type { PipelineScheduleRunArgs } from "./pipeline-schedule-run";
export type PipelineScheduleRun = import("./pipeline-schedule-run").PipelineScheduleRun;
export const PipelineScheduleRun: typeof import("./pipeline-schedule-run").PipelineScheduleRun = null as any;
lazyLoad(exports, ["PipelineScheduleRun"], () => require("./pipeline-schedule-run"));

export type { ProjectArgs } from "./project";
export type Project = import("./project").Project;
export const Project: typeof import("./project").Project = null as any;
lazyLoad(exports, ["Project"], () => require("./project"));

export type { ProjectHookArgs } from "./project-hook";
export type ProjectHook = import("./project-hook").ProjectHook;
export const ProjectHook: typeof import("./project-hook").ProjectHook = null as any;
lazyLoad(exports, ["ProjectHook"], () => require("./project-hook"));

export type { ProjectMemberArgs } from "./project-member";
export type ProjectMember = import("./project-member").ProjectMember;
export const ProjectMember: typeof import("./project-member").ProjectMember = null as any;
lazyLoad(exports, ["ProjectMember"], () => require("./project-member"));

export type { ProjectShareArgs } from "./project-share";
export type ProjectShare = import("./project-share").ProjectShare;
export const ProjectShare: typeof import("./project-share").ProjectShare = null as any;
lazyLoad(exports, ["ProjectShare"], () => require("./project-share"));

export type { ProjectStarArgs } from "./project-star";
export type ProjectStar = import("./project-star").ProjectStar;
export const ProjectStar: typeof import("./project-star").ProjectStar = null as any;
lazyLoad(exports, ["ProjectStar"], () => require("./project-star"));

export type { ProtectedBranchArgs } from "./protected-branch";
export type ProtectedBranch = import("./protected-branch").ProtectedBranch;
export const ProtectedBranch: typeof import("./protected-branch").ProtectedBranch = null as any;
lazyLoad(exports, ["ProtectedBranch"], () => require("./protected-branch"));

export type { ProtectedEnvironmentArgs, EnvironmentDeployEntry, EnvironmentApprovalEntry } from "./protected-environment";
export type ProtectedEnvironment = import("./protected-environment").ProtectedEnvironment;
export const ProtectedEnvironment: typeof import("./protected-environment").ProtectedEnvironment = null as any;
lazyLoad(exports, ["ProtectedEnvironment"], () => require("./protected-environment"));

export type { ProtectedTagArgs } from "./protected-tag";
export type ProtectedTag = import("./protected-tag").ProtectedTag;
export const ProtectedTag: typeof import("./protected-tag").ProtectedTag = null as any;
lazyLoad(exports, ["ProtectedTag"], () => require("./protected-tag"));

export type { SamlGroupLinkArgs, AccessLevelName } from "./saml-group-link";
export type SamlGroupLink = import("./saml-group-link").SamlGroupLink;
export const SamlGroupLink: typeof import("./saml-group-link").SamlGroupLink = null as any;
lazyLoad(exports, ["SamlGroupLink"], () => require("./saml-group-link"));

export type { SamlIdentityArgs } from "./saml-identity";
export type SamlIdentity = import("./saml-identity").SamlIdentity;
export const SamlIdentity: typeof import("./saml-identity").SamlIdentity = null as any;
lazyLoad(exports, ["SamlIdentity"], () => require("./saml-identity"));

export type { UpstreamArgs } from "./upstream";
export type Upstream = import("./upstream").Upstream;
export const Upstream: typeof import("./upstream").Upstream = null as any;
lazyLoad(exports, ["Upstream"], () => require("./upstream"));

export type { VirtualRegistryArgs } from "./virtual-registry";
export type VirtualRegistry = import("./virtual-registry").VirtualRegistry;
export const VirtualRegistry: typeof import("./virtual-registry").VirtualRegistry = null as any;
lazyLoad(exports, ["VirtualRegistry"], () => require("./virtual-registry"));

export type { ProjectApprovalSettingsArgs } from "./project-approval-settings";
export type ProjectApprovalSettings = import("./project-approval-settings").ProjectApprovalSettings;
export const ProjectApprovalSettings: typeof import("./project-approval-settings").ProjectApprovalSettings = null as any;
lazyLoad(exports, ["ProjectApprovalSettings"], () => require("./project-approval-settings"));
