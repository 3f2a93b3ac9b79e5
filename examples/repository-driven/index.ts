/**
 * Settings that live in the project's own repository, read by the program
 * and fed into the objects it manages, so a reviewed commit is what changes
 * them:
 *
 * - the nightly pipeline schedule's timing and inputs come from a JSON file
 *   in the repository (`ci/nightly-schedule.json` by default), and its
 *   `release_version` input from the newest version in `CHANGELOG.md` (so
 *   committing a release's changelog is what moves the nightly to it);
 * - a release badge whose URLs carry the latest tag, so a new release shows
 *   in the preview as a change of that badge;
 * - a badge counting the changes waiting for the next release, from the
 *   changelog the platform generates since that tag (the commits'
 *   `Changelog:` trailers).
 *
 * Config (all optional): `project` (default acme/web), `branch` (default
 * main), `scheduleFile` (default ci/nightly-schedule.json), `changelogFile`
 * (default CHANGELOG.md), `nextVersion`
 * (default 1.5.0), `releaseDate` (the changelog's date, default
 * 2026-12-01T00:00:00Z: a fixed date keeps the notes, and so the previews,
 * the same from run to run). Needs the Maintainer role on the project.
 *
 * The schedule file:
 *
 *     { "description": "Nightly build", "cron": "0 2 * * *", "cronTimezone": "Europe/Berlin",
 *       "inputs": { "deploy_strategy": "rolling", "run_e2e": true } }
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge, PipelineSchedule, getRenderedBadgeOutput, getRepositoryBlobOutput, getRepositoryChangelogOutput } from "pulumi-platform";

const config = new pulumi.Config();
const project = config.get("project") ?? "acme/web";
const branch = config.get("branch") ?? "main";
const scheduleFile = config.get("scheduleFile") ?? "ci/nightly-schedule.json";
const changelogFile = config.get("changelogFile") ?? "CHANGELOG.md";
const nextVersion = config.get("nextVersion") ?? "1.5.0";
const releaseDate = config.get("releaseDate") ?? "2026-12-01T00:00:00Z";

type InputValue = string | number | boolean | (string | number | boolean)[];

interface ScheduleFile {
  description: string;
  cron: string;
  cronTimezone?: string;
  inputs?: Record<string, InputValue>;
}

/** The file's JSON, checked enough that a mistake in it names the file rather than failing somewhere below. */
function parseScheduleFile(text: string | null): ScheduleFile {
  const where = `${scheduleFile} at ${branch} of ${project}`;
  if (text === null) throw new Error(`${where} is not a text file`);
  let parsed: Partial<ScheduleFile>;
  try {
    parsed = JSON.parse(text) as Partial<ScheduleFile>;
  } catch (error) {
    throw new Error(`${where} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed.cron !== "string") throw new Error(`${where} needs a "cron" string`);
  return { description: parsed.description ?? "Nightly pipeline", cron: parsed.cron, cronTimezone: parsed.cronTimezone, inputs: parsed.inputs };
}

// The schedule, as the repository's branch says it should be.
const scheduleSettings = getRepositoryBlobOutput({ project, path: scheduleFile, ref: branch }).apply((blob) => parseScheduleFile(blob.text));

/** The newest version the changelog records: its first `## <version>` heading. */
const releasedVersion = getRepositoryBlobOutput({ project, path: changelogFile, ref: branch }).apply((blob) => {
  const heading = /^## (\S+)/m.exec(blob.text ?? "");
  if (!heading) throw new Error(`${changelogFile} at ${branch} of ${project} has no "## <version>" heading`);
  return heading[1]!;
});

const nightly = new PipelineSchedule("nightly", {
  project,
  ref: branch,
  description: scheduleSettings.description,
  cron: scheduleSettings.cron,
  cronTimezone: scheduleSettings.apply((settings) => settings.cronTimezone ?? "UTC"),
  inputs: pulumi.all([scheduleSettings, releasedVersion]).apply(([settings, version]) => [
    ...Object.entries(settings.inputs ?? {}).map(([name, value]) => ({ name, value })),
    { name: "release_version", value: version },
  ]),
});

// The latest tag as the platform itself resolves `%{latest_tag}` for a badge of this project. Written into the
// badge as a value rather than left as a placeholder: a new release then shows in the preview.
const latestTag = getRenderedBadgeOutput({
  project,
  linkUrl: "https://releases.example.com/%{latest_tag}",
  imageUrl: "https://img.shields.io/badge/release-%{latest_tag}-blue",
}).apply((rendered) => decodeURIComponent(new URL(rendered.renderedLinkUrl).pathname.slice(1)));

const shieldsText = (text: string) => encodeURIComponent(text.replaceAll("-", "--").replaceAll("_", "__"));

const release = new Badge("latest-release", {
  project,
  name: "release",
  linkUrl: pulumi.interpolate`https://releases.example.com/%{project_path}/-/tags/${latestTag}`,
  imageUrl: latestTag.apply((tag) => `https://img.shields.io/badge/release-${shieldsText(tag)}-blue`),
});

// What the next release would say: the changelog from the latest tag to the branch's head.
// A project with no tag yet: the platform's default start (the whole history up to the branch).
const changelog = getRepositoryChangelogOutput({ project, version: nextVersion, from: latestTag.apply((tag) => tag || undefined), to: branch, date: releaseDate });
/** Entries of the notes: one Markdown list item per commit with a trailer. */
const pendingChanges = changelog.apply(({ notes }) => notes.split("\n").filter((line) => line.startsWith("- ")).length);

const pending = new Badge("pending-changes", {
  project,
  name: "unreleased",
  linkUrl: pulumi.interpolate`https://releases.example.com/%{project_path}/-/compare/${latestTag}...%{default_branch}`,
  imageUrl: pendingChanges.apply((count) => `https://img.shields.io/badge/unreleased-${count}%20change${count === 1 ? "" : "s"}-orange`),
});

export const scheduleId = nightly.scheduleId;
export const scheduleCron = nightly.cron;
export const nightlyReleaseVersion = releasedVersion;
export const releaseTag = latestTag;
export const releaseBadgeId = release.badgeId;
export const pendingBadgeId = pending.badgeId;
export const releaseNotes = changelog.apply(({ notes }) => notes);
