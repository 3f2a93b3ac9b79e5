/**
 * The registry-cleanup example with the real Pulumi CLI: the preview names the
 * tags a run would delete (`wouldDelete`), `up` has the server delete them
 * through the bulk endpoint, and the preview after is clean, before and after
 * the server's worker ran; tags that age past the rule show up in a later
 * preview as that rule's update; inside the server's hour a run is refused and
 * the up says so; destroy deletes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, type PlatformClient } from "pulumi-platform";
import { defaultSeed, type Emulator, type Seed } from "pulumi-platform/emulator";
import { startProgramUnderTest, stopProgramUnderTest } from "./program-under-test";
import { stepsByName, type PulumiProgram } from "../../scripts/pulumi-workspace.mts";

const HOUR = 3_600_000;
let now = Date.parse("2024-06-01T00:00:00.000Z");

function seed(): Seed {
  const seeded = structuredClone(defaultSeed) as Seed & { containerRegistry: any };
  seeded.containerRegistry.repositories["acme/web"][0].tags.push(
    { name: "feature-x", createdAt: "2024-05-20T10:00:00.000Z" },
    { name: "fix-y", createdAt: "2024-05-30T10:00:00.000Z" },
  );
  return seeded;
}

let emulator: Emulator;
let api: PlatformClient;
let program: PulumiProgram;
const API = "acme/web/api-server";

const tags = async (repository: number) =>
  (await api.list<{ name: string }>(apiPath`/projects/${"acme/web"}/registry/repositories/${repository}/tags`)).map((tag) => tag.name);
const wouldDeleteIn = (preview: Awaited<ReturnType<PulumiProgram["previewJson"]>>, name: string) =>
  stepsByName(preview)[name]?.newState?.inputs?.wouldDelete;

beforeAll(async () => {
  ({ emulator, api, program } = await startProgramUnderTest({ example: "registry-cleanup", emulator: { seed: seed(), clock: () => now }, config: { keepReleases: "2" } }));
}, 10 * 60_000);

afterAll(() => stopProgramUnderTest({ emulator, program }));

describe.sequential("registry cleanup rules through the real engine", { timeout: 5 * 60_000 }, () => {
  it("the first preview names the tags each rule would delete, and writes nothing", async () => {
    const before = emulator.requestLog.length;
    const preview = await program.previewJson();
    expect(wouldDeleteIn(preview, "api-releases")).toEqual([`${API}:v1.0.0`, `${API}:v1.1.0`, `${API}:v1.2.0`]);
    expect(wouldDeleteIn(preview, "branch-builds")).toEqual(["acme/web:feature-x"]);
    expect(emulator.requestLog.slice(before).filter((entry) => entry.method !== "GET")).toEqual([]);
    const text = (await program.preview("--diff")).stdout;
    expect(text).toContain("wouldDelete");
    expect(text).toContain(`"${API}:v1.2.0"`);
  });

  it("up has the server delete them; the preview after is clean before and after its worker ran", async () => {
    await program.up();
    expect(emulator.requestLog.filter((entry) => entry.method === "DELETE").map((entry) => entry.status)).toEqual([202, 202]);
    await program.preview("--expect-no-changes");
    emulator.runDueWork();
    expect(await tags(2)).not.toContain("v1.2.0");
    expect(await tags(2)).toContain("v1.3.0");
    expect(await tags(1)).toEqual(["fix-y", "latest", "main"]);
    await program.preview("--expect-no-changes");
  });

  it("a tag that ages past the rule is that rule's update in the next preview, named in wouldDelete", async () => {
    now += 10 * 24 * HOUR;
    const preview = await program.previewJson();
    const steps = stepsByName(preview);
    expect(steps["branch-builds"]?.op).toBe("update");
    expect(steps["api-releases"]?.op ?? "same").toBe("same");
    expect(wouldDeleteIn(preview, "branch-builds")).toEqual(["acme/web:fix-y"]);
    // Compared with what the last up left ([]), not with what it deleted: only the new tag is named.
    const text = (await program.preview("--diff")).stdout;
    expect(text).toMatch(/wouldDelete[\s\S]*\+ \[0\]: "acme\/web:fix-y"/);
    expect(text).not.toContain("feature-x");
    await program.up();
    emulator.runDueWork();
    expect(await tags(1)).toEqual(["latest", "main"]);
    await program.preview("--expect-no-changes");
  });

  it("inside the server's hour a second run is refused: up succeeds and says so; an hour later the rule runs", async () => {
    await program.setConfig("keepReleases", "1");
    await program.up();
    emulator.runDueWork();
    expect(await tags(2)).not.toContain("v1.3.0");
    await program.setConfig("keepReleases", "0");
    const refused = await program.up();
    expect(refused.stdout + refused.stderr).toContain("at most once an hour");
    expect(await tags(2)).toContain("v1.4.0");
    const outputs = JSON.parse((await program.cli(["stack", "output", "--json"])).stdout) as { refused: { releases: Record<string, string> } };
    expect(outputs.refused.releases[API]).toMatch(/at most once an hour/);
    expect(stepsByName(await program.previewJson())["api-releases"]?.op).toBe("update");
    now += HOUR;
    await program.up();
    emulator.runDueWork();
    expect(await tags(2)).not.toContain("v1.4.0");
    await program.preview("--expect-no-changes");
  });

  it("destroy deletes nothing on the server", async () => {
    const before = [await tags(1), await tags(2)];
    const start = emulator.requestLog.length;
    await program.destroy();
    emulator.runDueWork();
    expect(emulator.requestLog.slice(start).filter((entry) => entry.method !== "GET")).toEqual([]);
    expect([await tags(1), await tags(2)]).toEqual(before);
  });
});
