/**
 * ProjectApprovalSettings through the provider objects Pulumi calls, against
 * the emulator over HTTP: the takeover the preview shows, create, refresh
 * and drift, an update that adds and lets go of settings, delete giving the
 * prior values back, the deprecated name, and the preview's refusals.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, getProjectApprovalSettings, getProjectApprovalSettingsOutput, providers } from "pulumi-platform";
import { PlatformClient } from "../../src/client";
import { readEstate } from "../../src/import/read";
import { useEmulator } from "../support";

const server = useEmulator();
const settings = providers.ProjectApprovalSettings;
type Props = Record<string, unknown>;

const approvals = (project: string) => server.as().get<Props>(apiPath`/projects/${project}/approvals`);
const projectId = async (project: string) => (await server.as().get<{ id: number }>(apiPath`/projects/${project}`)).id;

async function create(inputs: Props) {
  const checked = await settings.check({}, inputs);
  expect(checked.failures ?? []).toEqual([]);
  const created = await settings.create(checked.inputs);
  return { id: created.id, inputs: checked.inputs as Props, outs: created.outs as Props };
}

beforeAll(async () => {
  await server.configureProviders("maintainer");
});

describe("life cycle", () => {
  it("the preview shows each setting it takes over with its value now; create writes only those; delete gives them back", async () => {
    const web = await projectId("acme/web");
    const declared = { project: "acme/web", resetApprovalsOnPush: false, mergeRequestsAuthorApproval: false, disableOverridingApproversPerMergeRequest: true };
    const checked = await server.verifyingAs("maintainer", () => settings.check({}, declared));
    expect(checked.failures ?? []).toEqual([]);
    expect((checked.inputs as Props).takeover).toEqual({ id: `projects/${web}`, overwrites: { resetApprovalsOnPush: true, disableOverridingApproversPerMergeRequest: false }, byNature: true });

    let created: Awaited<ReturnType<typeof settings.create>> | undefined;
    const requests = await server.requestsDuring(async () => {
      created = await settings.create(checked.inputs);
    });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /api/v4/projects/acme%2Fweb", `GET /api/v4/projects/${web}/approvals`, `POST /api/v4/projects/${web}/approvals`]);
    const outs = created!.outs as Props;
    expect(created!.id).toBe(`projects/${web}`);
    expect(outs).toMatchObject({ projectId: web, resetApprovalsOnPush: false, restoreValues: { resetApprovalsOnPush: true, mergeRequestsAuthorApproval: false, disableOverridingApproversPerMergeRequest: false } });
    expect(await approvals("acme/web")).toMatchObject({ reset_approvals_on_push: false, disable_overriding_approvers_per_merge_request: true });
    expect(await settings.diff(created!.id, outs, checked.inputs)).toMatchObject({ changes: false });

    const deleted = await server.requestsDuring(() => settings.delete(created!.id, outs));
    expect(deleted.map((r) => r.method)).toEqual(["POST"]);
    expect(await approvals("acme/web")).toMatchObject({ reset_approvals_on_push: true, disable_overriding_approvers_per_merge_request: false, merge_requests_author_approval: false });
  });

  it("a project that holds the declared values already: one read of each, no write", async () => {
    const requests = await server.requestsDuring(() => create({ project: "acme/api", resetApprovalsOnPush: true }));
    expect(requests.map((r) => r.method)).toEqual(["GET", "GET"]);
  });

  it("an update writes what changed, reads the prior value of a newly declared setting, and gives back one no longer declared", async () => {
    const first = await create({ project: "acme/web", mergeRequestsAuthorApproval: true });
    const changed = { project: "acme/web", mergeRequestsDisableCommittersApproval: true };
    expect(await settings.diff(first.id, first.outs, changed)).toMatchObject({ changes: true, replaces: [] });
    let outs: Props = {};
    const requests = await server.requestsDuring(async () => {
      outs = (await settings.update(first.id, first.outs, changed)).outs as Props;
    });
    expect(requests.map((r) => r.method)).toEqual(["GET", "GET", "POST"]);
    expect(outs.restoreValues).toEqual({ mergeRequestsDisableCommittersApproval: false });
    expect(await approvals("acme/web")).toMatchObject({ merge_requests_author_approval: false, merge_requests_disable_committers_approval: true });
    await settings.delete(first.id, outs);
    expect(await approvals("acme/web")).toMatchObject({ merge_requests_disable_committers_approval: false });
  });

  it("refresh reads a setting changed elsewhere as drift", async () => {
    const { id, inputs, outs } = await create({ project: "acme/web", requireReauthenticationToApprove: true });
    await server.as().post(apiPath`/projects/${"acme/web"}/approvals`, { require_reauthentication_to_approve: false });
    const read = await settings.read(id, outs);
    expect(read.props).toMatchObject({ requireReauthenticationToApprove: false, restoreValues: { requireReauthenticationToApprove: false } });
    expect(await settings.diff(id, read.props!, inputs)).toMatchObject({ changes: true });
    await settings.delete(id, read.props!);
  });

  it("the deprecated requirePasswordToApprove is written under both names and shows no change after", async () => {
    const { id, inputs, outs } = await create({ project: "acme/web", requirePasswordToApprove: true });
    expect(await approvals("acme/web")).toMatchObject({ require_password_to_approve: true, require_reauthentication_to_approve: true });
    expect(await settings.diff(id, outs, inputs)).toMatchObject({ changes: false });
    expect(await settings.diff(id, (await settings.read(id, outs)).props!, inputs)).toMatchObject({ changes: false });
    await settings.delete(id, outs);
    expect(await approvals("acme/web")).toMatchObject({ require_reauthentication_to_approve: false });
  });

  it("restoreOnDelete: false leaves the settings as they are, and sends nothing", async () => {
    const { id, outs } = await create({ project: "acme/web", disableOverridingApproversPerMergeRequest: true, restoreOnDelete: false });
    expect(await server.requestsDuring(() => settings.delete(id, outs))).toEqual([]);
    expect(await approvals("acme/web")).toMatchObject({ disable_overriding_approvers_per_merge_request: true });
    await server.as().post(apiPath`/projects/${"acme/web"}/approvals`, { disable_overriding_approvers_per_merge_request: false });
  });

  it("another project replaces the resource", async () => {
    const first = await create({ project: "acme/web", resetApprovalsOnPush: true });
    expect(await settings.diff(first.id, first.outs, { ...first.inputs, project: "acme/api" })).toMatchObject({ changes: true, replaces: ["project"] });
  });
});

describe("at preview", () => {
  const reasonsOf = async (declared: Props) => ((await settings.check({}, declared)).failures ?? []).map((failure) => failure.reason);

  it("bad input is refused naming the property, before any request", async () => {
    const requests = await server.requestsDuring(async () => {
      expect(await reasonsOf({ project: "acme/web", resetApprovalsOnPush: "yes" })).toEqual([expect.stringMatching(/^resetApprovalsOnPush: /)]);
      expect(await reasonsOf({ project: "acme/web", resetApprovalsOnPush: true, selectiveCodeOwnerRemovals: true })).toEqual([
        "selectiveCodeOwnerRemovals: can be true only while resetApprovalsOnPush is false",
      ]);
      expect((await reasonsOf({ project: "acme/web", requirePasswordToApprove: true, requireReauthenticationToApprove: true })).join("\n")).toMatch(/requirePasswordToApprove/);
    });
    expect(requests).toEqual([]);
  });

  it("a Developer is refused naming the Maintainer role; a Free project naming the tier", async () => {
    await server.verifyingAs("dev", async () => {
      expect((await reasonsOf({ project: "acme/web", resetApprovalsOnPush: false })).join("\n")).toMatch(/at least the Maintainer role .*on project acme\/web/);
    });
    await server.verifyingAs("alice", async () => {
      expect((await reasonsOf({ project: "beta/site", resetApprovalsOnPush: false })).join("\n")).toMatch(/Premium or Ultimate/);
    });
  });

  it("selective removals over a project that resets every approval: the server's refusal is explained at apply", async () => {
    const checked = await settings.check({}, { project: "acme/web", selectiveCodeOwnerRemovals: true });
    const error = await settings.create(checked.inputs).catch((caught: Error) => caught);
    expect((error as Error).message).toMatch(/selective_code_owner_removals.*can only be enabled when reset_approvals_on_push is disabled/);
  });
});

describe("import", () => {
  it("platform-import declares a Premium project's settings by its id, with their values now; a Free project's are left out, saying why", async () => {
    await server.as().post(apiPath`/projects/${"acme/api"}/approvals`, { merge_requests_author_approval: true });
    const client = new PlatformClient({ url: server.emulator.url, token: server.emulator.tokens.root!, retryBaseDelayMs: 10 });
    const estate = await readEstate(client, { projects: ["acme/api", "beta/site"], instance: false, exclusive: false });
    const declared = estate.declarations.filter((declaration) => declaration.kind === "ProjectApprovalSettings");
    const api = await projectId("acme/api");
    expect(declared.map((declaration) => declaration.importId)).toEqual([`projects/${api}`]);
    expect(declared[0]!.args).toMatchObject({ project: api, mergeRequestsAuthorApproval: true, resetApprovalsOnPush: true });
    expect(declared[0]!.args).not.toHaveProperty("requirePasswordToApprove");
    const checked = await settings.check({}, { ...declared[0]!.args, __import: declared[0]!.importId });
    expect(checked.failures ?? []).toEqual([]);
    const requests = await server.requestsDuring(() => settings.create(checked.inputs));
    // The id checked against the project's (its locate), then the settings recorded: reads only.
    expect(requests.map((request) => request.method)).toEqual(["GET", "GET", "GET", "GET"]);
    expect(JSON.stringify(estate.skipped.filter((skip) => JSON.stringify(skip).includes("approval settings")))).toMatch(/Premium or Ultimate/);
    await server.as().post(apiPath`/projects/${"acme/api"}/approvals`, { merge_requests_author_approval: false });
  });
});

describe("getProjectApprovalSettings", () => {
  it("a project's settings in camelCase, in one request; the Output form; an outsider of a private project is told it may not see it", async () => {
    const requests = await server.requestsDuring(async () => {
      expect(await getProjectApprovalSettings({ project: "acme/web" })).toMatchObject({ resetApprovalsOnPush: true, mergeRequestsAuthorApproval: false, requireReauthenticationToApprove: false, approvers: [] });
    });
    expect(requests.map((request) => request.path)).toEqual(["/api/v4/projects/acme%2Fweb/approvals"]);
    const reset = await new Promise<boolean>((resolve) => getProjectApprovalSettingsOutput({ project: "acme/web" }).apply((found) => resolve(found.resetApprovalsOnPush)));
    expect(reset).toBe(true);
    await server.actingAs("outsider", async () => {
      await expect(getProjectApprovalSettings({ project: "acme/web" })).rejects.toThrow(/project acme\/web/);
    });
  });
});
