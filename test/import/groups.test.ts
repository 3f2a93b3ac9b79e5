/**
 * platform-import --group of an estate with subgroups: each group below the
 * scope becomes a takeover of `Group` (under its parent, by the id its
 * import takes), the scope's own group stays `GroupSettings`, and each
 * declaration is what the Group resource reads of the group.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "../../src/client";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { readEstate } from "../../src/import/read";

let emulator: Emulator;
let api: PlatformClient;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  api = new PlatformClient({ url: emulator.url, token: emulator.tokens.root!, retryBaseDelayMs: 10 });
});

afterAll(async () => {
  await closeAllPools();
  await emulator?.stop();
});

describe("platform-import --group acme", () => {
  it("declares every subgroup, at any depth, as a takeover of Group under its parent", async () => {
    const platform = await api.get<{ id: number }>(apiPath`/groups/${"acme/platform"}`);
    const deep = await api.post<{ id: number }>("/groups", { name: "Deep", path: "deep", parent_id: platform.id, description: "made by hand" });
    const estate = await readEstate(api, { group: "acme", projects: [], instance: false, exclusive: false });
    const groups = estate.declarations.filter((declaration) => declaration.kind === "Group");
    // The parent is named by its own declaration's groupId where it has one, else by its id.
    const acme = await api.get<{ id: number }>(apiPath`/groups/${"acme"}`);
    expect(Object.fromEntries(groups.map((declaration) => [declaration.importId, [declaration.args.path, declaration.args.parent]]))).toEqual({
      [`groups/${deep.id}`]: ["deep", { reference: `Group groups/${platform.id}`, output: "groupId", value: platform.id }],
      [`groups/${platform.id}`]: ["platform", { reference: `Group groups/${acme.id}`, output: "groupId", value: acme.id }],
    });
    expect(groups.find((declaration) => declaration.args.path === "deep")!.args).toMatchObject({ name: "Deep", description: "made by hand", visibility: "private" });
    // The scope's own group is GroupSettings'; no subgroup is declared twice.
    expect(estate.declarations.filter((declaration) => declaration.kind === "GroupSettings").map((declaration) => declaration.owner.fullPath)).toEqual(["acme"]);
  });
});
