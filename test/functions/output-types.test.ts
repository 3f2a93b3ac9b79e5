/**
 * The lifted fields the Output form's types promise (./output-types.test-d.ts,
 * compiled as a type test), read at run time against the emulator.
 */
import type * as pulumi from "@pulumi/pulumi";
import { beforeAll, expect, it } from "vitest";
import { getBadgeOutput, getBadges, getBadgesOutput, getPipelineScheduleOutput, getPipelineSchedules } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

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
