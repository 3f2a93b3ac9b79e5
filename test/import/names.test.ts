/**
 * platform-import's names over many legal names, checked by the TypeScript
 * compiler: every generated program compiles against the package's own types
 * (the template's compiler settings), every declaration has its own
 * identifier, every secret its own config key, and no line of it shows
 * something else than it reads (no bidirectional control, line separator or
 * invisible character written raw).
 */
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { programOf } from "../../src/import/program";
import type { Declaration, ModuleOwner, SecretEntry } from "../../src/import/values";
import { DECEPTIVE_CHARACTERS } from "../../src/visible-text";
import templateTsconfig from "../../templates/platform/tsconfig.json";

const template = { "package.json": '{ "name": "${PROJECT}" }\n', "tsconfig.json": "{}\n" };

/** A small deterministic generator (mulberry32): the same names on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces legal names are made of: letters, digits, separators, accents, other scripts, emoji, and what displays otherwise than it reads. */
const PIECES = ["x", "X", "2", "0", " ", "-", "_", ".", "/", "é", "É", "ß", "日本", "😀", "\u202E", "\u2028", "\u200B", "\u00A0", "\u3164", "\u{E0100}", "api", "u", "2024"];

/** The names the issue found colliding, and their neighbours, first; then generated ones. */
function legalNames(count: number): string[] {
  const next = random(38);
  const names = ["x 2", "x2", "x-2", "X 2", "x_2", "x--2", "2", "2x", "2 x", "", "u 2", "u2", "u", "U", "x api", "x"];
  while (names.length < count) {
    const length = 1 + Math.floor(next() * 6);
    names.push(Array.from({ length }, () => PIECES[Math.floor(next() * PIECES.length)]).join(""));
  }
  return names;
}

const OWNERS: ModuleOwner[] = [
  { kind: "group", id: 1, fullPath: "acme" },
  { kind: "group", id: 2, fullPath: "acme/2" },
  { kind: "group", id: 3, fullPath: "acme2" },
  { kind: "project", id: 4, fullPath: "2024-archive/web" },
  { kind: "project", id: 5, fullPath: "acme/x 2" },
];

/** Badges of every owner, and upstreams (each with its write-only password), named by each legal name. */
function estate(names: readonly string[]): { declarations: Declaration[]; secrets: SecretEntry[] } {
  const declarations: Declaration[] = [];
  const secrets: SecretEntry[] = [];
  names.forEach((name, index) => {
    const owner = OWNERS[index % OWNERS.length]!;
    const badgeKey = `Badge ${owner.kind}s/${owner.id}/badges/${index + 1}`;
    declarations.push({
      kind: "Badge",
      key: badgeKey,
      importId: `${owner.kind}s/${owner.id}/badges/${index + 1}`,
      owner,
      baseName: name,
      args: { [owner.kind]: owner.id, linkUrl: `https://ci.example.com/${name}`, imageUrl: "https://ci.example.com/b.svg", name },
      notes: [`name is ${name}`],
    });
    if (owner.kind !== "group" || owner.id !== 1) return;
    const upstreamKey = `Upstream ${index + 1}`;
    declarations.push({
      kind: "Upstream",
      key: upstreamKey,
      importId: String(index + 1),
      owner,
      baseName: name,
      args: { registry: 7, name, url: "https://registry.example.com", username: "puller", password: { secretConfig: "password" } },
      notes: [],
    });
    secrets.push({ key: upstreamKey, property: "password" });
  });
  return { declarations, secrets };
}

/** The program's TypeScript files compiled in place of the out dir (beside this test, so the package and @pulumi/pulumi resolve), with the template's settings. */
function diagnosticsOf(files: ReadonlyMap<string, string>): string[] {
  const root = path.join(__dirname, "generated-program");
  const sources = new Map([...files].filter(([file]) => file.endsWith(".ts")).map(([file, text]) => [path.join(root, file), text]));
  const { options } = ts.convertCompilerOptionsFromJson({ ...templateTsconfig.compilerOptions, noEmit: true }, root);
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (file) => sources.has(file) || ts.sys.fileExists(file);
  host.readFile = (file) => sources.get(file) ?? readFile(file);
  host.getSourceFile = (file, language) => (sources.has(file) ? ts.createSourceFile(file, sources.get(file)!, language, true) : getSourceFile(file, language));
  const program = ts.createProgram([path.join(root, "index.ts")], options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => `${diagnostic.file ? path.relative(root, diagnostic.file.fileName) : ""}: TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`);
}

describe("platform-import's names over many legal names", () => {
  const names = legalNames(5000);
  const { declarations, secrets } = estate(names);
  const program = programOf(declarations, { projectName: "p", names: {}, secrets, template });

  it("compiles: every identifier valid and unique in its module, against the package's own types", { timeout: 120_000 }, () => {
    expect(diagnosticsOf(program.files)).toEqual([]);
    for (const [file, text] of program.files) {
      if (!file.endsWith(".ts")) continue;
      const identifiers = [...text.matchAll(/^export const (\S+) =/gm)].map((match) => match[1]!);
      expect(identifiers.filter((identifier) => !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(identifier)), file).toEqual([]);
      expect(new Set(identifiers).size, file).toBe(identifiers.length);
    }
    expect([...program.files.values()].join("").match(/^export const .* = new /gm)).toHaveLength(declarations.length);
  });

  it("gives each secret its own config key, the one its declaration reads", () => {
    expect(program.secrets).toHaveLength(secrets.length);
    expect(new Set(program.secrets).size).toBe(secrets.length);
    for (const key of program.secrets) expect(key).toMatch(/^[A-Za-z][A-Za-z0-9]*$/);
    const read = [...[...program.files.values()].join("\n").matchAll(/config\.requireSecret\("([^"]+)"\)/g)].map((match) => match[1]!);
    expect(read.sort()).toEqual([...program.secrets].sort());
    // The two upstreams: `u 2` and `u2`, one password each.
    const keyOf = (name: string) => program.configKeys[`Upstream ${names.indexOf(name) + 1} password`];
    expect(keyOf("u 2")).toBeDefined();
    expect(keyOf("u 2")).not.toBe(keyOf("u2"));
  });

  it("keeps every config key in later runs, and gives a new secret none of them", () => {
    const later = estate([...names, "u-2", "u 2 "]);
    const again = programOf(later.declarations, { projectName: "p", names: program.names, configKeys: program.configKeys, secrets: later.secrets, template });
    for (const [secret, key] of Object.entries(program.configKeys)) expect(again.configKeys[secret]).toBe(key);
    expect(new Set(Object.values(again.configKeys)).size).toBe(Object.keys(again.configKeys).length);
  });

  it("writes no character that displays otherwise than it reads, in literals and comments alike", () => {
    for (const [file, text] of program.files) expect(text.match(DECEPTIVE_CHARACTERS)?.filter((character) => character !== "\n") ?? [], file).toEqual([]);
  });
});
