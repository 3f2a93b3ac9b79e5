/**
 * The Output form's types: the compiler checks ./output-types/fixture.ts
 * (expectTypeOf assertions on getBadgeOutput, getBadgesOutput,
 * getPipelineScheduleOutput, getMergeRequestOutput, getApplicationSettingsOutput,
 * getMergeRequestRawDiffsOutput). vitest's config runs no typecheck tests, so
 * this runs `tsc` on the fixture and shows what it reports. Then the lifted
 * fields those types promise, read at run time against the emulator.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import { beforeAll, expect, it } from "vitest";
import { getBadgeOutput, getBadges, getBadgesOutput, getPipelineScheduleOutput, getPipelineSchedules } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

const tsc = require.resolve("typescript/bin/tsc");
const project = path.join(__dirname, "output-types", "tsconfig.json");

it("the Output form lifts the declared fields with their types (objects, lists, composed, nested)", () => {
  const run = spawnSync(process.execPath, [tsc, "-p", project], { encoding: "utf8" });
  expect({ status: run.status, output: `${run.stdout}${run.stderr}` }).toEqual({ status: 0, output: "" });
}, 120_000);

const seed: Seed = {
  ...defaultSeed,
  badges: { projects: { "acme/web": [{ name: "coverage", linkUrl: "https://ci.example.test/%{project_path}", imageUrl: "https://ci.example.test/coverage.svg" }] } },
  // A schedule that never ran: its last pipeline is null.
  pipelineSchedules: { "acme/web": [{ description: "Nightly build", ref: "main", cron: "0 2 * * *", owner: "maintainer" }] },
};
const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("maintainer");
});

const valueOf = <T>(output: pulumi.Output<T>) => new Promise<T>((resolve) => output.apply(resolve));

it("the lifted fields hold the values, nested ones too, and a field of a null object is undefined", async () => {
  const [badge] = await getBadges({ project: "acme/web" });
  expect(await valueOf(getBadgeOutput({ project: "acme/web", id: badge!.id }).renderedLinkUrl)).toBe("https://ci.example.test/acme/web");
  expect(await valueOf(getBadgesOutput({ project: "acme/web" })[0]!.name)).toBe("coverage");

  const [schedule] = await getPipelineSchedules({ project: "acme/web" });
  const output = getPipelineScheduleOutput({ project: "acme/web", scheduleId: schedule!.id });
  expect(await valueOf(output.owner.username)).toBe("maintainer");
  expect(await valueOf(output.apply((s) => s.lastPipeline))).toBeNull();
  expect(await valueOf(output.lastPipeline.status)).toBeUndefined();
});
