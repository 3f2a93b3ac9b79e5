/**
 * What a resource costs the state, with the real Pulumi CLI (issue 16): the
 * engine rewrites the whole state after every step, so a large stack pays
 * each byte again at every later step. A badge held 9.1 KB in
 * `pulumi stack export` with release 0.1.0 (5.4 KB of it the SDK's
 * closure-serialized provider, in the inputs and the outputs); it must stay
 * within 4 KB. Bytes, not time: counted in the CLI's own output, with the
 * recorded source paths as in a user's project (scripts/state-size.mts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stateBytesByResource } from "../../scripts/state-size.mts";
import { startProgramUnderTest, stopProgramUnderTest, type ProgramUnderTest } from "./program-under-test";

const BADGE_STATE_LIMIT = 4_000;

let started: ProgramUnderTest;

beforeAll(async () => {
  started = await startProgramUnderTest({ example: "badges" });
}, 10 * 60_000);

afterAll(async () => {
  await stopProgramUnderTest(started ?? {});
});

describe.sequential("the state of the badges example", { timeout: 5 * 60_000 }, () => {
  it(`holds each badge in at most ${BADGE_STATE_LIMIT} bytes, with the small provider text and the program's line as its position`, async () => {
    const { program } = started;
    await program.up();
    const text = (await program.cli(["stack", "export"])).stdout;
    const badges = stateBytesByResource(text, { installedLayout: true }).filter((resource) => resource.type.endsWith(":Badge"));
    expect(badges.map((badge) => badge.urn.split("::").at(-1)).sort()).toEqual(["coverage", "docs", "pipeline"]);
    for (const badge of badges) expect(badge.bytes, `bytes of ${badge.urn}`).toBeLessThanOrEqual(BADGE_STATE_LIMIT);

    const resources = (await program.exportStack()).deployment.resources!.filter((resource) => resource.type.endsWith(":Badge"));
    for (const resource of resources) {
      for (const side of [resource.inputs!, resource.outputs!]) expect(String(side.__provider).length).toBeLessThan(400);
      // Where the program declares it (examples/badges/index.ts), not our class's file.
      expect((resource as { sourcePosition?: string }).sourcePosition).toMatch(/^project:\/\/\/index\.ts#\d+,\d+$/);
    }
    await program.destroy();
  });
});
