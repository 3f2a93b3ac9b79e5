/** The saml-group-links example through the end-to-end steps (see scenario.ts). */
import { afterAll, describe, expect, it } from "vitest";
import { apiPath, type PlatformClient } from "pulumi-platform";
import type { Emulator } from "pulumi-platform/emulator";
// From the build, like the emulator the scenario starts (a store is found by name in that emulator's state).
import { samlGroupLinkStore } from "../../dist/emulator/areas/saml/group-links";
import { startEmulator } from "pulumi-platform/emulator";
import { PulumiProgram } from "../../scripts/pulumi-workspace.mts";
import { describeExample } from "./scenario";

interface LiveLink {
  name: string;
  access_level: number;
  member_role_id?: number | null;
  provider: string | null;
}

const LINKS = apiPath`/groups/${"acme"}/saml_group_links`;

/** The links of acme as [name, access level, provider], sorted by name. */
const links = async (api: PlatformClient) =>
  (await api.get<LiveLink[]>(LINKS)).map((link) => [link.name, link.access_level, link.provider] as const).sort(([a], [b]) => a.localeCompare(b));

/** The server's record id of a link (the API does not show it): tells a link taken over from one made anew. */
const recordId = (emulator: Emulator, name: string) => samlGroupLinkStore.of(emulator.state).links.filter((link) => link.name === name).map((link) => link.id);

let handMadeId: number;

describeExample({
  example: "saml-group-links",
  // SAML group links need Premium or Ultimate (acme is Ultimate) and an Owner of the group: alice, not the administrator.
  user: "alice",

  async snapshot({ api }) {
    return { acme: await links(api) };
  },

  async prepare({ api, emulator }) {
    // A link an Owner made in the UI before the program existed; the program declares it with adoptExisting.
    await api.post(LINKS, { saml_group_name: "auditors", access_level: 20 });
    handMadeId = recordId(emulator, "auditors")[0]!;
  },

  async verifyCreated({ api }) {
    expect(await links(api)).toEqual([
      ["auditors", 20, null],
      ["platform-developers", 30, null],
      ["platform-leads", 40, null],
    ]);
  },

  async verifyAdopted({ api, emulator }) {
    // The link made by hand, neither duplicated nor deleted and made anew.
    expect((await links(api)).filter(([name]) => name === "auditors")).toEqual([["auditors", 20, null]]);
    expect(recordId(emulator, "auditors")).toEqual([handMadeId]);
  },

  change: {
    // The API has no update: a new role replaces the link (deleted first, since the new one has the same name and provider).
    config: { developerRole: "maintainer" },
    expect: {
      developers: { op: "replace", changed: ["accessLevel"] },
    },
    async verify({ api }) {
      expect(await links(api)).toEqual([
        ["auditors", 20, null],
        ["platform-developers", 40, null],
        ["platform-leads", 40, null],
      ]);
    },
  },

  drift: {
    async apply({ api }) {
      // An Owner "edits" the leads link in the UI (the API can only delete and create) and removes the developers link.
      await api.delete(apiPath`/groups/${"acme"}/saml_group_links/${"platform-leads"}`);
      await api.post(LINKS, { saml_group_name: "platform-leads", access_level: 30 });
      await api.delete(apiPath`/groups/${"acme"}/saml_group_links/${"platform-developers"}`);
    },
    expect: {
      leads: { op: "replace", changed: ["accessLevel"] },
      developers: { op: "create" },
    },
    async verify({ api }) {
      expect(await links(api)).toEqual([
        ["auditors", 20, null],
        ["platform-developers", 40, null],
        ["platform-leads", 40, null],
      ]);
    },
  },
});

describe("a link declared twice in one program (real CLI)", { timeout: 5 * 60_000 }, () => {
  let program: PulumiProgram | undefined;
  afterAll(() => program?.dispose());

  it("is refused at preview, naming both declarations, before any write", async () => {
    const emulator = await startEmulator({ port: 0 });
    try {
      program = await PulumiProgram.create({
        example: "saml-group-links",
        transpileOnly: true,
        config: { "platform:url": emulator.url, declareTwice: "true" },
        secrets: { "platform:token": emulator.tokens.alice! },
      });
      const requests = emulator.requestLog.length;
      const result = await program.cli(["preview"], { allowFailure: true });
      expect(result.code).not.toBe(0);
      const output = result.stdout + result.stderr;
      expect(output).toMatch(/SamlGroupLink "developers-again": samlGroupName: SamlGroupLink "developers" of this program already declares the link "platform-developers" of group acme without a provider/);
      expect(output).toMatch(/declare it once/);
      expect(output).not.toMatch(/adoptExisting: true to take it over/);
      // The other links' checks read the server (verification at preview); nothing is written.
      expect(emulator.requestLog.slice(requests).filter((request) => request.method !== "GET")).toEqual([]);
    } finally {
      await emulator.stop();
    }
  });
});
