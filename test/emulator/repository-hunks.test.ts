/**
 * The hunks repository/compare shows, checked against the git command line
 * (`git diff --no-index`, git's defaults: Myers, change compaction, the
 * indent heuristic, three lines of context, funcname lines): ambiguous edits
 * a person makes every day, and a seeded run of random edits over a small,
 * repetitive vocabulary (where several minimal diffs exist and git's
 * placement rules decide).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { unifiedHunks } from "../../src/emulator/areas/repository/hunks";

const work = mkdtempSync(join(tmpdir(), "hunks-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** git's hunks for each change (everything from the first `@@` on), from one `git diff --no-index` of two folders. */
function gitHunksOf(changes: [before: string, after: string][]): string[] {
  const run = mkdtempSync(join(work, "run-"));
  mkdirSync(join(run, "a"));
  mkdirSync(join(run, "b"));
  changes.forEach(([before, after], index) => {
    writeFileSync(join(run, "a", String(index)), before);
    writeFileSync(join(run, "b", String(index)), after);
  });
  let out: string;
  try {
    out = execFileSync("git", ["diff", "--no-index", "--no-color", "a", "b"], { cwd: run, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    out = (error as { stdout: string }).stdout; // exit code 1: the files differ
  }
  const hunks = changes.map(() => "");
  for (const section of out.split(/^(?=diff --git )/m)) {
    const index = /^diff --git a\/a\/(\d+) /.exec(section)?.[1];
    const start = section.indexOf("\n@@");
    if (index !== undefined && start !== -1) hunks[Number(index)] = section.slice(start + 1);
  }
  return hunks;
}

const gitHunks = (before: string, after: string): string => gitHunksOf([[before, after]])[0]!;

describe("unifiedHunks against git diff", () => {
  const cases: Record<string, [string, string]> = {
    "a function added between two others (indent heuristic: the blank line goes after)": [
      "function a() {\n  return 1;\n}\n\nfunction c() {\n  return 3;\n}\n",
      "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n\nfunction c() {\n  return 3;\n}\n",
    ],
    "a block added inside a block (the closing braces are ambiguous)": [
      "if (a) {\n  if (b) {\n    x();\n  }\n}\n",
      "if (a) {\n  if (b) {\n    x();\n  }\n  if (c) {\n    y();\n  }\n}\n",
    ],
    "a line removed from a run of equal lines": ["x\nx\nx\ny\n", "x\nx\ny\n"],
    "no newline at the end, before and after": ["one\ntwo", "one\ntwo\nthree"],
    "two changes seven lines apart make two hunks, six apart one": [
      Array.from({ length: 30 }, (_, i) => `line ${i}\n`).join(""),
      Array.from({ length: 30 }, (_, i) => (i === 5 || i === 13 || i === 20 ? `changed ${i}\n` : `line ${i}\n`)).join(""),
    ],
    "the funcname line is the nearest one above the hunk starting with a letter": [
      `def outer():\n${Array.from({ length: 12 }, (_, i) => `    step(${i})\n`).join("")}`,
      `def outer():\n${Array.from({ length: 12 }, (_, i) => (i === 9 ? "    changed()\n" : `    step(${i})\n`)).join("")}`,
    ],
    "a new file and an emptied one": ["", "a\nb\n"],
    "an emptied file": ["a\nb\n", ""],
  };
  for (const [name, [before, after]] of Object.entries(cases)) {
    it(name, () => {
      expect(unifiedHunks(before, after)).toBe(gitHunks(before, after));
    });
  }

  it("300 seeded random edits of a repetitive vocabulary: every hunk as git prints it", () => {
    let seed = 42;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const vocabulary = ["{", "}", "", "  return x;", "function f() {", "  if (a) {", "  }", "const a = 1;", "// comment", "x++;"];
    const pick = (): string => vocabulary[Math.floor(random() * vocabulary.length)]!;
    const changes: [string, string][] = [];
    for (let run = 0; run < 300; run++) {
      const before = Array.from({ length: 5 + Math.floor(random() * 40) }, pick);
      const after = [...before];
      for (let edit = 1 + Math.floor(random() * 5); edit > 0; edit--) {
        const at = Math.floor(random() * (after.length + 1));
        const kind = random();
        if (kind < 0.33) after.splice(at, 0, pick());
        else if (kind < 0.66) after.splice(at, 1);
        else after[at] = `changed ${edit}`;
      }
      const oldText = before.join("\n") + (random() < 0.9 ? "\n" : "");
      const newText = after.join("\n") + (random() < 0.9 ? "\n" : "");
      changes.push([oldText, newText]);
    }
    // One git process for all 300: a process each cost seconds of a loaded machine's time.
    const expected = gitHunksOf(changes);
    const mismatches = changes.filter(([oldText, newText], index) => unifiedHunks(oldText, newText) !== expected[index]).map(([oldText, newText]) => `${JSON.stringify(oldText)} → ${JSON.stringify(newText)}`);
    expect(mismatches).toEqual([]);
  });
});
