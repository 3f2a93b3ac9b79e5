/**
 * Protected environments driven by @gitbeaker/rest's
 * `ProjectProtectedEnvironments` and `GroupProtectedEnvironments`: create,
 * show, list, edit in place, remove; the answers decode into its types.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const server = useEmulator();
const api = (username = "maintainer") => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens[username]! });
const status = (error: unknown) => (error as { cause?: { response?: { status?: number } } }).cause?.response?.status;

describe("@gitbeaker/rest protected environments", () => {
  it("protects a project's environment, shows and lists it, changes an entry in place, and removes it", async () => {
    // The client puts the project into the path as given, unencoded: a numeric id.
    const web = (await api().Projects.show("acme/web")).id;
    const made = await api().ProjectProtectedEnvironments.create(web, "production", [{ accessLevel: 40 }], { approvalRules: [{ accessLevel: 40 }] });
    expect(made).toMatchObject({ name: "production", deploy_access_levels: [{ access_level: 40 }], approval_rules: [{ access_level: 40, required_approvals: 1 }] });
    expect(await api().ProjectProtectedEnvironments.show(web, "production")).toEqual(made);
    expect(await api().ProjectProtectedEnvironments.all(web)).toEqual([made]);
    const edited = await api().ProjectProtectedEnvironments.edit(web, "production", { deployAccessLevels: [{ accessLevel: 30 }] });
    expect(edited.deploy_access_levels).toMatchObject([{ access_level: 40 }, { access_level: 30 }]);
    await api().ProjectProtectedEnvironments.remove(web, "production");
    expect(status(await api().ProjectProtectedEnvironments.show(web, "production").catch((error: unknown) => error))).toBe(404);
  });

  it("protects a group's deployment tier as its Owner", async () => {
    const made = await api("alice").GroupProtectedEnvironments.create("acme", "staging", [{ accessLevel: 30 }]);
    expect(made).toMatchObject({ name: "staging", deploy_access_levels: [{ access_level: 30 }] });
    expect(await api("alice").GroupProtectedEnvironments.all("acme")).toEqual([made]);
    await api("alice").GroupProtectedEnvironments.remove("acme", "staging");
    expect(await api("alice").GroupProtectedEnvironments.all("acme")).toEqual([]);
  });
});
