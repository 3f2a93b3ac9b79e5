/**
 * Who may do what, with the real Pulumi CLI: the members example through the
 * end-to-end steps (see scenario.ts), its only-these set's removal of a
 * member added by hand named in the review before the apply; and what the
 * server would refuse, refused at preview with the reason: a role below the
 * one the user inherits (naming it and where it comes from), and every step a
 * Developer's token may not take (naming the role it needs), so nothing passes
 * the preview to fail at `up`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, type PlatformClient } from "pulumi-platform";
import { describeExample } from "./scenario";
import { startProgramUnderTest, stopProgramUnderTest, type ProgramUnderTest } from "./program-under-test";

interface LiveMember {
  username: string;
  access_level: number;
  expires_at: string | null;
}

const direct = async (api: PlatformClient, kind: "groups" | "projects", path: string) =>
  (await api.list<LiveMember>(kind === "groups" ? apiPath`/groups/${path}/members` : apiPath`/projects/${path}/members`))
    .filter((member) => !/_bot/.test(member.username))
    .map((member) => `${member.username} ${member.access_level}${member.expires_at ? ` until ${member.expires_at}` : ""}`)
    .sort();
const shares = async (api: PlatformClient) =>
  (await api.get<{ shared_with_groups: { group_full_path: string; group_access_level: number }[] }>(apiPath`/projects/${"acme/web"}`)).shared_with_groups
    .map((share) => `${share.group_full_path} ${share.group_access_level}`)
    .sort();

describeExample({
  example: "members",

  async snapshot({ api }) {
    // maintainer's membership of acme is the seed's, taken over: the program owns it from then on, and its destroy removes it.
    const acme = (await direct(api, "groups", "acme")).filter((member) => !member.startsWith("maintainer "));
    return { acme, web: await direct(api, "projects", "acme/web"), shares: await shares(api) };
  },

  async verifyAdopted({ api }) {
    expect((await direct(api, "groups", "acme")).filter((member) => member.startsWith("maintainer "))).toEqual(["maintainer 40"]);
  },

  async verifyCreated({ api }) {
    expect(await direct(api, "projects", "acme/web")).toEqual(["guest 40", "outsider 30 until 2027-06-30"]);
    expect(await shares(api)).toEqual(["beta 20"]);
    expect(await direct(api, "groups", "acme")).toContain("maintainer 40");
  },

  change: {
    config: { contractEnds: "2027-12-31" },
    expect: { contractor: { op: "update", changed: ["expiresAt"] } },
    async verify({ api }) {
      expect(await direct(api, "projects", "acme/web")).toContain("outsider 30 until 2027-12-31");
    },
  },

  drift: {
    async apply({ api }) {
      const guest = (await api.list<{ id: number; username: string }>(apiPath`/projects/${"acme/web"}/members`)).find((member) => member.username === "guest")!;
      await api.put(apiPath`/projects/${"acme/web"}/members/${guest.id}`, { access_level: 30 });
      const alice = (await api.list<{ id: number }>("/users", { username: "alice" }))[0]!;
      await api.post(apiPath`/projects/${"acme/web"}/members`, { user_id: alice.id, access_level: 50 });
    },
    expect: {
      "web-owner": { op: "update", changed: ["accessLevel"] },
      "only-these-members": { op: "update" },
    },
    reviewSays(report) {
      // Who gains or loses what, before the apply: guest back to Maintainer, alice's direct membership removed.
      expect(report).toMatch(/gives <code>guest<\/code> Maintainer on project <code>acme\/web<\/code>, was Developer/);
      expect(report).toMatch(/alice/);
      expect(report.indexOf("alice")).toBeLessThan(report.indexOf("guest"));
    },
    async verify({ api }) {
      expect(await direct(api, "projects", "acme/web")).toEqual(["guest 40", "outsider 30 until 2027-12-31"]);
    },
  },
});

describe("what the server would refuse is refused at preview, with the reason", { timeout: 5 * 60_000 }, () => {
  let started: ProgramUnderTest;
  beforeAll(async () => {
    started = await startProgramUnderTest({ programDir: "test/e2e/programs/access-refused" });
  }, 5 * 60_000);
  afterAll(() => stopProgramUnderTest(started ?? {}));

  it("a direct role below the inherited one names the inherited role and where it comes from", async () => {
    const preview = await started.program.cli(["preview"], { allowFailure: true });
    expect(preview.code).not.toBe(0);
    expect(preview.stdout).toMatch(/must be at least the inherited Developer from group acme/);
    expect(`${preview.stdout}${preview.stderr}`).not.toMatch(/\n\s+at /);
  });

  it("a Developer's token: each step it may not take is refused naming the role, and nothing is written", async () => {
    await started.program.setConfigs({ belowInherited: "false" }, { "platform:token": started.emulator.tokens.dev! });
    const before = await direct(started.api, "projects", "acme/web");
    const preview = await started.program.cli(["preview"], { allowFailure: true });
    expect(preview.code).not.toBe(0);
    expect(preview.stdout).toMatch(/contractor/);
    expect(preview.stdout).toMatch(/Maintainer/);
    expect(await direct(started.api, "projects", "acme/web")).toEqual(before);
  });
});
