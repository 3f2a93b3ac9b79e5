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
import { markdownOf, markerOf, NOTE_LIMIT } from "./markdown";
import { postNote, targetFromEnvironment } from "./post";
import { parsePreview } from "./preview";
import { differences, parseSummary, summaryOf } from "./summary";

const USAGE = `Usage: platform-review --preview <file> [options]
  --preview <file>        the output of \`pulumi preview --json\` ("-": standard input), or of
                          \`pulumi up --json\`: then the report of what the apply did
  --up <file>             the same as --preview, for the output of \`pulumi up --json\`
  --json <file>           also write the review as data (for --reviewed later)
  --reviewed <file>       the data of the reviewed preview: exit 3, naming each difference, when this one differs
  --stack <name>          the stack's name (default: read from the preview)
  --post                  put the report on the merge request: one note per stack, updated in place
  --url <url>             the server (default: CI_API_V4_URL, else PLATFORM_URL)
  --project <id|path>     the project (default: CI_PROJECT_ID)
  --merge-request <iid>   the merge request (default: CI_MERGE_REQUEST_IID)
  --max-chars <n>         the longest report (default ${NOTE_LIMIT}, the note limit; 65536 for a GitHub comment)
  --quiet                 write no report to stdout
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
    ...found.slice(0, 40).map((line) => `- ${line}`),
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
      stack: { type: "string" },
      post: { type: "boolean", default: false },
      url: { type: "string" },
      project: { type: "string" },
      "merge-request": { type: "string" },
      "max-chars": { type: "string" },
      quiet: { type: "boolean", default: false },
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
  const found = values.reviewed ? differences(parseSummary(readInput(values.reviewed)), review) : [];
  const applied = preview.applied === true;
  const notice = found.length > 0 ? guardLines(found) : undefined;
  const body = markdownOf(review, { stack, maxChars, context: contextLine(env, applied), applied, notice });

  if (values.json) writeFileSync(values.json, JSON.stringify(summaryOf(review, stack), null, 2) + "\n");
  if (!values.quiet) out(body);
  if (values.post) {
    const target = targetFromEnvironment(env, {
      url: values.url,
      project: values.project,
      mergeRequestIid: values["merge-request"] === undefined ? undefined : Number(values["merge-request"]),
    });
    if (typeof target === "string") throw new UsageError(target);
    try {
      const { action, noteId } = await postNote(target, markerOf(stack), body);
      process.stderr.write(`platform-review: ${action} note ${noteId} on merge request !${target.mergeRequestIid} of project ${target.project}\n`);
    } finally {
      await closeAllPools();
    }
  }
  if (found.length > 0) {
    process.stderr.write(`platform-review: the preview differs from the reviewed one:\n${found.map((line) => `  - ${line}`).join("\n")}\n`);
    return 3;
  }
  return review.ok ? 0 : 1;
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
