/**
 * A project's merge request approval settings (`/projects/:id/approvals`):
 * the answer, the rules of a change, and who may make it; and
 * @gitbeaker/rest's `MergeRequestApprovals` configuration calls driving the
 * same endpoints.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { defaultSeed } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

const WEB = "/projects/acme%2Fweb/approvals";
const server = useEmulator({ seed: defaultSeed });

describe("/projects/:id/approvals", () => {
  it("answers a new project's defaults, the deprecated fields included", async () => {
    const answer = await call(server.emulator, WEB, { as: "dev" });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      approvers: [],
      approver_groups: [],
      approvals_before_merge: 0,
      reset_approvals_on_push: true,
      selective_code_owner_removals: false,
      disable_overriding_approvers_per_merge_request: false,
      merge_requests_author_approval: false,
      merge_requests_disable_committers_approval: false,
      require_password_to_approve: false,
      require_reauthentication_to_approve: false,
    });
  });

  it("a change answers 201 with the settings; the newer reauthentication name wins over the deprecated one", async () => {
    const changed = await call(server.emulator, WEB, { as: "maintainer", method: "POST", body: { merge_requests_author_approval: true, require_password_to_approve: false, require_reauthentication_to_approve: true } });
    expect(changed.status).toBe(201);
    expect(changed.body).toMatchObject({ merge_requests_author_approval: true, require_password_to_approve: true, require_reauthentication_to_approve: true, reset_approvals_on_push: true });
    expect((await call(server.emulator, WEB, { as: "dev" })).body).toMatchObject({ merge_requests_author_approval: true, require_reauthentication_to_approve: true });
  });

  it("refuses no parameter, selective removals while every approval is reset, a Developer and a Free project", async () => {
    const none = await call(server.emulator, WEB, { as: "maintainer", method: "POST", body: {} });
    expect(none).toMatchObject({ status: 400, body: { error: expect.stringMatching(/are missing, at least one parameter must be provided$/) } });
    const selective = await call(server.emulator, WEB, { as: "maintainer", method: "POST", body: { selective_code_owner_removals: true } });
    expect(selective).toMatchObject({ status: 400, body: { message: { selective_code_owner_removals: ["can only be enabled when reset_approvals_on_push is disabled"] } } });
    const both = await call(server.emulator, WEB, { as: "maintainer", method: "POST", body: { selective_code_owner_removals: true, reset_approvals_on_push: false } });
    expect(both.status).toBe(201);
    expect((await call(server.emulator, WEB, { as: "dev", method: "POST", body: { reset_approvals_on_push: true } })).status).toBe(403);
    expect((await call(server.emulator, "/projects/beta%2Fsite/approvals", { as: "alice", method: "POST", body: { reset_approvals_on_push: false } })).status).toBe(403);
    expect((await call(server.emulator, "/projects/acme%2Fweb/approvals", { as: "outsider" })).status).toBe(404);
  });
});

describe("@gitbeaker/rest MergeRequestApprovals configuration", () => {
  it("shows and edits a project's configuration", async () => {
    const api = new Gitlab({ host: server.emulator.url, token: server.emulator.tokens["maintainer"]! });
    const edited = await api.MergeRequestApprovals.editConfiguration("acme/api", { disableOverridingApproversPerMergeRequest: true, mergeRequestsDisableCommittersApproval: true });
    expect(edited).toMatchObject({ disable_overriding_approvers_per_merge_request: true, merge_requests_disable_committers_approval: true });
    expect(await api.MergeRequestApprovals.showConfiguration("acme/api")).toMatchObject({ disable_overriding_approvers_per_merge_request: true, reset_approvals_on_push: true });
  });
});
