/**
 * `platform-review`: turns `pulumi preview --json` (or `pulumi up --json`)
 * into the report a reviewer reads in a merge request, writes it to stdout,
 * and optionally posts it as the stack's note, writes its data, and checks a
 * new preview against the one reviewed. Exit: 0 when the preview succeeded,
 * 1 when it failed, 2 for wrong usage, 3 when it differs from the review.
 */
import "../node-version"; // first: says what to do on a Node.js older than 22
import { existsSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ReadLimitExceeded, readTextWithin } from "../bounded-read";
import { closeAllPools } from "../client";
import { notApplied, reviewOf, type Review } from "./changes";
import { code, type LeftOut, markdownOf, markerOf, NOTE_LIMIT, reportOf } from "./markdown";
import { EXIT, guardVerdict, type Reviewed, type Stop } from "./guard";
import { addNote, mergeRequestOfCommit, type NoteTarget, NotReviewed, postNote, reviewedNote, reviewNoteId, targetFromEnvironment, REVIEW_IN_FOLLOW_UP } from "./post";
import { type CodeChanges, codeChanges } from "./code-changes";
import { reportDrift } from "./drift";
import { type Diagnostic, isEngineEvents, keptEngineEvents, parsePreview, type PreviewOutput, stackOfPreview } from "./preview";
import { verifyDeletes } from "./verify-deletes";
import { dataComment, NoteRefused, parseSummary, type Rendering, renderingOf, reviewInNote, type Summary, summaryOf } from "./summary";

const USAGE = `Usage: platform-review --preview <file> [options]
  --preview <file>        the output of \`pulumi preview --json\` ("-": standard input): a review, never an apply's result
  --up <file>             the output of \`pulumi up --json\`: the report of what the apply did (its result note with --post)
  --scrubbed <file>       with --up: write its events without the SDK's debug events (which print secrets)
  --planned <file>        with --up: the preview the apply carried out (the guard's): what of it a failed apply did
                          not do is listed, and what to do next
  --verify-deletes        verify each delete of the preview against the server, as the engine verifies every other
                          step (the stack's config, else PLATFORM_URL and PLATFORM_TOKEN; its secrets read with
                          \`pulumi config\` in this directory), and add the refusals to the preview file as its errors;
                          with --check-reviewed, a refused delete stops the apply (exit 1)
  --code-changes <base>..<head>  the merge request's diff base and head commits: the report names the program's
                          code, dependencies and pipeline it changes (read with git in this directory), which run
                          with the write token at the apply
  --json <file>           also write the review as data (for --reviewed later)
  --reviewed <file>       the data of the reviewed preview: exit 3, naming each difference, when this one differs
  --check-reviewed        the same against the review token's note on the merge request merged into the commit
                          being applied (CI_COMMIT_SHA): the guard of an apply after the merge; with --post,
                          a stopped apply's note (a passing guard leaves the review's note as it is)
  --stack <name>          the stack's name (default: the stack's own resource in the preview)
  --post                  put the report on the merge request (CI_MERGE_REQUEST_IID, or the one the commit came
                          from): one note per stack, updated in place; an apply's result in a note of its own
  --url <url>             the server (default: CI_API_V4_URL, else PLATFORM_URL)
  --project <id|path>     the project (default: CI_PROJECT_ID)
  --merge-request <iid>   the merge request (default: CI_MERGE_REQUEST_IID)
  --max-chars <n>         the longest report (default ${NOTE_LIMIT}, the note limit; 65536 for a GitHub comment)
  --quiet                 write no report to stdout
  --expect-no-changes     exit 1 when the preview changes or finds drift (a scheduled drift check)
  --drift-issue           the scheduled drift check of \`pulumi preview --refresh --json\` on the default branch: keep
                          the stack's issue on the project (opened, rewritten in place, closed when the platform
                          matches again); exit 1 when something changed outside the program, not for changes merged
                          but not yet applied
The token for --post and --check-reviewed: PLATFORM_REVIEW_TOKEN, else PLATFORM_TOKEN. The guard trusts
only that token's user's note on the merge request merged into the commit.`;

class UsageError extends Error {}

/**
 * The most read of an input file (a preview, an apply's events, review data): a preview of 15,000
 * changes is about 100 MB (test/review/limits.test.ts), and a JavaScript string holds at most 512 MiB.
 */
export const MAX_INPUT_BYTES = 256 * 1024 * 1024;

/** An input file ("-": standard input), read up to MAX_INPUT_BYTES, whatever size the file claims (a link to /dev/zero claims 0). */
function readInput(file: string): string {
  try {
    return readTextWithin(file === "-" ? 0 : file, MAX_INPUT_BYTES, file === "-" ? "Standard input" : file);
  } catch (error) {
    if (error instanceof ReadLimitExceeded) throw new UsageError(error.message);
    throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * The report of a preview job that failed before its preview wrote the file (its `npm ci`, say):
 * a failed preview like any other, so that the merge request hears of it and no earlier push's
 * note stays up as the stack's review.
 */
function missingPreview(file: string): string {
  const message = `the preview wrote no ${file}: its job failed before the preview ran, and its log says why`;
  return JSON.stringify({ steps: [], diagnostics: [{ severity: "error", message }] });
}

/** What Pulumi accepts as a stack's name (its organisation and project apart). */
const STACK_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** The stack's name: --stack, else the engine's own record of it in the preview. */
function stackOf(values: { stack?: string }, preview: PreviewOutput): string | undefined {
  const recorded = stackOfPreview(preview);
  return values.stack ?? (recorded !== undefined && STACK_NAME.test(recorded) ? recorded : undefined);
}

/**
 * The credentials the command may hold (its tokens, the job's, each proxy header's value), so that no message
 * and no report prints one, even when a server echoes it.
 */
function tokensOf(env: NodeJS.ProcessEnv): string[] {
  const held = [env.PLATFORM_REVIEW_TOKEN, env.PLATFORM_TOKEN, env.PLATFORM_READ_TOKEN, env.CI_JOB_TOKEN, env.PLATFORM_CLIENT_KEY, ...headerValuesOf(env.PLATFORM_HEADERS)];
  return held.filter((token): token is string => !!token && token.trim().length >= 4);
}

/** Each value of a JSON object of headers (PLATFORM_HEADERS); the text itself when it is no such object. */
function headerValuesOf(headers: string | undefined): string[] {
  if (headers === undefined) return [];
  try {
    const parsed: unknown = JSON.parse(headers);
    if (parsed !== null && typeof parsed === "object") return [headers, ...Object.values(parsed).filter((value): value is string => typeof value === "string")];
  } catch {
    // Not JSON: the provider refuses it and sends nothing; masked as given.
  }
  return [headers];
}

/** The text with every token in it shown as `[secret]`. */
function masked(text: string, tokens: string[]): string {
  let result = text;
  for (const token of [...tokens].sort((a, b) => b.length - a.length)) result = result.split(token).join("[secret]");
  return result;
}

/** The line under the verdict: which commit and job, where the CI says. */
function contextLine(env: NodeJS.ProcessEnv, applied: boolean): string | undefined {
  const parts = [env.CI_COMMIT_SHORT_SHA && `commit ${env.CI_COMMIT_SHORT_SHA}`, env.CI_JOB_URL && `[job](${env.CI_JOB_URL})`].filter(Boolean);
  if (parts.length === 0) return undefined;
  return `${applied ? "Applied" : "Previewed"} at ${parts.join(", ")}.`;
}

/** Where an apply's result says the review it applied is: its note on the merged merge request. */
interface ReviewedAt {
  mergeRequestIid: number;
  webUrl?: string;
  noteId?: number;
}

const COMMIT = /^[0-9a-f]{7,64}$/;
/** A server's web_url that stands in a Markdown link as it is: no space, bracket, parenthesis or angle bracket. */
const LINKABLE = /^https?:\/\/[^\s()<>[\]"'`\\]+$/;

/**
 * The line under an apply's verdict: the commit applied (or not), its job, and
 * the review note it was held against, linked, so that each result note on
 * the merge request names what it applied and what allowed it.
 */
function resultContextLine(env: NodeJS.ProcessEnv, stopped: boolean, reviewedAt: ReviewedAt | undefined): string {
  const sha = env.CI_COMMIT_SHA && COMMIT.test(env.CI_COMMIT_SHA) ? env.CI_COMMIT_SHA : undefined;
  const job = env.CI_JOB_URL && LINKABLE.test(env.CI_JOB_URL) ? ` ([job](${env.CI_JOB_URL}))` : "";
  const what = `${stopped ? "Stopped before applying" : "Applied"} ${sha ? `commit \`${sha}\`` : "the commit"}${job}`;
  if (!reviewedAt?.noteId) return `${what}; no review note of this stack was found on the merge request.`;
  const name = `the review note ${reviewedAt.noteId} of !${reviewedAt.mergeRequestIid}`;
  const url = reviewedAt.webUrl && LINKABLE.test(reviewedAt.webUrl) ? `${reviewedAt.webUrl}#note_${reviewedAt.noteId}` : undefined;
  return `${what}, ${stopped ? "held against" : "as reviewed in"} ${url ? `[${name}](${url})` : name}.`;
}

const NEXT_AFTER_FAILED_APPLY =
  "Fix what the problems above name (the token's role on the owner, the object in the way), then run this stack's apply job again for the same commit " +
  "(retry the job, or run the default branch's pipeline again). Its guard accepts the reviewed plan less what the stack's state shows done, so it applies only what is listed as not applied; " +
  "no new review is needed unless the fix changes the program.";

/** A stopped apply's lines under its verdict: why, each reason as text, and what to do next. */
function stopLines(stop: Stop): string[] {
  return [
    `#### ${stop.heading}`,
    "",
    stop.lead,
    "",
    // Each reason names objects as the program does: shown as text, never as Markdown.
    ...stop.found.slice(0, 40).map((line) => `- ${code(line)}`),
    ...(stop.found.length > 40 ? [`- and ${stop.found.length - 40} more`] : []),
    "",
    `**What to do next:** ${stop.next[0]!.toUpperCase()}${stop.next.slice(1)}`,
    "",
  ];
}

/**
 * The report of a review and the data its note ends with: the data holds what
 * the report was rendered within (the note's limit less the data's own size),
 * so the guard renders the same report from it.
 */
function reviewNote(review: Review, rendering: Omit<Rendering, "max_chars">, maxChars: number): { report: string; data: string; summary: Summary } {
  let budget = maxChars;
  for (;;) {
    const summary = summaryOf(review, { ...rendering, max_chars: budget });
    const data = `${dataComment(summary)}\n`;
    if (budget + data.length <= maxChars) return { report: markdownOf(review, renderingOf(summary)), data, summary };
    budget = maxChars - data.length - 16;
    if (budget < MIN_REPORT_CHARS) {
      // Too large to carry its data: the report still says what the preview proposes, and that no apply can be checked against it.
      const notice = [
        `**Too large for the apply's guard:** the review's data takes ${data.length} characters, more than the note leaves beside the report; the apply after the merge will stop. Split the change into smaller merge requests.`,
        "",
      ];
      const whole = summaryOf(review, { ...rendering, max_chars: maxChars });
      return { report: markdownOf(review, { ...renderingOf(whole), notice }), data: "", summary: whole };
    }
  }
}

/** The least of a note a report is rendered within. */
const MIN_REPORT_CHARS = 1000;

/** The command's options, as `parseArgs` reads them. */
const OPTIONS = {
  preview: { type: "string" },
  up: { type: "string" },
  scrubbed: { type: "string" },
  json: { type: "string" },
  reviewed: { type: "string" },
  "check-reviewed": { type: "boolean", default: false },
  "verify-deletes": { type: "boolean", default: false },
  planned: { type: "string" },
  "code-changes": { type: "string" },
  stack: { type: "string" },
  post: { type: "boolean", default: false },
  url: { type: "string" },
  project: { type: "string" },
  "merge-request": { type: "string" },
  "max-chars": { type: "string" },
  quiet: { type: "boolean", default: false },
  "expect-no-changes": { type: "boolean", default: false },
  "drift-issue": { type: "boolean", default: false },
  help: { type: "boolean", default: false },
} as const;

const optionsOf = (argv: string[]) => parseArgs({ args: argv, options: OPTIONS, strict: true }).values;
type Options = ReturnType<typeof optionsOf>;

/**
 * The command: its exit status. `directory` is the job's working directory,
 * the checkout whose commits `--code-changes` names (in a CI job the shell's
 * own; `CI_PROJECT_DIR` is not the checkout under every runner).
 */
export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  out: (text: string) => void = (text) => process.stdout.write(text),
  directory: string = process.cwd(),
): Promise<number> {
  const tokens = tokensOf(env);
  try {
    return await review(argv, env, out, tokens, directory);
  } catch (error) {
    // A server may repeat a token in its answer; the message goes to a log anyone with the pipeline's access reads.
    if (error instanceof Error) error.message = masked(error.message, tokens);
    throw error;
  }
}

async function review(argv: string[], env: NodeJS.ProcessEnv, out: (text: string) => void, tokens: string[], directory: string): Promise<number> {
  const values = optionsOf(argv);
  if (values.help) {
    out(USAGE + "\n");
    return 0;
  }
  const source = values.preview ?? values.up;
  if (!source || (values.preview && values.up)) throw new UsageError("Give one of --preview <file> and --up <file>.");
  if (values.scrubbed && !values.up) throw new UsageError("--scrubbed: give --up <file>, the output of `pulumi up --json` it scrubs.");
  if (values.planned && !values.up) throw new UsageError("--planned: give --up <file>, the output of the `pulumi up --json` that carried the planned preview out.");
  if (values["verify-deletes"] && !values.preview) throw new UsageError("--verify-deletes: give --preview <file>, the output of `pulumi preview --json` whose deletes it verifies.");
  const maxChars = values["max-chars"] === undefined ? NOTE_LIMIT : Number(values["max-chars"]);
  if (!Number.isInteger(maxChars) || maxChars < 1000) throw new UsageError("--max-chars: must be a whole number of at least 1000");
  if (values.stack !== undefined && !STACK_NAME.test(values.stack)) throw new UsageError("--stack: a stack's name: letters, digits, `-`, `_` and `.`, at most 100");
  if (values["drift-issue"] && (values.post || values["check-reviewed"] || values.reviewed || values.up)) {
    throw new UsageError("--drift-issue: give it alone with --preview <file> (a drift check posts no note and guards no apply).");
  }

  if ((values["check-reviewed"] || values.reviewed) && !values.preview) throw new UsageError("--check-reviewed, --reviewed: give --preview <file>, the preview taken before the apply.");
  if (values["code-changes"] !== undefined && (!values.preview || values["check-reviewed"] || values.reviewed || values["drift-issue"])) {
    throw new UsageError("--code-changes: give it with --preview <file> in the merge request's report job, whose review it goes in.");
  }

  const reportOnly = values.preview !== undefined && values.post && !values["check-reviewed"] && !values.reviewed;
  const text = reportOnly && !existsSync(source) ? missingPreview(source) : masked(readInput(source), tokens);
  // What the file is follows from the option, never from the file: a branch's job writes the file a report job posts.
  if (values.preview && isEngineEvents(text)) {
    throw new UsageError("--preview: the file holds engine events (the output of `pulumi up --json`); a review is made of `pulumi preview --json` only, and an apply's result only with --up.");
  }
  if (values.up && !isEngineEvents(text)) throw new UsageError("--up: the file holds no engine events; give the output of `pulumi up --json`.");
  if (values.scrubbed) writeFileSync(values.scrubbed, keptEngineEvents(text));
  const preview = parsePreview(text);
  const needsServer = values.post || values["check-reviewed"] || values["drift-issue"] || values["verify-deletes"];
  try {
    const refusals = values["verify-deletes"] ? await deleteVerification(preview, source, text, tokens, env, stackOf(values, preview)) : [];
    const changed = values["code-changes"] === undefined ? undefined : await codeChanges(values["code-changes"], env, directory);
    return await reviewed(values, maxChars, env, out, tokens, preview, refusals, changed);
  } finally {
    if (needsServer) await closeAllPools();
  }
}

/**
 * The preview's deletes verified against the server (./verify-deletes.ts):
 * each refusal added to the preview's errors, and to the preview file itself
 * (not standard input), so that a report made from it later (the report job)
 * shows it; a verification that could not run is a warning. The refusals' messages.
 */
async function deleteVerification(preview: PreviewOutput, source: string, text: string, tokens: string[], env: NodeJS.ProcessEnv, stack: string | undefined): Promise<string[]> {
  const { refusals, unverified, secrets } = await verifyDeletes(preview, env, { stack });
  // A token read from the stack's config is masked as the environment's are, in this message and every later one.
  tokens.push(...secrets.filter((secret) => secret.trim().length >= 4));
  const added: Diagnostic[] = refusals.map((refusal) => ({ ...refusal, message: masked(refusal.message, tokens) }));
  if (unverified) added.push({ severity: "warning", message: `The deletes of this preview were not verified against the server (${masked(unverified, tokens)}); \`pulumi up\` will show the server's answer.` });
  if (added.length === 0) return [];
  preview.diagnostics = [...(preview.diagnostics ?? []), ...added];
  if (source !== "-") {
    const start = text.indexOf("{");
    const whole = JSON.parse(text.slice(start, text.lastIndexOf("}") + 1)) as { diagnostics?: unknown[] };
    whole.diagnostics = [...(whole.diagnostics ?? []), ...added];
    writeFileSync(source, JSON.stringify(whole, null, 4) + "\n");
  }
  return refusals.map((refusal) => refusal.message);
}

/** The report of a preview (or an apply), its note, and the guard's verdict on the apply: the exit status. */
async function reviewed(
  values: Options,
  maxChars: number,
  env: NodeJS.ProcessEnv,
  out: (text: string) => void,
  tokens: string[],
  preview: PreviewOutput,
  refusals: string[],
  changed: CodeChanges | undefined,
): Promise<number> {
  const review: Review = reviewOf(preview);
  const stack = stackOf(values, preview);
  const applied = preview.applied === true;
  const context = contextLine(env, applied);
  const target = values.post || values["check-reviewed"] || values["drift-issue"] ? serverTarget(values, env) : undefined;
  const write = (line: string) => process.stderr.write(masked(line, tokens));
  if (values["drift-issue"]) {
    const drift = await reportDrift(target!, review, { stack, context });
    if (!values.quiet) out(markdownOf(review, { stack, context, maxChars }));
    const where = drift.issue ? ` issue #${drift.issue.iid} of project ${target!.project}` : "";
    write(`platform-review: ${drift.action === "none" ? "no drift, no issue open" : `${drift.action}${where}`}\n`);
    if (drift.found.outside.length > 0) write(`platform-review: ${drift.found.outside.length} changed outside the program (see the issue)\n`);
    if (drift.found.pending.length > 0) write(`platform-review: ${drift.found.pending.length} merged but not yet applied (reported, not a failure)\n`);
    return drift.code;
  }
  let reviewedAt: ReviewedAt | undefined;
  let stop: Stop | undefined;
  if (values["check-reviewed"] || values.reviewed) {
    let evidence: Reviewed;
    if (values.reviewed) {
      const summary = parseSummary(readInput(values.reviewed));
      evidence = { summary, leftOut: reportOf(summary, renderingOf(summary)).leftOut };
    }
    else {
      try {
        const onMergeRequest = await reviewOnMergeRequest(target!, env, stack);
        reviewedAt = onMergeRequest;
        target!.mergeRequestIid ??= onMergeRequest.mergeRequestIid;
        evidence = { summary: onMergeRequest.summary, leftOut: onMergeRequest.leftOut };
      } catch (error) {
        if (!(error instanceof NotReviewed)) throw error;
        evidence = { missing: error.message, next: error.next };
      }
    }
    // A delete the server would refuse stops an apply (--check-reviewed); a preview job's refusals are its errors already.
    const verdict = guardVerdict({ reviewed: evidence, now: preview, proposed: review.changes, refusedDeletes: values["check-reviewed"] ? refusals : [] });
    if (verdict.accepted) for (const line of verdict.log) write(`platform-review: ${line}\n`);
    else stop = verdict;
  }
  const result = applied || stop !== undefined;
  // A result note names the review it was held against: found by the guard, or (the apply's own run) looked up now.
  if (result && values.post && !reviewedAt) reviewedAt = await reviewOfResult(target!, env, stack);
  const resultContext = result && values.post ? resultContextLine(env, stop !== undefined, reviewedAt) : context;
  const planned = applied && values.planned ? reviewOf(parsePlanned(masked(readInput(values.planned), tokens))) : undefined;
  const left = planned ? notApplied(planned.changes, review.changes) : [];
  const failedApply = applied && !review.ok;
  const resultOptions = { notApplied: { changes: left, failed: preview.failed ?? [] }, next: failedApply ? NEXT_AFTER_FAILED_APPLY : undefined };
  // A result note is history for people, and carries no data: nothing reads it as evidence of what an apply did.
  const note = result
    ? {
        report: markdownOf(review, { stack, maxChars, context: resultContext, applied, notice: stop ? stopLines(stop) : undefined, result, ...resultOptions }),
        data: "",
        summary: summaryOf(review, { stack, context: resultContext, max_chars: maxChars }),
      }
    : reviewNote(review, { stack, context, ...(changed ? { code_changes: changed } : {}) }, maxChars);
  if (values.json) writeFileSync(values.json, JSON.stringify(note.summary, null, 2) + "\n");
  if (!values.quiet) out(note.report);
  // A guard that passes leaves the review's note as its reviewers read it; one that stops says why in a note of its own.
  if (values.post && (result || !values["check-reviewed"])) await post(target!, env, stack, result, note.report + note.data);
  if (stop) {
    write(`platform-review: ${stop.summary}:\n${stop.found.map((line) => `  - ${line}`).join("\n")}\nplatform-review: what to do next: ${stop.next}\n`);
    return stop.exitCode;
  }
  if (failedApply) {
    const counts = `${review.changes.filter((change) => change.kind !== "drift").length} applied${planned ? `, ${left.length} not applied` : ""}`;
    write(`platform-review: the apply failed part way (${counts}); what to do next: ${NEXT_AFTER_FAILED_APPLY}\n`);
  }
  if (values["expect-no-changes"] && review.changes.length > 0) {
    write(`platform-review: ${review.changes.length} change${review.changes.length === 1 ? "" : "s"} where none was expected (see the report)\n`);
    return EXIT.failed;
  }
  return review.ok ? EXIT.ok : EXIT.failed;
}

/** The preview an apply carried out (--planned): a preview's JSON, never events. */
function parsePlanned(text: string): PreviewOutput {
  if (isEngineEvents(text)) throw new UsageError("--planned: the file holds engine events; give the preview the apply carried out (`pulumi preview --json`).");
  return parsePreview(text);
}

type Values = Record<string, string | boolean | undefined>;

function serverTarget(values: Values, env: NodeJS.ProcessEnv): NoteTarget {
  const iid = values["merge-request"] === undefined ? undefined : Number(values["merge-request"]);
  const target = targetFromEnvironment(env, { url: values.url as string | undefined, project: values.project as string | undefined, mergeRequestIid: iid });
  if (typeof target === "string") throw new UsageError(target);
  return target;
}

/**
 * The reviewed preview: the review token's own note on the merge request that
 * brought the commit being applied, its data read from the note's last line,
 * and its report rendered again from that data: a note whose text is not what
 * its data renders was edited (or forged), and what its reader saw is unknown.
 */
async function reviewOnMergeRequest(target: NoteTarget, env: NodeJS.ProcessEnv, stack: string | undefined): Promise<ReviewedAt & { summary: Summary; leftOut: LeftOut }> {
  const commit = env.CI_COMMIT_SHA;
  if (!commit) throw new UsageError("--check-reviewed needs the commit being applied (CI_COMMIT_SHA).");
  const found = await reviewedNote(target, commit, markerOf(stack), env.CI_COMMIT_BRANCH || undefined);
  const where = `the review note ${found.noteId} on merge request !${found.mergeRequestIid}`;
  let read: ReturnType<typeof reviewInNote>;
  try {
    read = reviewInNote(found.body);
  } catch (error) {
    if (error instanceof NoteRefused) throw new NotReviewed(`${where} cannot stand as the review: ${error.message}`, REVIEW_IN_FOLLOW_UP);
    throw error;
  }
  const rendered = reportOf(read.summary, renderingOf(read.summary));
  if (rendered.text !== read.report || (read.summary.stack ?? "") !== (stack ?? "")) {
    throw new NotReviewed(
      `${where} was edited, or is not the tool's: its text is not what its data renders, so what its reader saw is not what it says was reviewed ` +
        "(a note another version of platform-review wrote renders otherwise too)",
      REVIEW_IN_FOLLOW_UP,
    );
  }
  return { mergeRequestIid: found.mergeRequestIid, webUrl: found.webUrl, noteId: found.noteId, summary: read.summary, leftOut: rendered.leftOut };
}

/**
 * The merge request a report goes on: the one given (CI_MERGE_REQUEST_IID or
 * --merge-request), else the one that brought the commit (CI_COMMIT_SHA), set
 * on the target; `none` says why there is none (a commit no merged merge
 * request brought: nothing is posted, and the log has the report).
 */
async function findMergeRequest(target: NoteTarget, env: NodeJS.ProcessEnv): Promise<{ webUrl?: string; none?: string }> {
  if (target.mergeRequestIid !== undefined) return {};
  const commit = env.CI_COMMIT_SHA;
  if (!commit) throw new UsageError("--post needs the merge request (CI_MERGE_REQUEST_IID, or --merge-request), or the commit it came from (CI_COMMIT_SHA).");
  try {
    const request = await mergeRequestOfCommit(target, commit, env.CI_COMMIT_BRANCH || undefined);
    target.mergeRequestIid = request.iid;
    return { webUrl: request.web_url };
  } catch (error) {
    if (error instanceof NotReviewed) return { none: error.message };
    throw error;
  }
}

/** The review an apply's result names: the stack's review note on the merge request the result goes on. */
async function reviewOfResult(target: NoteTarget, env: NodeJS.ProcessEnv, stack: string | undefined): Promise<ReviewedAt | undefined> {
  const found = await findMergeRequest(target, env);
  if (found.none !== undefined) return undefined;
  return { mergeRequestIid: target.mergeRequestIid!, webUrl: found.webUrl, noteId: await reviewNoteId(target, markerOf(stack)) };
}

/**
 * Posts the report: a preview's as the stack's review note, rewritten in place
 * while the merge request is open; an apply's result, or a stopped apply, as a
 * note of its own that nothing rewrites (the merge request's history).
 */
async function post(target: NoteTarget, env: NodeJS.ProcessEnv, stack: string | undefined, result: boolean, body: string): Promise<void> {
  const found = await findMergeRequest(target, env);
  if (found.none !== undefined) {
    process.stderr.write(`platform-review: not posted: ${found.none}\n`);
    return;
  }
  const where = `on merge request !${target.mergeRequestIid} of project ${target.project}`;
  if (result) {
    process.stderr.write(`platform-review: added note ${await addNote(target, body)} ${where}\n`);
    return;
  }
  const { action, noteId } = await postNote(target, markerOf(stack, result), body);
  process.stderr.write(`platform-review: ${action} note ${noteId} ${where}\n`);
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
      process.exitCode = usage ? EXIT.usage : EXIT.failed;
    },
  );
}
