/** BENCHMARKS.md, written one section at a time by the benchmark scripts. */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const FILE = path.resolve(import.meta.dirname, "..", "BENCHMARKS.md");

/** Puts `section` under `## <heading>` in BENCHMARKS.md (at the end when it has none yet), leaving the rest as it is. */
export function writeBenchmarkSection(heading: string, section: string): void {
  const title = `## ${heading}`;
  const current = existsSync(FILE) ? readFileSync(FILE, "utf8") : "# Benchmarks\n";
  const start = current.indexOf(`\n${title}\n`);
  const body = `\n${title}\n\n${section}`;
  if (start === -1) {
    writeFileSync(FILE, current.replace(/\n*$/, "\n") + body);
    return;
  }
  const next = current.indexOf("\n## ", start + title.length + 1);
  writeFileSync(FILE, current.slice(0, start) + body + (next === -1 ? "" : current.slice(next)));
}
