/**
 * `platform-review`: turns `pulumi preview --json` (or `pulumi up --json`)
 * into the report a reviewer reads in a merge request, writes it to stdout,
 * and optionally posts it as the stack's note, writes its data, and checks a
 * new preview against the one reviewed. Exit: 0 when the preview succeeded,
 * 1 when it failed, 2 for wrong usage, 3 when it differs from the review.
 */
import "../node-version"; // first: says what to do on a Node.js older than 22
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { closeAllPools } from "../client";
import { reviewOf, type Review } from "./changes";
import { code, markdownOf, markerOf, NOTE_LIMIT } from "./markdown";
import { type NoteTarget, postNote, reviewedNote, targetFromEnvironment } from "./post";
import { parsePreview } from "./preview";
import { dataComment, differences, parseSummary, summaryInNote, summaryOf } from "./summary";

const USAGE = `Usage: platform-review --preview <file> [options]
  --preview <file>        the output of \`pulumi preview --json\` ("-": standard input), or of
                          \`pulumi up --json\`: then the report of what the apply did
  --up <file>             the same as --preview, for the output of \`pulumi up --json\`
  --json <file>           also write the review as data (for --reviewed later)
  --reviewed <file>       the data of the reviewed preview: exit 3, naming each difference, when this one differs
  --check-reviewed        the same against the review posted on the merge request the commit being applied
                          came from (CI_COMMIT_SHA): the guard of an apply after the merge
  --stack <name>          the stack's name (default: read from the preview)
  --post                  put the report on the merge request (CI_MERGE_REQUEST_IID, or the one the commit came
                          from): one note per stack, updated in place; an apply's result in a note of its own
  --url <url>             the server (default: CI_API_V4_URL, else PLATFORM_URL)
  --project <id|path>     the project (default: CI_PROJECT_ID)
  --merge-request <iid>   the merge request (default: CI_MERGE_REQUEST_IID)
  --max-chars <n>         the longest report (default ${NOTE_LIMIT}, the note limit; 65536 for a GitHub comment)
  --quiet                 write no report to stdout
  --expect-no-changes     exit 1 when the preview changes or finds drift (a scheduled drift check)
The token for --post: PLATFORM_REVIEW_TOKEN, else PLATFORM_TOKEN.`;

class UsageError extends Error {}

function readInput(file: string): string {
  try {
    return readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** The stack's name from the first URN (`urn:pulumi:<stack>::<project>::...`). */
function stackOf(text: string): string | undefined {
  return /"urn:pulumi:([^:"]+)::/.exec(text)?.[1];
}

/** The line under the verdict: which commit and job, where the CI says. */
function contextLine(env: NodeJS.ProcessEnv, applied: boolean): string | undefined {
  const parts = [env.CI_COMMIT_SHORT_SHA && `commit ${env.CI_COMMIT_SHORT_SHA}`, env.CI_JOB_URL && `[job](${env.CI_JOB_URL})`].filter(Boolean);
  if (parts.length === 0) return undefined;
  return `${applied ? "Applied" : "Previewed"} at ${parts.join(", ")}.`;
}

function guardLines(found: string[]): string[] {
  return [
    "#### Stopped: this is not what was reviewed",
    "",
    "The preview taken before applying differs from the reviewed one; nothing was applied.",
    "",
    // Each difference names objects as the program does: shown as text, never as Markdown.
    ...found.slice(0, 40).map((line) => `- ${code(line)}`),
    ...(found.length > 40 ? [`- and ${found.length - 40} more`] : []),
    "",
  ];
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, out: (text: string) => void = (text) => process.stdout.write(text)): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      preview: { type: "string" },
      up: { type: "string" },
      json: { type: "string" },
      reviewed: { type: "string" },
      "check-reviewed": { type: "boolean", default: false },
      stack: { type: "string" },
      post: { type: "boolean", default: false },
      url: { type: "string" },
      project: { type: "string" },
      "merge-request": { type: "string" },
      "max-chars": { type: "string" },
      quiet: { type: "boolean", default: false },
      "expect-no-changes": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.help) {
    out(USAGE + "\n");
    return 0;
  }
  const source = values.preview ?? values.up;
  if (!source || (values.preview && values.up)) throw new UsageError("Give one of --preview <file> and --up <file>.");
  const maxChars = values["max-chars"] === undefined ? NOTE_LIMIT : Number(values["max-chars"]);
  if (!Number.isInteger(maxChars) || maxChars < 1000) throw new UsageError("--max-chars: must be a whole number of at least 1000");

  const text = readInput(source);
  const preview = parsePreview(text);
  const review: Review = reviewOf(preview);
  const stack = values.stack ?? stackOf(text);
  const applied = preview.applied === true;
  const summary = summaryOf(review, stack);
  if (values.json) writeFileSync(values.json, JSON.stringify(summary, null, 2) + "\n");

  const needsServer = values.post || values["check-reviewed"];
  const target = needsServer ? serverTarget(values, env) : undefined;
  try {
    const reviewedOn = values["check-reviewed"] ? await reviewOnMergeRequest(target!, env, stack) : undefined;
    if (target && reviewedOn) target.mergeRequestIid ??= reviewedOn.mergeRequestIid;
    const reviewed = values.reviewed ? parseSummary(readInput(values.reviewed)) : reviewedOn?.summary;
    const found = reviewed ? differences(reviewed, review) : [];
    const notice = found.length > 0 ? guardLines(found) : undefined;
    const result = applied || found.length > 0;
    // A review's note carries its data, which the apply's guard reads back; it counts towards the note's size.
    const data = result ? "" : `${dataComment(summary)}\n`;
    const report = markdownOf(review, { stack, maxChars: maxChars - data.length, context: contextLine(env, applied), applied, notice, result });
    if (!values.quiet) out(report);
    if (values.post) await post(target!, env, stack, result, report + data);
    if (found.length > 0) {
      process.stderr.write(`platform-review: the preview differs from the reviewed one:\n${found.map((line) => `  - ${line}`).join("\n")}\n`);
      return 3;
    }
    if (values["expect-no-changes"] && review.changes.length > 0) {
      process.stderr.write(`platform-review: ${review.changes.length} change${review.changes.length === 1 ? "" : "s"} where none was expected (see the report)\n`);
      return 1;
    }
    return review.ok ? 0 : 1;
  } finally {
    if (needsServer) await closeAllPools();
  }
}

type Values = Record<string, string | boolean | undefined>;

function serverTarget(values: Values, env: NodeJS.ProcessEnv): NoteTarget {
  const iid = values["merge-request"] === undefined ? undefined : Number(values["merge-request"]);
  const target = targetFromEnvironment(env, { url: values.url as string | undefined, project: values.project as string | undefined, mergeRequestIid: iid });
  if (typeof target === "string") throw new UsageError(target);
  return target;
}

/** The reviewed preview, from the note on the merge request the commit being applied came from. */
async function reviewOnMergeRequest(target: NoteTarget, env: NodeJS.ProcessEnv, stack: string | undefined) {
  const commit = env.CI_COMMIT_SHA;
  if (!commit) throw new UsageError("--check-reviewed needs the commit being applied (CI_COMMIT_SHA).");
  const found = await reviewedNote(target, commit, markerOf(stack));
  if (typeof found === "string") throw new Error(`Cannot check the apply against its review: ${found}.`);
  const summary = summaryInNote(found.body);
  if (!summary) throw new Error(`Cannot check the apply against its review: the review note on merge request !${found.mergeRequestIid} carries no data (it was written by another version).`);
  return { mergeRequestIid: found.mergeRequestIid, summary };
}

/** Posts the report: a preview's as the stack's review note, an apply's (or a stopped apply's) as its result note. */
async function post(target: NoteTarget, env: NodeJS.ProcessEnv, stack: string | undefined, result: boolean, body: string): Promise<void> {
  if (target.mergeRequestIid === undefined) {
    const commit = env.CI_COMMIT_SHA;
    if (!commit) throw new UsageError("--post needs the merge request (CI_MERGE_REQUEST_IID, or --merge-request), or the commit it came from (CI_COMMIT_SHA).");
    const found = await reviewedNote(target, commit, markerOf(stack));
    if (typeof found === "string") throw new Error(`Cannot post the report: ${found}.`);
    target.mergeRequestIid = found.mergeRequestIid;
  }
  const { action, noteId } = await postNote(target, markerOf(stack, result), body);
  process.stderr.write(`platform-review: ${action} note ${noteId} on merge request !${target.mergeRequestIid} of project ${target.project}\n`);
}

/** Runs the command as the bin does: the exit code, and a message with no stack for what the user can fix. */
export function run(): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS");
      process.stderr.write(`platform-review: ${(error as Error).message}\n${usage ? `\n${USAGE}\n` : ""}`);
      process.exitCode = usage ? 2 : 1;
    },
  );
}
