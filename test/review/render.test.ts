/**
 * The golden reports (./fixtures/*.md) as a reviewer's browser shows them:
 * rendered as GitHub-flavoured Markdown (marked, with raw HTML kept as the
 * platform's renderer keeps `<details>`, `<code>` and `<em>`), loaded in
 * headless Chromium, and the page it built checked: every field table is a
 * table, folded sections are `<details>`, no Markdown or HTML of the tool's
 * is left as text; and the hostile corpus (./hostile-corpus.ts) yields no
 * element the tool did not emit, each of its strings shown whole as the text
 * of a code element. `REVIEW_SCREENSHOTS=<dir>` also writes a PNG of each, to
 * look at.
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
import { harmless, HOSTILE, hostilePreview } from "./hostile-corpus";

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
  return execFileSync(CHROMIUM, [...flags, "--dump-dom", `file://${file}`], { encoding: "utf8", timeout: 60_000, stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 * 1024 * 1024 });
}

const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

/** The page without its code elements: the text and markup the tool wrote itself. */
const withoutCode = (dom: string) => dom.replace(/<code>[^<]*<\/code>/g, "<code></code>");

/** How many elements of each tag the page holds. */
function elements(dom: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [, tag] of dom.matchAll(/<([a-z][a-z0-9]*)/g)) counts[tag!] = (counts[tag!] ?? 0) + 1;
  return counts;
}

/** The text of each code element, as the browser holds it (the serializer escapes `&`, `<`, `>` and no-break spaces). */
const codeTexts = (dom: string) =>
  [...dom.matchAll(/<code>([^<]*)<\/code>/g)].map(([, text]) => text!.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&nbsp;/g, "\u00a0").replace(/&amp;/g, "&"));

/** A string as the report must show it: every control, format, separator, default-ignorable or blank character as its escape. */
const visible = (text: string) =>
  text.replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\u2800]|(?! )\p{Zs}/gu, (character) => {
    const point = character.codePointAt(0)!.toString(16).toUpperCase();
    return point.length > 4 ? `\\u{${point}}` : `\\u${point.padStart(4, "0")}`;
  });

describe("reports as a browser shows them", { timeout: 120_000 }, () => {
  for (const file of readdirSync(fixtures).filter((name) => name.endsWith(".md"))) {
    it(file, () => {
      const markdown = readFileSync(path.join(fixtures, file), "utf8");
      const dom = renderInChromium(file.replace(/\.md$/, ""), markdown);
      // Every table the report writes (one delimiter row each), every row of it, every heading and folded section is one element of the page.
      const tableLines = count(markdown, /^\|.*\|$/gm);
      const tables = count(markdown, /^\|(?: *:?-+:? *\|)+$/gm);
      expect(count(markdown, /^\| field \|/gm), "the field tables are among the tables").toBeLessThanOrEqual(tables);
      const shown = { tables: count(dom, /<table>/g), rows: count(dom, /<tr>/g), headings: count(dom, /<h4>/g), folded: count(dom, /<details>/g) };
      expect(shown).toEqual({ tables, rows: tableLines - tables, headings: count(markdown, /^#### /gm), folded: count(markdown, /<details>/g) });
      expect(withoutCode(dom)).not.toMatch(/\|---|&lt;(?:code|em|details)&gt;|\*\*/);
    });
  }

  it("a large report folds its long sections", () => {
    const step = (i: number) => ({ op: "create", urn: `urn:pulumi:prod::infra::pulumi-nodejs:dynamic/platform:Badge::b${i}`, newState: { inputs: { group: "acme", name: `b-${i}` } } }) as PreviewStep;
    const preview: PreviewOutput = { steps: Array.from({ length: 40 }, (_, i) => step(i)) };
    const dom = renderInChromium("large", markdownOf(reviewOf(parsePreview(JSON.stringify(preview)))));
    expect(dom).toContain("<details><summary>40 changes: show</summary>");
    expect(count(dom, /<table>/g)).toBe(40);
  });

  it("hostile names, owners, kinds, paths, values and messages are text: no element, link or table break of theirs", () => {
    const reportOf = (corpus: readonly string[]) => markdownOf(reviewOf(parsePreview(JSON.stringify(hostilePreview(corpus)))), { stack: "e2e" });
    const dom = renderInChromium("hostile", reportOf(HOSTILE));
    const calm = renderInChromium("harmless", reportOf(harmless(HOSTILE)));
    // The same elements, as many of each, as the same report of harmless strings: nothing added, nothing hidden.
    expect(elements(dom)).toEqual(elements(calm));
    expect(elements(dom)).not.toHaveProperty("a");
    expect(elements(dom)).not.toHaveProperty("img");
    expect(elements(dom)).not.toHaveProperty("script");
    const texts = codeTexts(dom);
    for (const text of HOSTILE) {
      if (text.length <= 200) expect(texts, JSON.stringify(text)).toContain(visible(text));
      else expect(texts, "a long name is cut").toContain(text.slice(0, 200));
    }
    // Outside code, where GitLab makes links of mentions, references, emoji and URLs, none of theirs.
    const own = withoutCode(dom).replace(/<!-- platform-review stack="e2e" -->/, "");
    expect(own).not.toMatch(/@|#\d|!\d|:smile:|evil|javascript|<!--|the rest of the note|onerror|\u202e|\u0000/i);
  });

  it("a line under the verdict read back from data hides nothing after it", () => {
    const preview = parsePreview(readFileSync(path.join(fixtures, "change.json"), "utf8"));
    for (const [index, context] of ["Previewed at commit abc. <!--", "```", "<details><summary>more</summary>"].entries()) {
      const dom = renderInChromium(`context-${index}`, markdownOf(reviewOf(preview), { stack: "e2e", context }));
      expect(dom, context).toContain("<h4>Deletes (1)</h4>");
      expect(dom, context).toContain("<code>legacy</code>");
      expect(elements(dom), context).not.toHaveProperty("pre");
      expect(elements(dom), context).not.toHaveProperty("details");
    }
  });
});
