/**
 * The review's limits, asserted by what it gives, not by a clock (the times
 * are in BENCHMARKS.md, measured by scripts/bench-review.mts): 15,000 changes
 * give a report within the note's limit and data with all of them; a value
 * nested 3,000 deep is reviewed and compared; a 100 MB preview is reported
 * by the command (the built bin, `npm test` builds first) in a Node.js whose
 * memory is bounded to 1 GiB.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reviewOf } from "../../src/review/changes";
import { markdownOf, NOTE_LIMIT } from "../../src/review/markdown";
import { parsePreview } from "../../src/review/preview";
import { main } from "../../src/review/cli";
import { dataComment, DATA_LIMIT_BYTES, parseSummary, reviewInNote, summaryOf } from "../../src/review/summary";
import { differences } from "../../src/review/guard";
import { gunzipSync } from "node:zlib";
import { writeLargePreview } from "../../scripts/large-preview.mts";

const work = mkdtempSync(path.join(tmpdir(), "review-limits-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("15,000 changes", () => {
  it("a new stack of 15,000 badges: a report within the note's limit, its section folded and cut, saying what it leaves out", () => {
    const file = path.join(work, "new-stack.json");
    writeLargePreview(file, { changes: 15_000, kinds: ["create"] });
    const review = reviewOf(parsePreview(readFileSync(file, "utf8")));
    expect(review.counts.create).toBe(15_000);
    const report = markdownOf(review, { stack: "prod" });
    expect(report.length).toBeLessThanOrEqual(NOTE_LIMIT);
    expect(report).toContain("<details><summary>");
    const shown = (report.match(/^- `\+` creates badge /gm) ?? []).length;
    expect(shown).toBeGreaterThan(1000);
    expect(report).toContain(`**Not shown** (the note's size limit): the fields of ${shown} changes, and ${15_000 - shown} changes; an apply is held to every value`);
  });

  it("a new stack of 15,000 badges: its note's data fits the guard's bound and reads back whole", () => {
    const file = path.join(work, "new-stack-data.json");
    writeLargePreview(file, { changes: 15_000, kinds: ["create"] });
    const review = reviewOf(parsePreview(readFileSync(file, "utf8")));
    const summary = summaryOf(review, { stack: "prod" });
    const comment = dataComment(summary);
    const raw = gunzipSync(Buffer.from(/platform-review-data (\S+) -->/.exec(comment)![1]!, "base64"));
    expect(raw.length).toBeLessThan(DATA_LIMIT_BYTES);
    const back = reviewInNote(`report\n${comment}\n`).summary;
    expect(back.changes).toHaveLength(15_000);
    expect(back.sentences).toEqual(summary.sentences);
    expect(back.counts_line).toBe(summary.counts_line);
    expect(differences(back.changes, review.changes)).toEqual([]);
  });

  it("a review whose data cannot fit its note still gives the report, saying the apply will stop; the note carries no data", async () => {
    const file = path.join(work, "too-large.json");
    writeLargePreview(file, { changes: 200, kinds: ["create"] });
    let report = "";
    expect(await main(["--preview", file, "--max-chars", "3000"], {}, (text) => (report += text))).toBe(0);
    expect(report).toContain("**Too large for the apply's guard:**");
    expect(report).not.toContain("platform-review-data");
    expect(report.length).toBeLessThanOrEqual(3000);
  });

  it("of every kind give a report within the note's limit, destructive steps first, and data with every change", () => {
    const file = path.join(work, "many.json");
    const counts = writeLargePreview(file, { changes: 10_000, removals: 5_000 });
    const review = reviewOf(parsePreview(readFileSync(file, "utf8")));
    expect(review.changes).toHaveLength(15_000);
    expect(review.counts).toEqual({ ...counts, takeover: 0, drift: 0 });
    const report = markdownOf(review, { stack: "prod" });
    expect(report.length).toBeLessThanOrEqual(NOTE_LIMIT);
    const shown = (report.match(/^- `/gm) ?? []).length;
    expect(report).toMatch(new RegExp(`\\*\\*Not shown\\*\\* \\(the note's size limit\\): the fields of \\d+ changes, and ${15_000 - shown} changes;`));
    // Deletions come first: the first of each kind of destruction is there.
    expect(report).toContain("- `-` deletes badge 5 <code>badge-4</code> of group <code>team-4</code>");
    expect(report).toContain("by a new one of group <code>moved-5</code>");
    expect(report).toContain("deletes badge 100000 <code>stray-0</code> of group <code>acme</code>");
    const summary = summaryOf(review, { stack: "prod" });
    expect(parseSummary(JSON.stringify(summary)).changes).toHaveLength(15_000);
    expect(differences(summary.changes, review.changes)).toEqual([]);
  });
});

/** `{"a":{"a":…"bottom"…}}` as JSON text, `depth` deep: deeper than JSON.stringify itself could write. */
const nestedText = (depth: number, bottom: string) => `${'{"a":'.repeat(depth)}${JSON.stringify(bottom)}${"}".repeat(depth)}`;

describe.each([3000, 20_000])("a value nested %i deep", (depth) => {
  const type = "pulumi-nodejs:dynamic/platform:GroupSettings";
  const urn = `urn:pulumi:dev::infra::${type}::settings`;
  const state = (inputs: string, outputs = inputs) => `{"type":"${type}","id":"groups/acme","inputs":{"group":"acme","extra":${inputs}},"outputs":{"group":"acme","extra":${outputs}}}`;
  const previewOf = (bottom: string) =>
    parsePreview(
      `{"steps":[` +
        `{"op":"refresh","urn":"${urn}","oldState":${state(nestedText(depth, "bottom"))}},` +
        `{"op":"update","urn":"${urn}","oldState":${state(nestedText(depth, "bottom"), `{"drifted":${nestedText(depth, "bottom")}}`)},"newState":${state(`{"a":${nestedText(depth - 1, "bottom")},"bottom":"${bottom}"}`)}},` +
        `{"op":"create","urn":"${urn}-new","newState":${state(nestedText(depth, "bottom"))}}]}`,
    );

  it("is reviewed, reported and compared, without a stack overflow", () => {
    const review = reviewOf(previewOf("one"));
    expect(review.changes.map((change) => [change.kind, change.fields.map((field) => field.path)])).toEqual([
      ["update", ["extra"]],
      ["create", ["group", "extra"]],
      ["drift", ["extra"]],
    ]);
    expect(review.changes[0]!.fields[0]!.before).toMatchObject({ value: expect.stringMatching(/^\{"a":\{"a":/), characters: depth * 6 + 8 });
    expect(markdownOf(review)).toContain("characters, shown shortened");
    const reviewed = parseSummary(JSON.stringify(summaryOf(review)));
    expect(differences(reviewed.changes, reviewOf(previewOf("one")).changes)).toEqual([]);
    expect(differences(reviewed.changes, reviewOf(previewOf("two")).changes)).toEqual(["updates group settings of group acme: fields differ from the review: extra"]);
  });
});

describe("a 100 MB preview", () => {
  it("is reported by the command, within 1 GiB of memory", { timeout: 300_000 }, () => {
    const file = path.join(work, "large.json");
    // Creates, updates, deletes and replacements as the CLI writes them: some 20,000 changes.
    const counts = writeLargePreview(file, { bytes: 100 * 1024 * 1024 });
    const data = path.join(work, "large-review.json");
    // The command as the bin runs it, in a Node.js whose heap may not pass 1 GiB; it prints the most memory it held.
    const script = `require(${JSON.stringify(path.resolve(__dirname, "../../dist/review/cli.js"))}).main(process.argv.slice(1), {}, () => {}).then((code) => { process.stderr.write("maxRSS " + process.resourceUsage().maxRSS + "\\n"); process.exitCode = code; });`;
    const run = spawnSync(process.execPath, ["--max-old-space-size=1024", "-e", script, "--", "--preview", file, "--json", data, "--quiet"], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const maxRss = Number(/maxRSS (\d+)/.exec(run.stderr)?.[1]) * 1024;
    expect(maxRss).toBeLessThan(1024 ** 3);
    const summary = JSON.parse(readFileSync(data, "utf8")) as { changes: unknown[]; counts: Record<string, number> };
    expect(summary.changes.length).toBe(counts.create + counts.update + counts.delete + counts.replace);
    expect(summary.counts).toMatchObject(counts);
  });
});
