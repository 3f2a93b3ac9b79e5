/**
 * The shape of src/: every import runs down the table of layers below, never
 * sideways into a peer or up, and no module imports itself through others (a
 * circle makes the load order decide what is defined). Type-only imports
 * count as much as the others: they are what the layers know of each other,
 * even though they are gone at run time.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const src = path.resolve(__dirname, "../src");

/**
 * The layers, top first, and the layers each may import besides its own.
 * resources/, functions/ and actions/ are peers (none imports another); so are
 * import/ and review/. calls/ is the core every data function and action
 * shares. connection.ts (the connection settings, their rules and the client
 * they make) is a layer of its own below the engine, which makes the
 * process's connections from it, and beside api/: neither imports the other.
 * The emulator is a server of its own: it imports nothing of the toolkit, and
 * states the facts it shares with it (settings, cron, durations, avatars) in
 * its own words (test/emulator/restated-facts.test.ts compares the two).
 */
const LAYERS = {
  entry: ["import", "review", "resources", "functions", "actions", "calls", "engine", "connection", "api", "client", "base"],
  import: ["resources", "calls", "engine", "connection", "api", "client", "base"],
  review: ["resources", "calls", "engine", "connection", "api", "client", "base"],
  resources: ["calls", "engine", "connection", "api", "client", "base"],
  functions: ["calls", "engine", "connection", "api", "client", "base"],
  actions: ["calls", "engine", "connection", "api", "client", "base"],
  calls: ["engine", "connection", "api", "client", "base"],
  engine: ["connection", "api", "client", "base"],
  connection: ["client", "base"],
  api: ["client", "base"],
  client: ["base"],
  base: [],
  emulator: [],
} as const satisfies Record<string, readonly string[]>;
type Layer = keyof typeof LAYERS;

/** The modules at the top of src/ and their layers. */
const TOP_MODULES: Record<string, Layer> = {
  "index.ts": "entry",
  "runtime.ts": "entry",
  "recover.ts": "entry",
  "connection.ts": "connection",
  "validation.ts": "base",
  "cron.ts": "base",
  "chronic-duration.ts": "base",
  "image-types.ts": "base",
  "application-settings-catalogue.ts": "base",
  "node-version.ts": "base",
  "file-backend.ts": "base",
  "visible-text.ts": "base",
  "bounded-read.ts": "base",
  "executable-path.ts": "base",
  "lazy-load.ts": "base",
};

function modules(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return modules(file);
    return name.endsWith(".ts") ? [file] : [];
  });
}

/**
 * Every import of a module of src/, by path relative to src/: value,
 * type-only, side-effect and `import()` types alike, and a registry's
 * `require` of a module it loads on first use (src/lazy-load.ts).
 */
function imports(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const forms = [/^(?:import|export)\b[^;]*?\bfrom\s+"(\.[^"]+)"/gm, /^import\s+"(\.[^"]+)"/gm, /\bimport\("(\.[^"]+)"\)/g, /\brequire\("(\.[^"]+)"\)/g];
  for (const file of modules(src)) {
    const text = readFileSync(file, "utf8");
    const targets = new Set<string>();
    for (const form of forms) {
      for (const match of text.matchAll(form)) {
        const base = path.resolve(path.dirname(file), match[1]!.replace(/\.js$/, ""));
        const target = [`${base}.ts`, path.join(base, "index.ts")].find((candidate) => existsSync(candidate));
        if (target) targets.add(path.relative(src, target));
      }
    }
    graph.set(path.relative(src, file), [...targets]);
  }
  return graph;
}

/** The circles of the graph: each strongly connected group of more than one module (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (module: string): void => {
    index.set(module, next);
    low.set(module, next++);
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(module, Math.min(low.get(module)!, index.get(target)!));
    }
    if (low.get(module) !== index.get(module)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== module);
    if (group.length > 1) found.push(group.sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return found;
}

/** The emulator area a module belongs to (`emulator/areas/<area>/...`), or undefined outside them. */
function areaOf(module: string): string | undefined {
  const [first, second, area, file] = module.split(path.sep);
  return first === "emulator" && second === "areas" && file !== undefined ? area : undefined;
}

/**
 * The pairs (importing area, imported area) that docs/adding-an-area.md's
 * table of the emulator's cross-area imports names: each cell lists entries
 * `importers (imported, ...)`, an imported area possibly followed by its
 * modules (`repository's \`commits.ts\``).
 */
function documentedAreaImports(): Set<string> {
  const guide = readFileSync(path.resolve(__dirname, "../docs/adding-an-area.md"), "utf8");
  const table = guide.slice(guide.indexOf("The areas import another area's module by what it holds"));
  const lines = table.split("\n");
  const start = lines.findIndex((line) => line.startsWith("| "));
  const end = lines.findIndex((line, index) => index > start && !line.startsWith("|"));
  const rows = lines.slice(start + 2, end);
  const slug = (name: string) => name.trim().replace(/'s?$/, "").replace(/ /g, "-");
  const pairs = new Set<string>();
  for (const row of rows) {
    const cell = row.split("|")[2]!.trim();
    for (const entry of cell.split(/\)[,;] |\) *$/).filter(Boolean)) {
      const [importers, imported] = entry.split(" (") as [string, string];
      for (const from of importers.split(/, | and /)) {
        for (const part of imported.split(", ").filter((item) => !item.startsWith("`"))) pairs.add(`${slug(from)} → ${slug(part.split(" `")[0]!)}`);
      }
    }
  }
  return pairs;
}

/** The layer of a module (a path relative to src/); undefined for a folder or top module the table does not place. */
function layerOf(module: string): Layer | undefined {
  const [first, ...rest] = module.split(path.sep);
  if (rest.length === 0) return TOP_MODULES[first!];
  return first! in LAYERS ? (first as Layer) : undefined;
}

describe("the layers of src/", () => {
  const graph = imports();

  it("places every module in a layer", () => {
    expect([...graph.keys()].filter((module) => layerOf(module) === undefined)).toEqual([]);
  });

  it("no module imports itself through others, type-only imports included", () => {
    expect(circles(graph)).toEqual([]);
  });

  it("an emulator area imports of another area its model, answers or shared lookups, never its routes, seed, background work or the list of areas", () => {
    const internal = /(^|\/)(routes|seed|jobs)\.ts$/;
    const violations = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => areaOf(file) !== undefined && (target === path.join("emulator", "areas", "index.ts") || (areaOf(target) !== undefined && areaOf(target) !== areaOf(file) && internal.test(target))))
        .map((target) => `${file} → ${target}`),
    );
    expect(violations).toEqual([]);
  });

  it("docs/adding-an-area.md names every area another area imports, and only those", () => {
    const actual = new Set(
      [...graph].flatMap(([file, targets]) =>
        targets.filter((target) => areaOf(file) !== undefined && areaOf(target) !== undefined && areaOf(target) !== areaOf(file)).map((target) => `${areaOf(file)} → ${areaOf(target)}`),
      ),
    );
    expect([...documentedAreaImports()].sort()).toEqual([...actual].sort());
  });

  it("every import runs down the table, never sideways or up, type-only imports included", () => {
    const violations: string[] = [];
    for (const [file, targets] of graph) {
      const from = layerOf(file)!;
      for (const target of targets) {
        const to = layerOf(target)!;
        const edge = `${file} → ${target}`;
        const allowed = from === to || (LAYERS[from] as readonly string[]).includes(to);
        if (!allowed) violations.push(`${edge} (${from} may import ${[from, ...LAYERS[from]].join(", ")})`);
      }
    }
    expect(violations).toEqual([]);
  });

});
