/**
 * The repository-driven example with the real Pulumi CLI: a nightly pipeline
 * schedule configured by a JSON file and the newest version of CHANGELOG.md in
 * acme/web's repository, a release badge carrying the latest tag, and a badge
 * counting the changes the changelog has pending since it. A release's
 * changelog committed through the API (`POST .../repository/changelog`, with
 * @gitbeaker/rest) shows in the next preview as exactly the one input it
 * moves; destroy leaves the project as it was.
 */
import { Gitlab } from "@gitbeaker/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { changedInputs, stepsByName } from "../../scripts/pulumi-workspace.mts";
import { startProgramUnderTest, stopProgramUnderTest, type ProgramUnderTest } from "./program-under-test";

const PROJECT = "acme/web";
const mia = { name: "Mia Maintainer", email: "maintainer@example.test" };
const dev = { name: "Dev Developer", email: "dev@example.test" };

const SCHEDULE_FILE = {
  description: "Nightly build and deploy",
  cron: "0 2 * * *",
  cronTimezone: "Europe/Berlin",
  inputs: { deploy_strategy: "rolling", run_e2e: true },
};
const CHANGELOG = "# Changelog\n\n## 1.4.0 (2024-05-01)\n\n### changed (1 change)\n\n- Rename the auth module to session\n\n## 1.3.0 (2024-02-15)\n\n### added (1 change)\n\n- Add the home page greeting\n";

// The default seed's acme/web history (releases v1.3.0 and v1.4.0), then the
// schedule file and the changelog, and two changes with trailers not yet released.
type RepositorySeeds = Record<string, { commits?: object[] } & Record<string, unknown>>;
const repositories = (defaultSeed as { repositories: RepositorySeeds }).repositories;
const seed = {
  ...defaultSeed,
  repositories: {
    ...repositories,
    [PROJECT]: {
      ...repositories[PROJECT],
      commits: [
        ...(repositories[PROJECT]!.commits ?? []),
        { message: "Configure the nightly from the repository", author: mia, date: "2024-05-02T10:00:00Z", files: { "ci/nightly-schedule.json": JSON.stringify(SCHEDULE_FILE, null, 2) + "\n", "CHANGELOG.md": CHANGELOG } },
        { message: "Add search", trailers: { Changelog: "added" }, author: dev, date: "2024-05-03T10:00:00Z", files: { "src/search.js": "export const search = () => [];\n" } },
        { message: "Fix the login redirect", trailers: { Changelog: "fixed" }, author: dev, date: "2024-05-04T10:00:00Z", files: { "src/session.js": "export function authenticate(user) {\n  return user !== undefined;\n}\n" } },
      ],
    },
  },
} as Seed;

interface LiveSchedule {
  id: number;
  description: string;
  cron: string;
  cron_timezone: string;
  inputs?: { name: string; value: unknown }[];
}
interface LiveBadge {
  id: number;
  name: string;
  link_url: string;
  image_url: string;
  kind: string;
}

let started: ProgramUnderTest;

/** What the example can touch: acme/web's schedules and its own badges. */
async function snapshot() {
  const schedules = await started.api.list<LiveSchedule>(apiPath`/projects/${PROJECT}/pipeline_schedules`);
  const badges = await started.api.list<LiveBadge>(apiPath`/projects/${PROJECT}/badges`);
  return {
    schedules: schedules.map((schedule) => `${schedule.id} ${schedule.description}`).sort(),
    badges: badges.filter((badge) => badge.kind === "project").map((badge) => `${badge.id} ${badge.name}`).sort(),
  };
}

async function nightly(): Promise<LiveSchedule> {
  const list = await started.api.list<LiveSchedule>(apiPath`/projects/${PROJECT}/pipeline_schedules`);
  const found = list.find((schedule) => schedule.description === SCHEDULE_FILE.description);
  expect(found, "the nightly schedule").toBeDefined();
  return started.api.get<LiveSchedule>(apiPath`/projects/${PROJECT}/pipeline_schedules/${found!.id}`);
}

const badgeNamed = async (name: string) => (await started.api.list<LiveBadge>(apiPath`/projects/${PROJECT}/badges`)).find((badge) => badge.name === name && badge.kind === "project");

let before: Awaited<ReturnType<typeof snapshot>>;

beforeAll(async () => {
  started = await startProgramUnderTest({ example: "repository-driven", emulator: { seed } });
  before = await snapshot();
}, 20 * 60_000);

afterAll(async () => {
  await stopProgramUnderTest(started ?? {});
});

describe.sequential("repository-driven example with the real Pulumi CLI", { timeout: 5 * 60_000 }, () => {
  it("up: the schedule as the repository's file and changelog say, the badges with the latest tag and the pending changes", async () => {
    await started.program.up();
    const schedule = await nightly();
    expect(schedule).toMatchObject({ cron: "0 2 * * *", cron_timezone: "Europe/Berlin" });
    expect(Object.fromEntries((schedule.inputs ?? []).map((input) => [input.name, input.value]))).toEqual({ deploy_strategy: "rolling", run_e2e: true, release_version: "1.4.0" });
    expect(await badgeNamed("release")).toMatchObject({ image_url: "https://img.shields.io/badge/release-v1.4.0-blue", link_url: "https://releases.example.com/%{project_path}/-/tags/v1.4.0" });
    // "Add search" and "Fix the login redirect": two entries since v1.4.0.
    expect((await badgeNamed("unreleased"))!.image_url).toBe("https://img.shields.io/badge/unreleased-2%20changes-orange");
    const outputs = JSON.parse((await started.program.cli(["stack", "output", "--json"])).stdout) as Record<string, string>;
    expect(outputs.releaseTag).toBe("v1.4.0");
    expect(outputs.releaseNotes).toMatch(/^## 1\.5\.0 \(2026-12-01\)/);
    expect(outputs.releaseNotes).toContain("Add search");
  });

  // The preview here changes nothing but the nightly's inputs: so it also shows that the first up left a clean stack.
  it("the release's changelog committed through the API moves exactly the schedule's release_version input", async () => {
    const gitlab = new Gitlab({ host: started.emulator.url, token: started.emulator.tokens.root! });
    await gitlab.Repositories.editChangelog(PROJECT, "1.5.0", { branch: "main", from: "v1.4.0", date: "2026-12-01T00:00:00Z" });
    const changelog = await started.api.get<{ content: string }>(apiPath`/projects/${PROJECT}/repository/blobs/${await blobOf("CHANGELOG.md")}`);
    expect(Buffer.from(changelog.content, "base64").toString("utf8")).toMatch(/^## 1\.5\.0/m);

    const preview = await started.program.previewJson();
    const steps = stepsByName(preview);
    expect(steps.nightly?.op).toBe("update");
    expect(changedInputs(steps.nightly!)).toEqual(["inputs"]);
    expect(preview.steps.filter((step) => step.op !== "same").map((step) => step.urn.split("::").at(-1))).toEqual(["nightly"]);

    await started.program.up();
    const inputs = Object.fromEntries(((await nightly()).inputs ?? []).map((input) => [input.name, input.value]));
    expect(inputs.release_version).toBe("1.5.0");
    await started.program.preview("--expect-no-changes");
  });

  it("destroy leaves the project's schedules and badges as they were", async () => {
    await started.program.destroy();
    expect(await snapshot()).toEqual(before);
  });
});

/** The blob SHA of a file at the root of acme/web's default branch. */
async function blobOf(name: string): Promise<string> {
  const entries = await started.api.list<{ id: string; name: string }>(apiPath`/projects/${PROJECT}/repository/tree`);
  const entry = entries.find((candidate) => candidate.name === name);
  expect(entry, name).toBeDefined();
  return entry!.id;
}
