/**
 * Inputs only the server can judge: a group or project that does not exist
 * (or that the token's user cannot see), a role too low, a tier too low, a
 * feature flag off, an offering without the API. `check` passes them; the
 * create (or update) the engine then runs, as the seed user given, must fail
 * with a message that names the object and the missing requirement, with no
 * stack trace of ours and no secret.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { defaultSeed, type InstanceInfo } from "pulumi-platform/emulator";
import { sshPublicKey, useEmulator } from "../support";

const server = useEmulator();

type ResourceName = keyof typeof providers;

const WEBHOOK = "https://chat.example.test/hooks/refused-webhook-secret";
const TOKEN = "refused-token-secret";
const PASSWORD = "refused-password-secret";
const SECRETS = [WEBHOOK, TOKEN, PASSWORD];

const BADGE = { name: "pipeline", linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/%{project_path}/badge.svg" };
const SCHEDULE = { description: "Nightly", ref: "main", cron: "0 2 * * *", variables: [{ key: "DEPLOY_TOKEN", value: TOKEN }] };
const MERGE_REQUEST = { sourceBranch: "release/1.x", targetBranch: "main", title: "Release 1.x" };
const MATTERMOST = { slug: "mattermost", webhook: WEBHOOK };
const UPSTREAM = { name: "Docker Hub", url: "https://registry-1.docker.io", username: "puller", password: PASSWORD };

/** check (which must pass: only the server can judge these), then create, as `user`; the error it ends in. */
async function createAs(user: string, resource: ResourceName, inputs: Record<string, unknown>): Promise<Error> {
  await server.configureProviders(user);
  const checked = await providers[resource].check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  return providers[resource].create(checked.inputs).then(
    () => {
      throw new Error(`${resource} was created`);
    },
    (error: Error) => error,
  );
}

/** ExclusiveProjectMembers as `user`, after a refresh that recorded a member: the update that removes it, and the error it ends in. */
async function removeMembersAs(user: string, inputs: Record<string, unknown>): Promise<Error> {
  await server.configureProviders(user);
  const { inputs: checked } = await providers.ExclusiveProjectMembers.check({}, inputs);
  const { id, outs } = await providers.ExclusiveProjectMembers.create(checked);
  const { props } = await providers.ExclusiveProjectMembers.read(id, outs);
  expect((props!.unexpected as unknown[]).length).toBeGreaterThan(0);
  return providers.ExclusiveProjectMembers.update(id, props!, checked).then(
    () => {
      throw new Error("ExclusiveProjectMembers removed the members");
    },
    (error: Error) => error,
  );
}

/**
 * An exclusive set as `user`, after a refresh that recorded an object made by
 * the administrator: the update that removes it, and the error it ends in.
 */
async function removeAs(user: string, resource: ResourceName, inputs: Record<string, unknown>): Promise<Error> {
  await server.as().post(apiPath`/groups/${"acme"}/badges`, { name: "stray", link_url: "https://x.example.com", image_url: "https://x.example.com/b.svg" });
  await server.configureProviders(user);
  const { inputs: checked } = await providers[resource].check({}, inputs);
  const { id, outs } = await providers[resource].create(checked);
  const { props } = await providers[resource].read(id, outs);
  expect((props!.unexpected as unknown[]).length).toBeGreaterThan(0);
  return providers[resource].update(id, props!, checked).then(
    () => {
      throw new Error(`${resource} removed the objects`);
    },
    (error: Error) => error,
  );
}

/** The error names the object and the requirement, and carries no stack trace of ours and no secret. */
function expectExplained(error: Error, ...names: RegExp[]): void {
  for (const name of names) expect(error.message).toMatch(name);
  expect(error.stack ?? "").toBe("");
  expect(error.message).not.toMatch(/\n\s+at /);
  for (const secret of SECRETS) expect(error.message).not.toContain(secret);
}

/** Runs `action` with the instance changed by `change`, then puts the instance back. */
async function withInstance<T>(change: Partial<InstanceInfo>, action: () => Promise<T>): Promise<T> {
  const instance = server.emulator.state.instance;
  const saved = { ...instance };
  Object.assign(instance, change);
  try {
    return await action();
  } finally {
    Object.assign(instance, saved);
  }
}

const newRegistry = async (name: string) =>
  (await server.as().post<{ id: number }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`, { name })).id;

let registry = 0;
beforeAll(async () => {
  registry = await newRegistry("refusals");
});

afterAll(async () => {
  await server.configureProviders();
});

/** A token's inputs besides its owner: an expiry a month ahead on the real clock. */
const ACCESS_TOKEN = { name: "refused", scopes: ["read_api"], expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10) };

let refusals = 0;
afterAll(() => console.log(`refused by the server: ${refusals} cases, each naming the object and the requirement`));

/** One case: a title, and the attempt that must end in an explained error. */
type Refusal = [title: string, attempt: () => Promise<void>];

function refusedCases(cases: Refusal[]): void {
  for (const [title, attempt] of cases) {
    it(title, async () => {
      await attempt();
      refusals++;
    });
  }
}

describe("a group or project that does not exist, or that the token's user cannot see", () => {
  refusedCases([
    ["Badge on a missing project", async () => expectExplained(await createAs("root", "Badge", { project: "acme/nope", ...BADGE }), /project acme\/nope does not exist/)],
    ["Badge on a missing group", async () => expectExplained(await createAs("root", "Badge", { group: "nope", ...BADGE }), /group nope does not exist/)],
    ["GroupSettings of a missing group", async () => expectExplained(await createAs("root", "GroupSettings", { group: "nope", lfsEnabled: true }), /group nope does not exist/)],
    ["GroupSettings of a private group the user is not a member of", async () => expectExplained(await createAs("outsider", "GroupSettings", { group: "acme", lfsEnabled: true }), /group acme does not exist, or the token's user cannot see it/)],
    ["GroupIntegration on a missing group", async () => expectExplained(await createAs("root", "GroupIntegration", { group: "nope", ...MATTERMOST }), /group nope does not exist/)],
    ["SamlGroupLink on a missing group", async () => expectExplained(await createAs("alice", "SamlGroupLink", { group: "nope", samlGroupName: "devs", accessLevel: "developer" }), /group nope does not exist/)],
    ["PipelineSchedule in a missing project", async () => expectExplained(await createAs("root", "PipelineSchedule", { project: "acme/nope", ...SCHEDULE }), /project acme\/nope does not exist/)],
    ["VirtualRegistry in a missing group", async () => expectExplained(await createAs("root", "VirtualRegistry", { group: "nope", name: "containers" }), /group nope does not exist/)],
    ["Upstream in a missing registry", async () => expectExplained(await createAs("root", "Upstream", { registry: 99_999, ...UPSTREAM }), /virtual registry 99999/, /does not exist/)],
    ["CleanupPolicy of a missing group", async () => expectExplained(await createAs("alice", "CleanupPolicy", { group: "nope", cadence: 7 }), /group nope does not exist/)],
    ["ExclusiveBadges of a missing group", async () => expectExplained(await createAs("root", "ExclusiveBadges", { group: "nope", keep: [] }), /group nope does not exist/)],
    ["MergeRequest in a missing project", async () => expectExplained(await createAs("root", "MergeRequest", { project: "acme/nope", ...MERGE_REQUEST }), /project acme\/nope does not exist/)],
    ["ExclusivePipelineSchedules of a missing project", async () => expectExplained(await createAs("root", "ExclusivePipelineSchedules", { project: "acme/nope", keep: [] }), /project acme\/nope does not exist/)],
    ["ExclusiveGroupIntegrations of a private group the user is not a member of", async () => expectExplained(await createAs("outsider", "ExclusiveGroupIntegrations", { group: "acme", keep: [] }), /group acme does not exist, or the token's user cannot see it/)],
    ["ExclusiveUpstreams of a missing registry", async () => expectExplained(await createAs("root", "ExclusiveUpstreams", { registry: 99_999, keep: [] }), /virtual registry 99999/, /does not exist/)],
    ["ContainerRegistryVisibility of a missing project", async () => expectExplained(await createAs("root", "ContainerRegistryVisibility", { project: "acme/nope", accessLevel: "private" }), /project acme\/nope does not exist/)],
    ["ContainerRegistryVisibility of a private project the user is not a member of", async () => expectExplained(await createAs("outsider", "ContainerRegistryVisibility", { project: "acme/web", accessLevel: "private" }), /project acme\/web does not exist, or the token's user cannot see it/)],
    ["ErrorTrackingClientKey on a missing project", async () => expectExplained(await createAs("root", "ErrorTrackingClientKey", { project: "acme/nope" }), /project acme\/nope does not exist/)],
    ["EpicLink under a missing group", async () => expectExplained(await createAs("root", "EpicLink", { group: "nope", epicIid: 1, childEpicId: 5 }), /epic &1 of group nope does not exist/)],
    ["EpicLink under a missing parent epic", async () => expectExplained(await createAs("root", "EpicLink", { group: "acme", epicIid: 99, childEpicId: 5 }), /epic &99 of group acme does not exist/)],
    ["EpicLink in a private group the user is not a member of", async () => expectExplained(await createAs("outsider", "EpicLink", { group: "acme", epicIid: 1, childEpicId: 5 }), /epic &1 of group acme does not exist, or the token's user cannot see it/)],
    ["ProjectStar on a missing project", async () => expectExplained(await createAs("root", "ProjectStar", { project: "acme/nope" }), /project acme\/nope does not exist/)],
    // Starring needs no role, only that the user can see the project (every tier has it): a private project is hidden from non-members.
    ["ProjectStar on a private project the user is not a member of", async () => expectExplained(await createAs("outsider", "ProjectStar", { project: "acme/web" }), /project acme\/web does not exist, or the token's user cannot see it/)],
    ["SamlIdentity in a missing group", async () => expectExplained(await createAs("alice", "SamlIdentity", { group: "nope", user: 4, externUid: "dev@idp.example" }), /group nope does not exist/)],
    ["SamlIdentity of a member who never signed in with SAML", async () => expectExplained(await createAs("alice", "SamlIdentity", { group: "acme", user: "outsider", externUid: "x" }), /user outsider has no SAML identity in group acme: the member has not signed in with SAML yet/)],
    ["ProjectHook on a missing project", async () => expectExplained(await createAs("root", "ProjectHook", { project: "acme/nope", url: "https://ci.example.test/hooks" }), /project acme\/nope does not exist/)],
    ["GroupHook on a private group the user is not a member of", async () => expectExplained(await createAs("outsider", "GroupHook", { group: "acme", url: "https://ci.example.test/hooks" }), /group acme does not exist, or the token's user cannot see it/)],
    ["Label on a missing project", async () => expectExplained(await createAs("root", "Label", { project: "acme/nope", name: "bug", color: "red" }), /project acme\/nope does not exist/)],
    ["ExclusiveLabels of a missing group", async () => expectExplained(await createAs("root", "ExclusiveLabels", { group: "nope", keep: [] }), /group nope does not exist/)],
    ["Project in a missing group", async () => expectExplained(await createAs("root", "Project", { group: "nope", name: "Docs", path: "docs" }), /group nope does not exist/)],
    ["Project in a private group the user is not a member of", async () => expectExplained(await createAs("outsider", "Project", { group: "acme", name: "Docs", path: "docs" }), /group acme does not exist, or the token's user cannot see it/)],
    ["SamlIdentity of a member who never signed in with SAML", async () => expectExplained(await createAs("alice", "SamlIdentity", { group: "acme", user: "outsider", externUid: "x" }), /user outsider has no SAML identity in group acme: the member has not signed in with SAML yet/)],    ["ProtectedBranch in a missing project", async () => expectExplained(await createAs("root", "ProtectedBranch", { project: "acme/nope", name: "release/*" }), /project acme\/nope does not exist/)],
    ["ProtectedTag in a missing project", async () => expectExplained(await createAs("root", "ProtectedTag", { project: "acme/nope", name: "v*" }), /project acme\/nope does not exist/)],
    ["ApprovalRule in a missing project", async () => expectExplained(await createAs("root", "ApprovalRule", { project: "acme/nope", name: "review", approvalsRequired: 1 }), /project acme\/nope does not exist/)],
    ["ProtectedEnvironment in a missing project", async () => expectExplained(await createAs("root", "ProtectedEnvironment", { project: "acme/nope", name: "production", deployAccessLevels: [{ accessLevel: 40 }] }), /project acme\/nope does not exist/)],
    ["GroupProtectedEnvironment in a missing group", async () => expectExplained(await createAs("root", "GroupProtectedEnvironment", { group: "nope", name: "production", deployAccessLevels: [{ accessLevel: 40 }] }), /group nope does not exist/)],
    ["ProjectApprovalSettings of a missing project", async () => expectExplained(await createAs("root", "ProjectApprovalSettings", { project: "acme/nope", resetApprovalsOnPush: false }), /project acme\/nope does not exist/)],
  ]);
});

describe("a role too low", () => {
  refusedCases([
    ["a group Badge by a Developer (needs Owner)", async () => expectExplained(await createAs("dev", "Badge", { group: "acme", ...BADGE }), /the Owner role on group acme/)],
    ["a MergeRequest by a Guest (needs Developer)", async () => expectExplained(await createAs("guest", "MergeRequest", { project: "acme/web", ...MERGE_REQUEST }), /at least the Developer role on project acme\/web/)],
    ["a project Badge by a Guest (needs Maintainer)", async () => expectExplained(await createAs("guest", "Badge", { project: "acme/web", ...BADGE }), /at least the Maintainer role on project acme\/web/)],
    ["a ProjectVariable by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "ProjectVariable", { project: "acme/web", key: "BY_DEV", value: "v" }), /at least the Maintainer role on project acme\/web/)],
    ["a GroupVariable by a Maintainer (needs Owner)", async () => expectExplained(await createAs("maintainer", "GroupVariable", { group: "acme", key: "BY_MAINTAINER", value: "v" }), /the Owner role on group acme/)],
    ["GroupSettings by a Maintainer (needs Owner)", async () => expectExplained(await createAs("maintainer", "GroupSettings", { group: "acme", description: "changed" }), /the Owner role on group acme/)],
    ["a subgroup Group by a Developer (needs the parent's subgroup creation level)", async () => expectExplained(await createAs("dev", "Group", { parent: "acme", path: "refused-team", name: "Refused" }), /subgroup_creation_level names \(Maintainer, or Owner\)/, /group acme/)],
    ["GroupIntegration by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "GroupIntegration", { group: "acme", ...MATTERMOST }), /at least the Maintainer role on group acme/)],
    ["SamlGroupLink by a Maintainer (needs Owner)", async () => expectExplained(await createAs("maintainer", "SamlGroupLink", { group: "acme", samlGroupName: "devs", accessLevel: "developer" }), /group acme/, /Owner role/)],
    ["PipelineSchedule by a Guest (needs Developer)", async () => expectExplained(await createAs("guest", "PipelineSchedule", { project: "acme/web", ...SCHEDULE }), /at least the Developer role on project acme\/web/)],
    [
      "a PipelineSchedule update by a Developer who does not own it",
      async () => {
        await server.configureProviders("root");
        const checked = await providers.PipelineSchedule.check({}, { project: "acme/web", ...SCHEDULE, description: "Owned by root" });
        const created = await providers.PipelineSchedule.create(checked.inputs);
        await server.configureProviders("dev");
        const error = await providers.PipelineSchedule.update!(created.id, created.outs, { ...checked.inputs, cron: "0 3 * * *" }).then(
          () => new Error("updated"),
          (e: Error) => e,
        );
        expectExplained(error, /ownership of the schedule \(or the Maintainer role, with takeOwnership: true\) on project acme\/web/);
      },
    ],
    [
      "ApplicationSettings by a group Owner (needs an administrator)",
      () => withInstance({ offering: "self-managed" }, async () => expectExplained(await createAs("alice", "ApplicationSettings", { signupEnabled: false }), /administrator/, /the instance/)),
    ],
    ["VirtualRegistry by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "VirtualRegistry", { group: "acme", name: "containers" }), /at least the Maintainer role on group acme/)],
    ["Upstream by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "Upstream", { registry, ...UPSTREAM }), new RegExp(`at least the Maintainer role on the group of container virtual registry ${registry}`))],
    ["CleanupPolicy by a Maintainer (needs Owner)", async () => expectExplained(await createAs("maintainer", "CleanupPolicy", { group: "acme", cadence: 7 }), /the Owner role on group acme/)],
    ["ContainerRegistryVisibility by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "ContainerRegistryVisibility", { project: "acme/web", accessLevel: "disabled" }), /at least the Maintainer role on project acme\/web/)],
    [
      "ContainerRegistryCleanup by a Developer (reads the tags; the bulk deletion needs Maintainer)",
      async () =>
        expectExplained(
          await createAs("dev", "ContainerRegistryCleanup", { project: "acme/web", repository: "api-server", nameRegexDelete: "feature-.*" }),
          /at least the Maintainer role on registry repository "api-server" of project acme\/web/,
        ),
    ],
    ["ErrorTrackingClientKey by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "ErrorTrackingClientKey", { project: "acme/web" }), /at least the Maintainer role \(and a token with the api scope\) on project acme\/web/)],
    [
      "EpicLink by a Guest while epic_relations_for_non_members is off (needs Planner)",
      () =>
        withInstance({ featureFlags: { ...defaultSeed.instance?.featureFlags, epic_relations_for_non_members: false } }, async () =>
          expectExplained(await createAs("guest", "EpicLink", { group: "acme", epicIid: 1, childEpicId: 5 }), /403/, /the Planner role while the epic_relations_for_non_members flag is off.* on epic &1 of group acme/),
        ),
    ],
    ["ExclusiveGroupIntegrations by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "ExclusiveGroupIntegrations", { group: "acme", keep: [] }), /at least the Maintainer role on group acme/)],
    ["ExclusiveBadges removing a group badge by a Developer (needs Owner; refused at the update that removes it)", async () => expectExplained(await removeAs("dev", "ExclusiveBadges", { group: "acme", keep: [] }), /the Owner role on group acme/)],
    ["SamlIdentity by a Maintainer (needs Owner)", async () => expectExplained(await createAs("maintainer", "SamlIdentity", { group: "acme", user: "dev", externUid: "dev@idp.example" }), /the Owner role on group acme/)],
    ["ProjectHook by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "ProjectHook", { project: "acme/web", url: "https://ci.example.test/hooks" }), /at least the Maintainer role on project acme\/web/)],
    ["GroupHook by a Maintainer (needs Owner)", async () => expectExplained(await createAs("maintainer", "GroupHook", { group: "acme", url: "https://ci.example.test/hooks" }), /the Owner role, with the group on the Premium or Ultimate tier \(group webhooks\) on group acme/)],
    ["a group Label by a Guest (needs Planner)", async () => expectExplained(await createAs("guest", "Label", { group: "acme", name: "guest-label", color: "red" }), /at least the Planner role \(Reporter on servers without Planner\) on group acme/)],
    ["GroupMember by a Maintainer (needs Owner)", async () => expectExplained(await createAs("maintainer", "GroupMember", { group: "acme", user: "outsider", accessLevel: "guest" }), /the Owner role on group acme/)],
    ["ProjectMember by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "ProjectMember", { project: "acme/web", user: "outsider", accessLevel: "guest" }), /at least the Maintainer role on project acme\/web/)],
    ["a ProjectMember given the Owner role by a Maintainer (needs Owner)", async () => expectExplained(await createAs("maintainer", "ProjectMember", { project: "acme/web", user: "outsider", accessLevel: "owner" }), /the Owner role on project acme\/web/)],
    ["a GroupShare by a Maintainer (needs Owner)", async () => expectExplained(await createAs("maintainer", "GroupShare", { group: "acme", sharedWith: "beta", groupAccess: "guest" }), /the Owner role on group acme/)],
    ["a ProjectShare by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "ProjectShare", { project: "acme/web", sharedWith: "beta", groupAccess: "guest" }), /at least the Maintainer role on project acme\/web/)],
    ["ExclusiveProjectMembers removing a member by a Developer (needs Maintainer; refused at the update that removes it)", async () => {
      await server.as().post(apiPath`/projects/${"acme/web"}/members`, { username: "outsider", access_level: 10 });
      return expectExplained(await removeMembersAs("dev", { project: "acme/web", keep: [] }), /at least the Maintainer role on project acme\/web/);
    }],
    ["SamlIdentity by a Maintainer (needs Owner)", async () => expectExplained(await createAs("maintainer", "SamlIdentity", { group: "acme", user: "dev", externUid: "dev@idp.example" }), /the Owner role on group acme/)],    ["ProtectedBranch by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "ProtectedBranch", { project: "acme/web", name: "release/*" }), /at least the Maintainer role on project acme\/web/)],
    ["ProtectedTag by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "ProtectedTag", { project: "acme/web", name: "v*" }), /at least the Maintainer role on project acme\/web/)],
    ["ApprovalRule by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "ApprovalRule", { project: "acme/web", name: "review", approvalsRequired: 1 }), /at least the Maintainer role \(and the Premium or Ultimate tier\) on project acme\/web/)],
    ["GroupAccessToken by a Maintainer (needs Owner)", async () => expectExplained(await createAs("maintainer", "GroupAccessToken", { group: "acme", ...ACCESS_TOKEN }), /group access tokens of group acme/, /the Owner role/)],
    ["ProjectAccessToken by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "ProjectAccessToken", { project: "acme/web", ...ACCESS_TOKEN }), /project access tokens of project acme\/web/, /at least the Maintainer role/)],
    ["a group DeployToken by a Maintainer (needs Owner)", async () => expectExplained(await createAs("maintainer", "DeployToken", { group: "acme", name: "refused", scopes: ["read_registry"] }), /the Owner role on group acme/)],
    ["a project DeployToken by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "DeployToken", { project: "acme/web", name: "refused", scopes: ["read_repository"] }), /at least the Maintainer role on project acme\/web/)],
    ["DeployKey by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "DeployKey", { project: "acme/web", title: "refused", key: sshPublicKey() }), /at least the Maintainer role on project acme\/web/)],
    ["ProtectedEnvironment by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "ProtectedEnvironment", { project: "acme/web", name: "production", deployAccessLevels: [{ accessLevel: 40 }] }), /at least the Maintainer role \(and the Premium or Ultimate tier\) on project acme\/web/)],
    ["GroupProtectedEnvironment by a Maintainer (needs Owner)", async () => expectExplained(await createAs("maintainer", "GroupProtectedEnvironment", { group: "acme", name: "production", deployAccessLevels: [{ accessLevel: 40 }] }), /the Owner role \(and the Premium or Ultimate tier\) on group acme/)],
    ["ProjectApprovalSettings by a Developer (needs Maintainer)", async () => expectExplained(await createAs("dev", "ProjectApprovalSettings", { project: "acme/web", resetApprovalsOnPush: false }), /at least the Maintainer role \(and the Premium or Ultimate tier\) on project acme\/web/)],
    [
      "ProjectAccessToken with the Owner role by a Maintainer (a token's role may not be above its creator's)",
      async () =>
        expectExplained(await createAs("maintainer", "ProjectAccessToken", { project: "acme/web", ...ACCESS_TOKEN, accessLevel: "owner" }), /Access level of the token contains permissions not held by the creating user/),
    ],
  ]);
});

describe("a tier too low (beta is on the Free tier)", () => {
  refusedCases([
    ["a Premium group setting", async () => expectExplained(await createAs("alice", "GroupSettings", { group: "beta", membershipLock: true }), /group beta/, /membershipLock \(needs: Premium or Ultimate tier\)/)],
    ["an Ultimate group setting", async () => expectExplained(await createAs("alice", "GroupSettings", { group: "beta", autoBanUserOnExcessiveProjectsDownload: true }), /group beta/, /needs: Ultimate tier/)],
    ["SamlGroupLink (Premium)", async () => expectExplained(await createAs("alice", "SamlGroupLink", { group: "beta", samlGroupName: "devs", accessLevel: "developer" }), /group beta needs the Premium or Ultimate tier/)],
    ["VirtualRegistry (Premium)", async () => expectExplained(await createAs("alice", "VirtualRegistry", { group: "beta", name: "containers" }), /group beta needs the Premium or Ultimate tier and is below it/)],
    ["CleanupPolicy (Premium)", async () => expectExplained(await createAs("alice", "CleanupPolicy", { group: "beta", cadence: 7 }), /group beta needs the Premium or Ultimate tier and is below it, or feature flag maven_virtual_registry is off for group beta/)],
    ["EpicLink (Ultimate: multi-level epics)", async () => expectExplained(await createAs("alice", "EpicLink", { group: "beta", epicIid: 1, childEpicId: 5 }), /epic &1 of group beta/, /Ultimate tier \(multi-level epics\)/)],
    ["ExclusiveSamlGroupLinks (Premium)", async () => expectExplained(await createAs("alice", "ExclusiveSamlGroupLinks", { group: "beta", keep: [] }), /either group beta needs the Premium or Ultimate tier and is below it, or the token's user needs the Owner role on group beta and lacks it, or the server refused the token/)],
    ["SamlIdentity (Premium)", async () => expectExplained(await createAs("alice", "SamlIdentity", { group: "beta", user: "alice", externUid: "alice@idp.example" }), /group beta needs the Premium or Ultimate tier for group SAML SSO, and it is below it/)],
    ["GroupHook (Premium)", async () => expectExplained(await createAs("alice", "GroupHook", { group: "beta", url: "https://ci.example.test/hooks" }), /with the group on the Premium or Ultimate tier \(group webhooks\) on group beta/)],
    ["ApprovalRule (Premium)", async () => expectExplained(await createAs("alice", "ApprovalRule", { project: "beta/site", name: "review", approvalsRequired: 1 }), /project beta\/site/, /Premium or Ultimate/)],
    ["ProtectedEnvironment (Premium)", async () => expectExplained(await createAs("alice", "ProtectedEnvironment", { project: "beta/site", name: "production", deployAccessLevels: [{ accessLevel: 40 }] }), /project beta\/site/, /Premium or Ultimate/)],
    ["GroupProtectedEnvironment (Premium)", async () => expectExplained(await createAs("alice", "GroupProtectedEnvironment", { group: "beta", name: "production", deployAccessLevels: [{ accessLevel: 40 }] }), /group beta/, /Premium or Ultimate/)],
    ["ProjectApprovalSettings (Premium)", async () => expectExplained(await createAs("alice", "ProjectApprovalSettings", { project: "beta/site", resetApprovalsOnPush: false }), /project beta\/site/, /Premium or Ultimate/)],
    [
      "a Premium instance setting on a Free licence",
      () =>
        withInstance({ offering: "self-managed", tier: "free" }, async () =>
          expectExplained(await createAs("root", "ApplicationSettings", { disablePersonalAccessTokens: true }), /the instance needs the Premium or Ultimate tier for disablePersonalAccessTokens, and its licence is below it/),
        ),
    ],
  ]);
});

describe("a feature flag off", () => {
  const flagsOff = (...flags: string[]) => ({ featureFlags: { ...defaultSeed.instance?.featureFlags, ...Object.fromEntries(flags.map((flag) => [flag, false])) } });
  refusedCases([
    [
      "VirtualRegistry without container_virtual_registries",
      () =>
        withInstance(flagsOff("container_virtual_registries"), async () =>
          expectExplained(await createAs("alice", "VirtualRegistry", { group: "acme", name: "containers" }), /feature flag container_virtual_registries is off for group acme \(an administrator can enable it\)/),
        ),
    ],
    [
      "Upstream without container_virtual_registries",
      () =>
        withInstance(flagsOff("container_virtual_registries"), async () =>
          expectExplained(await createAs("alice", "Upstream", { registry, ...UPSTREAM }), new RegExp(`feature flag container_virtual_registries is off for the group of container virtual registry ${registry}`)),
        ),
    ],
    [
      "ExclusiveUpstreams without container_virtual_registries",
      () =>
        withInstance(flagsOff("container_virtual_registries"), async () =>
          expectExplained(await createAs("alice", "ExclusiveUpstreams", { registry, keep: [] }), new RegExp(`feature flag container_virtual_registries is off for the group of container virtual registry ${registry}`)),
        ),
    ],
    [
      "CleanupPolicy without maven_virtual_registry",
      () =>
        withInstance(flagsOff("maven_virtual_registry"), async () =>
          expectExplained(await createAs("alice", "CleanupPolicy", { group: "acme", cadence: 7 }), /feature flag maven_virtual_registry is off for group acme/),
        ),
    ],
  ]);
});

describe("an offering without the API", () => {
  refusedCases([
    [
      "ApplicationSettings on the hosted offering",
      () => withInstance({ offering: "hosted" }, async () => expectExplained(await createAs("root", "ApplicationSettings", { signupEnabled: false }), /404.*: this API exists only on self-managed and Dedicated instances, not on the hosted offering/)),
    ],
    [
      "SamlIdentity on a self-managed instance (the users API manages identities there)",
      () => withInstance({ offering: "self-managed", tier: "ultimate" }, async () => expectExplained(await createAs("alice", "SamlIdentity", { group: "acme", user: "dev", externUid: "dev@idp.example" }), /self-managed/, /through the users API/)),
    ],
  ]);
});
