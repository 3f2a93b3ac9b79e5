import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AccessLevel, startEmulator, stateFromSeed, type Seed, type SerializedState } from "../../src/emulator";
import { canReadGroup, groupAccessLevel, projectAccessLevel } from "../../src/emulator/access";
import { call, createBadge } from "./helpers";

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "emulator-state-"));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe("state file", () => {
  it("starts from the seed, saves after each change, and loads it back on the next start", async () => {
    const stateFile = join(directory, "state.json");
    const first = await startEmulator({ stateFile });
    const badge = await createBadge(first, "/projects/acme%2Fweb", { name: "persisted" });
    const saved = JSON.parse(readFileSync(stateFile, "utf8")) as SerializedState;
    expect(saved.format).toBe(1);
    expect(JSON.stringify(saved.stores)).toContain("persisted");
    await first.stop();

    const second = await startEmulator({ stateFile, seed: { users: [] } });
    try {
      const result = await call(second, `/projects/acme%2Fweb/badges/${badge.id}`);
      expect(result.status).toBe(200);
      expect(result.body).toEqual(badge);
      const next = await createBadge(second, "/projects/acme%2Fweb");
      expect(next.id).toBeGreaterThan(badge.id);
    } finally {
      await second.stop();
    }
  });

  it("does not write anything for reads", async () => {
    const stateFile = join(directory, "state.json");
    const emulator = await startEmulator({ stateFile });
    await call(emulator, "/projects/acme%2Fweb/badges");
    expect(existsSync(stateFile)).toBe(false);
    await emulator.stop();
    expect(existsSync(stateFile)).toBe(true);
  });
});

describe("seeds", () => {
  const seed: Seed = {
    instance: { offering: "self-managed", tier: "premium", host: "git.internal.test" },
    users: [
      { username: "ada", admin: true, token: "tok-ada" },
      { username: "bo", tokens: ["tok-bo-1", "tok-bo-2"] },
    ],
    groups: [
      { path: "top", visibility: "internal", members: { bo: 30 } },
      { path: "sub", parent: "top", members: { bo: 20 } },
    ],
    projects: [{ path: "app", namespace: "top/sub", members: { bo: 40 }, commitSha: null }],
  };

  it("loads a seed from a JSON file", async () => {
    const file = join(directory, "seed.json");
    writeFileSync(file, JSON.stringify(seed));
    const emulator = await startEmulator({ seed: file });
    try {
      expect(emulator.tokens).toEqual({ ada: "tok-ada", bo: "tok-bo-1" });
      const project = await call(emulator, "/projects/top%2Fsub%2Fapp", { token: "tok-bo-2" });
      expect(project.status).toBe(200);
      expect(project.body).toMatchObject({ web_url: "https://git.internal.test/top/sub/app", visibility: "private" });
    } finally {
      await emulator.stop();
    }
  });

  it("computes effective access as the highest of direct and inherited memberships", () => {
    const state = stateFromSeed(seed);
    const bo = state.userByUsername("bo")!;
    expect(groupAccessLevel(state, bo, state.groupByFullPath("top/sub")!)).toBe(AccessLevel.Developer);
    expect(projectAccessLevel(state, bo, state.projectByFullPath("top/sub/app")!)).toBe(AccessLevel.Maintainer);
  });

  it("lets a member of a project below a private group see that group, and no one else", () => {
    const state = stateFromSeed({
      users: [{ username: "pm" }, { username: "stranger" }],
      groups: [{ path: "secret" }, { path: "inner", parent: "secret" }, { path: "other" }],
      projects: [{ path: "p", namespace: "secret/inner", members: { pm: 30 } }],
    });
    const pm = state.userByUsername("pm")!;
    const stranger = state.userByUsername("stranger")!;
    expect(canReadGroup(state, pm, state.groupByFullPath("secret")!)).toBe(true);
    expect(canReadGroup(state, pm, state.groupByFullPath("secret/inner")!)).toBe(true);
    expect(canReadGroup(state, pm, state.groupByFullPath("other")!)).toBe(false);
    expect(canReadGroup(state, stranger, state.groupByFullPath("secret")!)).toBe(false);
    expect(groupAccessLevel(state, pm, state.groupByFullPath("secret")!)).toBe(0);
  });

  it("gives hosted top-level groups their own tier and subgroups their top-level group's", () => {
    const hosted = stateFromSeed({
      instance: { offering: "hosted", tier: "free" },
      groups: [{ path: "paid", tier: "ultimate" }, { path: "team", parent: "paid" }, { path: "plain" }],
    });
    expect(hosted.tierOf(hosted.groupByFullPath("paid/team")!)).toBe("ultimate");
    expect(hosted.tierOf(hosted.groupByFullPath("plain")!)).toBe("free");
    const selfManaged = stateFromSeed({ instance: { offering: "self-managed", tier: "premium" }, groups: [{ path: "g", tier: "ultimate" }] });
    expect(selfManaged.tierOf(selfManaged.groupByFullPath("g")!)).toBe("premium");
  });

  it("rejects dangling references and impossible visibility", () => {
    expect(() => stateFromSeed({ groups: [{ path: "g", members: { nobody: 50 } }] })).toThrow(/unknown member nobody/);
    expect(() => stateFromSeed({ groups: [{ path: "child", parent: "missing" }] })).toThrow(/unknown parent/);
    expect(() => stateFromSeed({ groups: [{ path: "g" }], projects: [{ path: "p", namespace: "g", visibility: "public" }] })).toThrow(
      /public but its parent group is private/,
    );
  });

  it("is deterministic: the same seed gives the same state", () => {
    expect(stateFromSeed(seed).toJSON()).toEqual(stateFromSeed(seed).toJSON());
  });
});
