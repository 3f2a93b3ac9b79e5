/**
 * The members of each resource class, derived from its declaration (the
 * schema's inputs and the `outputs`, see ResourceOutputs in
 * src/engine/resource.ts), as the published types give them: a member that
 * goes missing or changes type fails the typecheck of this file.
 */
import type * as pulumi from "@pulumi/pulumi";
import { describe, expectTypeOf, it } from "vitest";
import type {
  AcceptedRun, AccessLevelName, ApplicationSettings, ApprovalRule, Badge, ChangelogCommit, CleanupPolicy, ContainerRegistryCleanup, ContainerRegistryVisibility, DeletionMode, DeployAccess, DeployKey, DeployToken, EnvironmentApprovalEntry, EnvironmentApprovalRule, EnvironmentDeployEntry, EpicLink, ErrorTrackingClientKey, ExclusiveBadges, ExclusiveGroupIntegrations, ExclusiveGroupMembers, ExclusiveLabels, ExclusivePipelineSchedules, ExclusiveProjectMembers, ExclusiveSamlGroupLinks, ExclusiveSetEntry, ExclusiveUpstreams, Group, GroupAccessToken, GroupHook, GroupIntegration, GroupMember, GroupProtectedEnvironment, GroupSettings, GroupShare, GroupVariable, InstanceVariable, IntegrationSlug, Label, MergeRequest, PipelineSchedule, PipelineScheduleRun, Project, ProjectAccessToken, ProjectApprovalSettings, ProjectHook, ProjectMember, ProjectShare, ProjectStar, ProjectVariable, ProtectedBranch, ProtectedEnvironment, ProtectedTag, RefAccess, RefAccessLevelName, SamlGroupLink, SamlIdentity, Upstream, VirtualRegistry,
} from "pulumi-platform";

describe("resource class members", () => {
  it("ApplicationSettings", () => {
    expectTypeOf<ApplicationSettings["restoreValues"]>().toEqualTypeOf<pulumi.Output<Record<string, unknown>>>();
    expectTypeOf<ApplicationSettings["updatedAt"]>().toEqualTypeOf<pulumi.Output<string>>();
  });
  it("Badge", () => {
    expectTypeOf<Badge["project"]>().toEqualTypeOf<pulumi.Output<string | number | undefined>>();
    expectTypeOf<Badge["group"]>().toEqualTypeOf<pulumi.Output<string | number | undefined>>();
    expectTypeOf<Badge["linkUrl"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Badge["imageUrl"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Badge["name"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<Badge["badgeId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<Badge["kind"]>().toEqualTypeOf<pulumi.Output<"project" | "group">>();
    expectTypeOf<Badge["renderedLinkUrl"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Badge["renderedImageUrl"]>().toEqualTypeOf<pulumi.Output<string>>();
  });
  it("ChangelogCommit", () => {
    expectTypeOf<ChangelogCommit["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ChangelogCommit["version"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ChangelogCommit["committedAt"]>().toEqualTypeOf<pulumi.Output<string>>();
  });
  it("CleanupPolicy", () => {
    expectTypeOf<CleanupPolicy["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<CleanupPolicy["cadence"]>().toEqualTypeOf<pulumi.Output<number | undefined>>();
    expectTypeOf<CleanupPolicy["enabled"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<CleanupPolicy["keepNDaysAfterDownload"]>().toEqualTypeOf<pulumi.Output<number | undefined>>();
    expectTypeOf<CleanupPolicy["notifyOnSuccess"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<CleanupPolicy["notifyOnFailure"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<CleanupPolicy["groupId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<CleanupPolicy["nextRunAt"]>().toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf<CleanupPolicy["lastRunAt"]>().toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf<CleanupPolicy["lastRunDeletedSize"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<CleanupPolicy["lastRunDeletedEntriesCount"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<CleanupPolicy["status"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<CleanupPolicy["failureMessage"]>().toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf<CleanupPolicy["lastRunDetailedMetrics"]>().toEqualTypeOf<pulumi.Output<Record<string, { [x: string]: unknown; deleted_entries_count: number; deleted_size: number }>>>();
  });
  it("ContainerRegistryCleanup", () => {
    expectTypeOf<ContainerRegistryCleanup["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ContainerRegistryCleanup["repository"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<ContainerRegistryCleanup["nameRegexDelete"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ContainerRegistryCleanup["nameRegexKeep"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<ContainerRegistryCleanup["keepN"]>().toEqualTypeOf<pulumi.Output<number | undefined>>();
    expectTypeOf<ContainerRegistryCleanup["olderThan"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<ContainerRegistryCleanup["wouldDelete"]>().toEqualTypeOf<pulumi.Output<string[]>>();
    expectTypeOf<ContainerRegistryCleanup["repositories"]>().toEqualTypeOf<pulumi.Output<string[]>>();
    expectTypeOf<ContainerRegistryCleanup["deleted"]>().toEqualTypeOf<pulumi.Output<Record<string, AcceptedRun>>>();
    expectTypeOf<ContainerRegistryCleanup["refused"]>().toEqualTypeOf<pulumi.Output<Record<string, string>>>();
    expectTypeOf<ContainerRegistryCleanup["lastRunAt"]>().toEqualTypeOf<pulumi.Output<string | null>>();
  });
  it("ContainerRegistryVisibility", () => {
    expectTypeOf<ContainerRegistryVisibility["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ContainerRegistryVisibility["accessLevel"]>().toEqualTypeOf<pulumi.Output<"enabled" | "private" | "disabled">>();
    expectTypeOf<ContainerRegistryVisibility["projectId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ContainerRegistryVisibility["fullPath"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ContainerRegistryVisibility["restoreValues"]>().toEqualTypeOf<pulumi.Output<Record<string, unknown>>>();
  });
  it("EpicLink", () => {
    expectTypeOf<EpicLink["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<EpicLink["epicIid"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<EpicLink["childEpicId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<EpicLink["moveBeforeId"]>().toEqualTypeOf<pulumi.Output<number | undefined>>();
    expectTypeOf<EpicLink["moveAfterId"]>().toEqualTypeOf<pulumi.Output<number | undefined>>();
    expectTypeOf<EpicLink["parentEpicId"]>().toEqualTypeOf<pulumi.Output<number | null>>();
    expectTypeOf<EpicLink["childEpicIid"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<EpicLink["childGroupId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<EpicLink["title"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<EpicLink["previousParentLink"]>().toEqualTypeOf<pulumi.Output<string>>();
  });
  it("ErrorTrackingClientKey", () => {
    expectTypeOf<ErrorTrackingClientKey["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ErrorTrackingClientKey["rotation"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<ErrorTrackingClientKey["keyId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ErrorTrackingClientKey["active"]>().toEqualTypeOf<pulumi.Output<boolean>>();
    expectTypeOf<ErrorTrackingClientKey["publicKey"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ErrorTrackingClientKey["dsn"]>().toEqualTypeOf<pulumi.Output<string>>();
  });
  it("ExclusiveBadges", () => {
    expectTypeOf<ExclusiveBadges["project"]>().toEqualTypeOf<pulumi.Output<string | number | undefined>>();
    expectTypeOf<ExclusiveBadges["group"]>().toEqualTypeOf<pulumi.Output<string | number | undefined>>();
    expectTypeOf<ExclusiveBadges["keep"]>().toEqualTypeOf<pulumi.Output<(string | number)[]>>();
    expectTypeOf<ExclusiveBadges["ignore"]>().toEqualTypeOf<pulumi.Output<string[] | undefined>>();
    expectTypeOf<ExclusiveBadges["unexpected"]>().toEqualTypeOf<pulumi.Output<ExclusiveSetEntry[]>>();
  });
  it("ExclusiveGroupIntegrations", () => {
    expectTypeOf<ExclusiveGroupIntegrations["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ExclusiveGroupIntegrations["keep"]>().toEqualTypeOf<pulumi.Output<(string | number)[]>>();
    expectTypeOf<ExclusiveGroupIntegrations["ignore"]>().toEqualTypeOf<pulumi.Output<string[] | undefined>>();
    expectTypeOf<ExclusiveGroupIntegrations["unexpected"]>().toEqualTypeOf<pulumi.Output<ExclusiveSetEntry[]>>();
  });
  it("ExclusivePipelineSchedules", () => {
    expectTypeOf<ExclusivePipelineSchedules["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ExclusivePipelineSchedules["keep"]>().toEqualTypeOf<pulumi.Output<(string | number)[]>>();
    expectTypeOf<ExclusivePipelineSchedules["ignore"]>().toEqualTypeOf<pulumi.Output<string[] | undefined>>();
    expectTypeOf<ExclusivePipelineSchedules["unexpected"]>().toEqualTypeOf<pulumi.Output<ExclusiveSetEntry[]>>();
  });
  it("ExclusiveSamlGroupLinks", () => {
    expectTypeOf<ExclusiveSamlGroupLinks["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ExclusiveSamlGroupLinks["keep"]>().toEqualTypeOf<pulumi.Output<(string | number)[]>>();
    expectTypeOf<ExclusiveSamlGroupLinks["ignore"]>().toEqualTypeOf<pulumi.Output<string[] | undefined>>();
    expectTypeOf<ExclusiveSamlGroupLinks["unexpected"]>().toEqualTypeOf<pulumi.Output<ExclusiveSetEntry[]>>();
  });
  it("ExclusiveUpstreams", () => {
    expectTypeOf<ExclusiveUpstreams["registry"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ExclusiveUpstreams["keep"]>().toEqualTypeOf<pulumi.Output<(string | number)[]>>();
    expectTypeOf<ExclusiveUpstreams["ignore"]>().toEqualTypeOf<pulumi.Output<string[] | undefined>>();
    expectTypeOf<ExclusiveUpstreams["unexpected"]>().toEqualTypeOf<pulumi.Output<ExclusiveSetEntry[]>>();
  });
  it("GroupIntegration", () => {
    expectTypeOf<GroupIntegration["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<GroupIntegration["slug"]>().toEqualTypeOf<pulumi.Output<IntegrationSlug>>();
    expectTypeOf<GroupIntegration["integrationId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<GroupIntegration["title"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<GroupIntegration["active"]>().toEqualTypeOf<pulumi.Output<boolean>>();
  });
  it("GroupSettings", () => {
    expectTypeOf<GroupSettings["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<GroupSettings["groupId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<GroupSettings["fullPath"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<GroupSettings["avatarUrl"]>().toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf<GroupSettings["restoreValues"]>().toEqualTypeOf<pulumi.Output<Record<string, unknown>>>();
  });
  it("MergeRequest", () => {
    expectTypeOf<MergeRequest["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<MergeRequest["sourceBranch"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<MergeRequest["targetBranch"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<MergeRequest["title"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<MergeRequest["description"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<MergeRequest["state"]>().toEqualTypeOf<pulumi.Output<"opened" | "closed" | "merged">>();
    expectTypeOf<MergeRequest["labels"]>().toEqualTypeOf<pulumi.Output<string[] | undefined>>();
    expectTypeOf<MergeRequest["assigneeIds"]>().toEqualTypeOf<pulumi.Output<number[] | undefined>>();
    expectTypeOf<MergeRequest["reviewerIds"]>().toEqualTypeOf<pulumi.Output<number[] | undefined>>();
    expectTypeOf<MergeRequest["milestoneId"]>().toEqualTypeOf<pulumi.Output<number | undefined>>();
    expectTypeOf<MergeRequest["iid"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<MergeRequest["mergeRequestId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<MergeRequest["webUrl"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<MergeRequest["mergedAt"]>().toEqualTypeOf<pulumi.Output<string | null>>();
  });
  it("PipelineScheduleRun", () => {
    expectTypeOf<PipelineScheduleRun["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<PipelineScheduleRun["scheduleId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<PipelineScheduleRun["message"]>().toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf<PipelineScheduleRun["ranAt"]>().toEqualTypeOf<pulumi.Output<string>>();
  });
  it("PipelineSchedule", () => {
    expectTypeOf<PipelineSchedule["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<PipelineSchedule["description"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<PipelineSchedule["ref"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<PipelineSchedule["cron"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<PipelineSchedule["cronTimezone"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<PipelineSchedule["active"]>().toEqualTypeOf<pulumi.Output<boolean>>();
    expectTypeOf<PipelineSchedule["variables"]>().toEqualTypeOf<pulumi.Output<Record<string, { value: string; variableType: "env_var" | "file" }> | undefined>>();
    expectTypeOf<PipelineSchedule["declaredVariableKeys"]>().toEqualTypeOf<pulumi.Output<string[]>>();
    expectTypeOf<PipelineSchedule["inputs"]>().toEqualTypeOf<pulumi.Output<{ name: string; value: string | number | boolean | (string | number | boolean)[] }[] | undefined>>();
    expectTypeOf<PipelineSchedule["scheduleId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<PipelineSchedule["owner"]>().toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf<PipelineSchedule["nextRunAt"]>().toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf<PipelineSchedule["lastPipeline"]>().toEqualTypeOf<pulumi.Output<{ [x: string]: unknown; id: number; sha: string; ref: string; status: string } | null>>();
  });
  it("Project", () => {
    expectTypeOf<Project["group"]>().toEqualTypeOf<pulumi.Output<string | number | undefined>>();
    expectTypeOf<Project["name"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Project["path"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<Project["visibility"]>().toEqualTypeOf<pulumi.Output<"private" | "internal" | "public" | undefined>>();
    expectTypeOf<Project["mergeMethod"]>().toEqualTypeOf<pulumi.Output<"merge" | "rebase_merge" | "ff" | undefined>>();
    expectTypeOf<Project["wikiAccessLevel"]>().toEqualTypeOf<pulumi.Output<"disabled" | "private" | "enabled" | undefined>>();
    expectTypeOf<Project["topics"]>().toEqualTypeOf<pulumi.Output<string[] | undefined>>();
    expectTypeOf<Project["archived"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<Project["projectId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<Project["fullPath"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Project["markedForDeletionOn"]>().toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf<Project["deletionMode"]>().toEqualTypeOf<pulumi.Output<{ delayed: boolean; periodDays?: number | null } | null>>();
  });
  it("ProjectStar", () => {
    expectTypeOf<ProjectStar["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ProjectStar["projectId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ProjectStar["userId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ProjectStar["username"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ProjectStar["starredSince"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ProjectStar["starCount"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ProjectStar["starredBefore"]>().toEqualTypeOf<pulumi.Output<boolean>>();
  });
  it("SamlGroupLink", () => {
    expectTypeOf<SamlGroupLink["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<SamlGroupLink["samlGroupName"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<SamlGroupLink["accessLevel"]>().toEqualTypeOf<pulumi.Output<AccessLevelName | number>>();
    expectTypeOf<SamlGroupLink["memberRoleId"]>().toEqualTypeOf<pulumi.Output<number | undefined>>();
    expectTypeOf<SamlGroupLink["provider"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
  });
  it("SamlIdentity", () => {
    expectTypeOf<SamlIdentity["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<SamlIdentity["user"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<SamlIdentity["externUid"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<SamlIdentity["deleteIdentityOnDestroy"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<SamlIdentity["userId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<SamlIdentity["restoreValues"]>().toEqualTypeOf<pulumi.Output<Record<string, unknown>>>();
  });
  it("Upstream", () => {
    expectTypeOf<Upstream["registry"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<Upstream["url"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Upstream["name"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Upstream["description"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<Upstream["cacheValidityHours"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<Upstream["username"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<Upstream["password"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<Upstream["position"]>().toEqualTypeOf<pulumi.Output<number | undefined>>();
    expectTypeOf<Upstream["otherRegistries"]>().toEqualTypeOf<pulumi.Output<{ registry: number; position?: number | undefined }[] | undefined>>();
    expectTypeOf<Upstream["upstreamId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<Upstream["groupId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<Upstream["registryUpstreamId"]>().toEqualTypeOf<pulumi.Output<number | undefined>>();
    expectTypeOf<Upstream["links"]>().toEqualTypeOf<pulumi.Output<{ registryId: number; registryUpstreamId: number; position: number }[]>>();
  });
  it("VirtualRegistry", () => {
    expectTypeOf<VirtualRegistry["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<VirtualRegistry["name"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<VirtualRegistry["description"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<VirtualRegistry["registryId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<VirtualRegistry["groupId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<VirtualRegistry["upstreams"]>().toEqualTypeOf<pulumi.Output<{ upstreamId: number; position: number; registryUpstreamId: number }[]>>();
  });
  it("ProjectVariable, GroupVariable, InstanceVariable", () => {
    expectTypeOf<ProjectVariable["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ProjectVariable["key"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ProjectVariable["value"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ProjectVariable["variableType"]>().toEqualTypeOf<pulumi.Output<"env_var" | "file">>();
    expectTypeOf<ProjectVariable["protected"]>().toEqualTypeOf<pulumi.Output<boolean>>();
    expectTypeOf<ProjectVariable["masked"]>().toEqualTypeOf<pulumi.Output<boolean>>();
    expectTypeOf<ProjectVariable["hidden"]>().toEqualTypeOf<pulumi.Output<boolean>>();
    expectTypeOf<ProjectVariable["raw"]>().toEqualTypeOf<pulumi.Output<boolean>>();
    expectTypeOf<ProjectVariable["environmentScope"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ProjectVariable["description"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<ProjectVariable["valueReadable"]>().toEqualTypeOf<pulumi.Output<boolean>>();
    expectTypeOf<GroupVariable["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<GroupVariable["environmentScope"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<GroupVariable["hidden"]>().toEqualTypeOf<pulumi.Output<boolean>>();
    expectTypeOf<GroupVariable["valueReadable"]>().toEqualTypeOf<pulumi.Output<boolean>>();
    expectTypeOf<InstanceVariable["key"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<InstanceVariable["value"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<InstanceVariable["raw"]>().toEqualTypeOf<pulumi.Output<boolean>>();
    expectTypeOf<InstanceVariable["valueReadable"]>().toEqualTypeOf<pulumi.Output<boolean>>();
  });
  it("GroupAccessToken and ProjectAccessToken", () => {
    type Role = "guest" | "planner" | "reporter" | "developer" | "maintainer" | "owner" | number;
    expectTypeOf<GroupAccessToken["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ProjectAccessToken["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ProjectAccessToken["name"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ProjectAccessToken["scopes"]>().toEqualTypeOf<pulumi.Output<("api" | "read_api" | "read_repository" | "write_repository" | "read_registry" | "write_registry" | "read_virtual_registry" | "write_virtual_registry" | "create_runner" | "manage_runner" | "ai_features" | "k8s_proxy" | "self_rotate")[]>>();
    expectTypeOf<ProjectAccessToken["accessLevel"]>().toEqualTypeOf<pulumi.Output<Role | undefined>>();
    expectTypeOf<ProjectAccessToken["expiresAt"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<ProjectAccessToken["rotateBeforeDays"]>().toEqualTypeOf<pulumi.Output<number | undefined>>();
    expectTypeOf<ProjectAccessToken["plannedExpiresAt"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<ProjectAccessToken["token"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<ProjectAccessToken["tokenId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ProjectAccessToken["userId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ProjectAccessToken["tokenExpiresAt"]>().toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf<ProjectAccessToken["active"]>().toEqualTypeOf<pulumi.Output<boolean>>();
    expectTypeOf<GroupAccessToken["token"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<GroupAccessToken["revoked"]>().toEqualTypeOf<pulumi.Output<boolean>>();
  });
  it("ProjectHook", () => {
    expectTypeOf<ProjectHook["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ProjectHook["url"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ProjectHook["token"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<ProjectHook["customHeaders"]>().toEqualTypeOf<pulumi.Output<Record<string, string> | undefined>>();
    expectTypeOf<ProjectHook["branchFilterStrategy"]>().toEqualTypeOf<pulumi.Output<"wildcard" | "regex" | "all_branches" | undefined>>();
    expectTypeOf<ProjectHook["pushEvents"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<ProjectHook["vulnerabilityEvents"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<ProjectHook["hookId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ProjectHook["alertStatus"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ProjectHook["disabledUntil"]>().toEqualTypeOf<pulumi.Output<string | null>>();
  });
  it("GroupHook", () => {
    expectTypeOf<GroupHook["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<GroupHook["url"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<GroupHook["memberEvents"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<GroupHook["subgroupEvents"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<GroupHook["hookId"]>().toEqualTypeOf<pulumi.Output<number>>();
  });
  it("Group", () => {
    expectTypeOf<Group["name"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Group["path"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Group["parent"]>().toEqualTypeOf<pulumi.Output<string | number | undefined>>();
    expectTypeOf<Group["visibility"]>().toEqualTypeOf<pulumi.Output<"private" | "internal" | "public" | undefined>>();
    expectTypeOf<Group["membershipLock"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<Group["groupId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<Group["fullPath"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Group["parentId"]>().toEqualTypeOf<pulumi.Output<number | null>>();
    expectTypeOf<Group["markedForDeletionOn"]>().toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf<Group["deletionMode"]>().toEqualTypeOf<pulumi.Output<DeletionMode>>();
    expectTypeOf<Group["subgroupCount"]>().toEqualTypeOf<pulumi.Output<number | null>>();
    expectTypeOf<Group["projectCount"]>().toEqualTypeOf<pulumi.Output<number | null>>();
  });
  it("Label", () => {
    expectTypeOf<Label["project"]>().toEqualTypeOf<pulumi.Output<string | number | undefined>>();
    expectTypeOf<Label["group"]>().toEqualTypeOf<pulumi.Output<string | number | undefined>>();
    expectTypeOf<Label["name"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Label["color"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Label["description"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<Label["priority"]>().toEqualTypeOf<pulumi.Output<number | null | undefined>>();
    expectTypeOf<Label["labelId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<Label["storedColor"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<Label["textColor"]>().toEqualTypeOf<pulumi.Output<string | null>>();
  });
  it("ExclusiveLabels", () => {
    expectTypeOf<ExclusiveLabels["project"]>().toEqualTypeOf<pulumi.Output<string | number | undefined>>();
    expectTypeOf<ExclusiveLabels["group"]>().toEqualTypeOf<pulumi.Output<string | number | undefined>>();
    expectTypeOf<ExclusiveLabels["keep"]>().toEqualTypeOf<pulumi.Output<(string | number)[]>>();
    expectTypeOf<ExclusiveLabels["ignore"]>().toEqualTypeOf<pulumi.Output<string[] | undefined>>();
    expectTypeOf<ExclusiveLabels["unexpected"]>().toEqualTypeOf<pulumi.Output<ExclusiveSetEntry[]>>();
  });
  it("GroupMember", () => {
    expectTypeOf<GroupMember["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<GroupMember["user"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<GroupMember["accessLevel"]>().toEqualTypeOf<pulumi.Output<"guest" | "planner" | "reporter" | "developer" | "maintainer" | "owner" | number>>();
    expectTypeOf<GroupMember["expiresAt"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<GroupMember["memberRoleId"]>().toEqualTypeOf<pulumi.Output<number | undefined>>();
    expectTypeOf<GroupMember["userId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<GroupMember["username"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<GroupMember["userState"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<GroupMember["membershipState"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<GroupMember["createdBy"]>().toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf<GroupMember["createdAt"]>().toEqualTypeOf<pulumi.Output<string | null>>();
  });
  it("ProjectMember", () => {
    expectTypeOf<ProjectMember["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ProjectMember["user"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ProjectMember["accessLevel"]>().toEqualTypeOf<pulumi.Output<"guest" | "planner" | "reporter" | "developer" | "maintainer" | "owner" | number>>();
    expectTypeOf<ProjectMember["userId"]>().toEqualTypeOf<pulumi.Output<number>>();
  });
  it("ExclusiveGroupMembers and ExclusiveProjectMembers", () => {
    expectTypeOf<ExclusiveGroupMembers["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ExclusiveGroupMembers["keep"]>().toEqualTypeOf<pulumi.Output<(string | number)[]>>();
    expectTypeOf<ExclusiveGroupMembers["unexpected"]>().toEqualTypeOf<pulumi.Output<ExclusiveSetEntry[]>>();
    expectTypeOf<ExclusiveProjectMembers["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ExclusiveProjectMembers["ignore"]>().toEqualTypeOf<pulumi.Output<string[] | undefined>>();
  });
  it("GroupShare and ProjectShare", () => {
    expectTypeOf<GroupShare["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<GroupShare["sharedWith"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<GroupShare["groupAccess"]>().toEqualTypeOf<pulumi.Output<"guest" | "planner" | "reporter" | "developer" | "maintainer" | "owner" | number>>();
    expectTypeOf<GroupShare["expiresAt"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<GroupShare["sharedWithGroupId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ProjectShare["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ProjectShare["sharedWithPath"]>().toEqualTypeOf<pulumi.Output<string | null>>();
  });
  it("ProtectedBranch", () => {
    expectTypeOf<ProtectedBranch["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ProtectedBranch["name"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ProtectedBranch["pushAccessLevel"]>().toEqualTypeOf<pulumi.Output<RefAccessLevelName | number>>();
    expectTypeOf<ProtectedBranch["mergeAccessLevel"]>().toEqualTypeOf<pulumi.Output<RefAccessLevelName | number>>();
    expectTypeOf<ProtectedBranch["unprotectAccessLevel"]>().toEqualTypeOf<pulumi.Output<RefAccessLevelName | number>>();
    expectTypeOf<ProtectedBranch["allowForcePush"]>().toEqualTypeOf<pulumi.Output<boolean>>();
    expectTypeOf<ProtectedBranch["codeOwnerApprovalRequired"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<ProtectedBranch["usersAllowedToPush"]>().toEqualTypeOf<pulumi.Output<number[] | undefined>>();
    expectTypeOf<ProtectedBranch["groupsAllowedToMerge"]>().toEqualTypeOf<pulumi.Output<number[] | undefined>>();
    expectTypeOf<ProtectedBranch["protectedBranchId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ProtectedBranch["pushAccessLevels"]>().toEqualTypeOf<pulumi.Output<RefAccess[]>>();
  });
  it("ProtectedTag", () => {
    expectTypeOf<ProtectedTag["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ProtectedTag["name"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ProtectedTag["createAccessLevel"]>().toEqualTypeOf<pulumi.Output<RefAccessLevelName | number>>();
    expectTypeOf<ProtectedTag["createAccessLevels"]>().toEqualTypeOf<pulumi.Output<RefAccess[]>>();
  });
  it("ApprovalRule", () => {
    expectTypeOf<ApprovalRule["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ApprovalRule["name"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ApprovalRule["approvalsRequired"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ApprovalRule["userIds"]>().toEqualTypeOf<pulumi.Output<number[] | undefined>>();
    expectTypeOf<ApprovalRule["protectedBranchIds"]>().toEqualTypeOf<pulumi.Output<number[] | undefined>>();
    expectTypeOf<ApprovalRule["protectedBranches"]>().toEqualTypeOf<pulumi.Output<string[] | undefined>>();
    expectTypeOf<ApprovalRule["appliesToAllProtectedBranches"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<ApprovalRule["approvalRuleId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ApprovalRule["eligibleApprovers"]>().toEqualTypeOf<pulumi.Output<string[]>>();
  });
  it("DeployToken", () => {
    expectTypeOf<DeployToken["project"]>().toEqualTypeOf<pulumi.Output<string | number | undefined>>();
    expectTypeOf<DeployToken["group"]>().toEqualTypeOf<pulumi.Output<string | number | undefined>>();
    expectTypeOf<DeployToken["name"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<DeployToken["scopes"]>().toEqualTypeOf<pulumi.Output<("read_repository" | "read_registry" | "write_registry" | "read_package_registry" | "write_package_registry" | "read_virtual_registry" | "write_virtual_registry")[]>>();
    expectTypeOf<DeployToken["expiresAt"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<DeployToken["username"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<DeployToken["token"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<DeployToken["tokenId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<DeployToken["tokenUsername"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<DeployToken["expired"]>().toEqualTypeOf<pulumi.Output<boolean>>();
  });
  it("DeployKey", () => {
    expectTypeOf<DeployKey["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<DeployKey["title"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<DeployKey["key"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<DeployKey["canPush"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<DeployKey["expiresAt"]>().toEqualTypeOf<pulumi.Output<string | undefined>>();
    expectTypeOf<DeployKey["keyId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<DeployKey["fingerprintSha256"]>().toEqualTypeOf<pulumi.Output<string | null>>();
    expectTypeOf<DeployKey["createdAt"]>().toEqualTypeOf<pulumi.Output<string | null>>();
  });
  it("ProtectedEnvironment", () => {
    expectTypeOf<ProtectedEnvironment["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ProtectedEnvironment["name"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<ProtectedEnvironment["deployAccessLevels"]>().toEqualTypeOf<pulumi.Output<EnvironmentDeployEntry[]>>();
    expectTypeOf<ProtectedEnvironment["approvalRules"]>().toEqualTypeOf<pulumi.Output<EnvironmentApprovalEntry[] | undefined>>();
    expectTypeOf<ProtectedEnvironment["deployAccessLevelsOnServer"]>().toEqualTypeOf<pulumi.Output<DeployAccess[]>>();
    expectTypeOf<ProtectedEnvironment["approvalRulesOnServer"]>().toEqualTypeOf<pulumi.Output<EnvironmentApprovalRule[]>>();
    expectTypeOf<ProtectedEnvironment["requiredApprovalCount"]>().toEqualTypeOf<pulumi.Output<number>>();
  });
  it("GroupProtectedEnvironment", () => {
    expectTypeOf<GroupProtectedEnvironment["group"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<GroupProtectedEnvironment["name"]>().toEqualTypeOf<pulumi.Output<string>>();
    expectTypeOf<GroupProtectedEnvironment["deployAccessLevels"]>().toEqualTypeOf<pulumi.Output<EnvironmentDeployEntry[]>>();
  });
  it("ProjectApprovalSettings", () => {
    expectTypeOf<ProjectApprovalSettings["project"]>().toEqualTypeOf<pulumi.Output<string | number>>();
    expectTypeOf<ProjectApprovalSettings["resetApprovalsOnPush"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<ProjectApprovalSettings["requireReauthenticationToApprove"]>().toEqualTypeOf<pulumi.Output<boolean | undefined>>();
    expectTypeOf<ProjectApprovalSettings["projectId"]>().toEqualTypeOf<pulumi.Output<number>>();
    expectTypeOf<ProjectApprovalSettings["restoreValues"]>().toEqualTypeOf<pulumi.Output<Record<string, unknown>>>();
  });
});
