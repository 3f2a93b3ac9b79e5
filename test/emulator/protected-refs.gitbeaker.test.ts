/**
 * Protected branches and tags driven by @gitbeaker/rest's `ProtectedBranches`
 * and `ProtectedTags`: protect (its query-string POST), show, list, edit an
 * access level by its id, unprotect; the answers decode into its types.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const server = useEmulator();
const api = () => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens.maintainer! });
const status = (error: unknown) => (error as { cause?: { response?: { status?: number } } }).cause?.response?.status;

describe("@gitbeaker/rest protected branches and tags", () => {
  it("protects a wildcard, shows and lists it, changes its merge level in place, and unprotects it", async () => {
    const made = await api().ProtectedBranches.protect("acme/web", "release/*", { pushAccessLevel: 0, mergeAccessLevel: 40, allowForcePush: false });
    expect(made).toMatchObject({ name: "release/*", push_access_levels: [{ access_level: 0 }], merge_access_levels: [{ access_level: 40 }] });
    expect((await api().ProtectedBranches.show("acme/web", "release/*")).id).toBe(made.id);
    expect((await api().ProtectedBranches.all("acme/web")).map((rule) => rule.name)).toEqual(["main", "release/*"]);
    const mergeId = made.merge_access_levels![0]!.id;
    const edited = await api().ProtectedBranches.edit("acme/web", "release/*", { allowedToMerge: [{ id: mergeId, accessLevel: 30 }] });
    expect(edited).toMatchObject({ id: made.id, merge_access_levels: [{ id: mergeId, access_level: 30 }] });
    await api().ProtectedBranches.unprotect("acme/web", "release/*");
    expect(status(await api().ProtectedBranches.show("acme/web", "release/*").catch((error: unknown) => error))).toBe(404);
  });

  it("protects a tag pattern with its create level, shows, lists and unprotects it", async () => {
    const made = await api().ProtectedTags.protect("acme/web", "v*", { createAccessLevel: 30 });
    expect(made).toMatchObject({ name: "v*", create_access_levels: [{ access_level: 30 }] });
    expect(await api().ProtectedTags.show("acme/web", "v*")).toEqual(made);
    expect(await api().ProtectedTags.all("acme/web")).toEqual([made]);
    await api().ProtectedTags.unprotect("acme/web", "v*");
    expect(status(await api().ProtectedTags.show("acme/web", "v*").catch((error: unknown) => error))).toBe(404);
  });
});
