/**
 * The golden reports (./fixtures/*.md) as a reviewer's browser shows them:
 * rendered as GitHub-flavoured Markdown (marked, with raw HTML kept as the
 * platform's renderer keeps `<details>`, `<code>` and `<em>`), loaded in
 * headless Chromium, and the page it built checked: every field table is a
 * table, folded sections are `<details>`, no Markdown or HTML is left as
 * text. `REVIEW_SCREENSHOTS=<dir>` also writes a PNG of each, to look at.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { marked } from "marked";
import { afterAll, describe, expect, it } from "vitest";
import { reviewOf } from "../../src/review/changes";
import { markdownOf } from "../../src/review/markdown";
import { parsePreview, type PreviewOutput, type PreviewStep } from "../../src/review/preview";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const fixtures = path.join(__dirname, "fixtures");
const work = mkdtempSync(path.join(tmpdir(), "review-render-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const STYLE = `body{font:14px/1.5 system-ui,sans-serif;max-width:980px;margin:16px}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:4px 8px}code{background:#f3f3f3;padding:0 3px}details{margin:8px 0}`;

/** The page Chromium built from a report (`--dump-dom`), and optionally its picture. */
function renderInChromium(name: string, markdown: string): string {
  const file = path.join(work, `${name}.html`);
  writeFileSync(file, `<!doctype html><html><head><meta charset="utf-8"><style>${STYLE}</style></head><body>${marked.parse(markdown, { gfm: true, async: false })}</body></html>`);
  const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", `--user-data-dir=${path.join(work, "profile")}`];
  const shots = process.env.REVIEW_SCREENSHOTS;
  if (shots) execFileSync(CHROMIUM, [...flags, `--screenshot=${path.join(shots, `${name}.png`)}`, "--window-size=1000,1600", `file://${file}`], { stdio: "ignore", timeout: 60_000 });
  return execFileSync(CHROMIUM, [...flags, "--dump-dom", `file://${file}`], { encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "ignore"] });
}

const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

describe("reports as a browser shows them", { timeout: 120_000 }, () => {
  for (const file of readdirSync(fixtures).filter((name) => name.endsWith(".md"))) {
    it(file, () => {
      const markdown = readFileSync(path.join(fixtures, file), "utf8");
      const dom = renderInChromium(file.replace(/\.md$/, ""), markdown);
      expect(count(dom, /<table>/g), "each field table renders as a table").toBe(count(markdown, /^\| field \|/gm));
      expect(count(dom, /<h4>/g)).toBe(count(markdown, /^#### /gm));
      expect(dom).not.toMatch(/\|---|&lt;(?:code|em|details)&gt;|\*\*/);
    });
  }

  it("a large report folds its long sections", () => {
    const step = (i: number) => ({ op: "create", urn: `urn:pulumi:prod::infra::pulumi-nodejs:dynamic/platform:Badge::b${i}`, newState: { inputs: { group: "acme", name: `b-${i}` } } }) as PreviewStep;
    const preview: PreviewOutput = { steps: Array.from({ length: 40 }, (_, i) => step(i)) };
    const dom = renderInChromium("large", markdownOf(reviewOf(parsePreview(JSON.stringify(preview)))));
    expect(dom).toContain("<details><summary>40 changes: show</summary>");
    expect(count(dom, /<table>/g)).toBe(40);
  });
});
