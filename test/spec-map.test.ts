/**
 * docs/specification.md against the specification it maps: every endpoint of
 * the three documents has its row, under its document and part, in the
 * document's order, and the counts the page gives are the rows it has. The
 * specification lives outside the repository (PLATFORM_SPEC_DIR, by default
 * ../shared/spec beside the checkout); without it these tests are skipped. And the
 * code states rules, not where the specification writes them: no file in
 * src/ cites its documents or parts, and the page's table of areas names
 * files that exist.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "..");
const specDir = process.env.PLATFORM_SPEC_DIR ?? path.resolve(root, "../shared/spec");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const mapPage = read("docs/specification.md");

const METHOD = "GET|POST|PUT|PATCH|DELETE";

/** An endpoint under its part: `4.4 Registry repositories and tags (...) :: GET /projects/:id/...`. */
type Listed = string;

/** The cells of a markdown table row. */
const cellsOf = (line: string): string[] => line.split("|").slice(1, -1).map((cell) => cell.trim());

/** A path suffix of a table that gives suffixes only (`/badges/:badge_id`, `(collection)`) joined to the part's prefix. */
function joined(prefix: string, suffix: string): string {
  if (suffix === "(collection)") return prefix;
  if (!prefix.endsWith("...")) return prefix + suffix;
  // `/projects/:id/badges...` with `/badges/:badge_id`: the suffix repeats the prefix's last segment.
  const base = prefix.slice(0, -3);
  return base.slice(0, base.lastIndexOf("/")) + suffix;
}

/**
 * The endpoints of one specification document, from its part 4: the first
 * cell of each endpoint table (full paths, suffixes under the part's prefixes,
 * or methods under the part's one path), further shapes named in other cells,
 * and endpoints quoted in the prose (`GET /metadata`).
 */
function specEndpoints(text: string): Listed[] {
  const listed: Listed[] = [];
  let inEndpoints = false;
  let part = "";
  let prefixes: string[] = [];
  let header = "";
  for (const line of text.split("\n")) {
    if (line.startsWith("## ")) {
      inEndpoints = line.startsWith("## 4. Endpoints");
      continue;
    }
    if (!inEndpoints) continue;
    if (line.startsWith("### ")) [part, prefixes, header] = [line.slice(4).trim(), [], ""];
    else if (line.startsWith("|")) {
      const [first = "", ...others] = cellsOf(line);
      if (first.startsWith("Method")) header = first;
      const endpoint = new RegExp(`^(${METHOD})\\b\\s*(.*)$`).exec(first);
      if (endpoint) {
        const [, method, rest] = endpoint as unknown as [string, string, string];
        const paths = header === "Method and path suffix" ? prefixes.map((prefix) => joined(prefix, rest)) : header === "Method" ? prefixes : [rest];
        for (const where of paths) listed.push(`${part} :: ${method} ${where.replace(/`/g, "")}`);
      }
      for (const cell of others) for (const [, method, where] of cell.matchAll(new RegExp(`\\b(${METHOD}) ([/{]\\S+)`, "g"))) listed.push(`${part} :: ${method} ${where}`);
    } else {
      for (const [, method, where] of line.matchAll(new RegExp("`(" + METHOD + ") (/[^`]*)`", "g"))) listed.push(`${part} :: ${method} ${where}`);
      for (const [, prefix] of line.matchAll(/`(\/[^`\s]*)`/g)) prefixes.push(prefix!);
    }
  }
  return listed;
}

/** The rows of docs/specification.md, per document: the first cell of each table row under a part. */
function mappedEndpoints(): Map<number, Listed[]> {
  const byDocument = new Map<number, Listed[]>();
  let document: number | undefined;
  let part = "";
  for (const line of mapPage.split("\n")) {
    const heading = /^## (?:Document (\d)\b)?/.exec(line);
    if (heading) document = heading[1] === undefined ? undefined : Number(heading[1]);
    else if (document !== undefined && line.startsWith("### ")) part = line.slice(4).trim();
    else if (document !== undefined && line.startsWith("| `")) {
      if (!byDocument.has(document)) byDocument.set(document, []);
      byDocument.get(document)!.push(`${part} :: ${cellsOf(line)[0]!.replace(/`/g, "")}`);
    }
  }
  return byDocument;
}

/** The rows of docs/specification.md's endpoint tables, whole. */
const mappedRows = (): string[] => mapPage.split("\n## Outside the specification")[0]!.split("\n").filter((line) => line.startsWith("| `"));

describe.skipIf(!existsSync(specDir))("docs/specification.md maps the specification", () => {
  // A skipped describe's body still runs to collect its tests: nothing to read then.
  const documents = (existsSync(specDir) ? readdirSync(specDir) : [])
    .filter((name) => name.endsWith(".txt"))
    .sort()
    .map((name) => specEndpoints(readFileSync(path.join(specDir, name), "utf8")));

  it("reads endpoints from each of the three documents", () => {
    expect(documents).toHaveLength(3);
    for (const endpoints of documents) expect(endpoints.length).toBeGreaterThan(10);
  });

  it("lists every endpoint of each document, under its part, in the document's order", () => {
    const mapped = mappedEndpoints();
    documents.forEach((endpoints, index) => expect(mapped.get(index + 1) ?? []).toEqual(endpoints));
    expect([...mapped.keys()]).toEqual([1, 2, 3]);
  });

  it("says for each endpoint what reaches it, or why nothing does", () => {
    const unmapped = mappedRows().filter((row) => cellsOf(row).slice(1).every((cell) => cell === ""));
    expect(unmapped).toEqual([]);
    const emulatorOnly = mappedRows().filter((row) => cellsOf(row)[1]!.startsWith("emulator only"));
    for (const row of emulatorOnly) expect(cellsOf(row)[1]).toMatch(/^emulator only: \S/);
    const total = documents.flat().length;
    expect(mapPage).toContain(`The three documents list ${total} endpoints; ${total - emulatorOnly.length} are reached from a program and\n${emulatorOnly.length} are emulator only.`);
  });

  it("names only resources, functions and actions the package has", async () => {
    const pkg = await import("pulumi-platform");
    const namesIn = (column: number, kind: RegExp) =>
      mappedRows().flatMap((row) => (cellsOf(row)[column]!.match(/`\w+`/g) ?? []).map((name) => name.slice(1, -1)).filter((name) => kind.test(name)));
    const resources = namesIn(1, /^[A-Z]/);
    const functions = namesIn(2, /^get[A-Z]/);
    const actions = namesIn(3, /./);
    expect(resources.length * functions.length * actions.length).toBeGreaterThan(0);
    expect(resources.filter((name) => !(name in pkg.providers))).toEqual([]);
    expect([...functions, ...actions].filter((name) => typeof (pkg as Record<string, unknown>)[name] !== "function")).toEqual([]);
  });
});

/** Every file under `dir`, as a path relative to the repository. */
function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
}

describe("the code says the rule, docs/specification.md where it is written", () => {
  const sources = filesUnder("src");

  it("no file in src/ cites the specification's documents or parts", () => {
    const citation = /document [123]|spec(ification)?('s)? (document|part)|\(spec /i;
    const citing = sources.flatMap((file) =>
      read(file)
        .split("\n")
        .flatMap((line, index) => (citation.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(citing).toEqual([]);
  });

  it("names files of src/ that exist in its table of areas", () => {
    const areas = mapPage.split("### By area")[1]!.split("\n### ")[0]!;
    const named = [...areas.matchAll(/`([\w./*-]+\.ts|[\w-]+\/[\w/-]*\/)`/g)].map((match) => `src/${match[1]}`);
    expect(named.length).toBeGreaterThan(20);
    const pattern = (name: string) => new RegExp(`^${name.replace(/[.]/g, "\\.").replace(/\*/g, "[^/]*")}`);
    expect(named.filter((name) => !sources.some((file) => pattern(name).test(file)))).toEqual([]);
  });
});
