/**
 * A kind is one declaration: everything the review, the importer and the
 * shared tests know of a kind is declared on it (docs/adding-an-area.md,
 * "What a kind is"). The type of a declaration demands its words and its
 * import; this test fails, naming the kind and the part, when a registered
 * kind lacks one of the other parts or declares one that does not fit, and
 * when a resource module's kind is not registered (its block in
 * src/resources/kinds.ts) or is registered under a name not its kind's.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as platform from "../../src/index";
import type { AnyResourceDefinition } from "../../src/engine/definition";
import { declarationOf, PlatformResource } from "../../src/engine/resource";
import { definitions, registered } from "../../src/resources";
import { KIND_TESTS } from "../kinds/index.mts";

const KINDS = Object.entries(definitions as Record<string, AnyResourceDefinition>);
const resourcesDoc = readFileSync(path.resolve(__dirname, "../../docs/resources.md"), "utf8");

/** What is wrong with one kind's declaration, each as `Kind: part: why`. */
function lacks(kind: string, definition: AnyResourceDefinition): string[] {
  const problems: string[] = [];
  const lack = (part: string, why: string) => problems.push(`${kind}: ${part}: ${why}`);
  // The review's words: a reviewer's noun, never the class name.
  if (!/^[A-Za-z][A-Za-z -]*$/.test(definition.words.noun) || /[a-z][A-Z]/.test(definition.words.noun)) lack("words.noun", `"${definition.words.noun}" is not words`);
  if (definition.ownership) {
    if (!(definition.ownership.option in definition.schema.shape)) lack("ownership.option", `${definition.ownership.option} is not an input`);
    if (!(definition.ownership.output in definition.outputs)) lack("ownership.output", `${definition.ownership.output} is not an output`);
  }
  // The importer's part: how it is found, the set it is, or why it is not imported.
  const imported = definition.imported;
  if ("notImported" in imported) {
    if (imported.notImported.trim() === "") lack("imported.notImported", "says no reason");
  } else if ("setOf" in imported) {
    const members = (definitions as Record<string, AnyResourceDefinition | undefined>)[imported.setOf];
    if (!members || !("find" in members.imported)) lack("imported.setOf", `${imported.setOf} is not a kind the importer finds`);
    // `id` is every resource's own.
    else if (imported.keeps !== "id" && !(imported.keeps in members.outputs)) lack("imported.keeps", `${imported.keeps} is not an output of ${imported.setOf}`);
  } else {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(imported.word)) lack("imported.word", `"${imported.word}" is not letters, digits and single hyphens`);
    if (imported.listed.trim() === "") lack("imported.listed", "is empty");
    if (imported.on.length === 0) lack("imported.on", "names no owner");
    for (const other of imported.through ?? []) {
      const through = (definitions as Record<string, AnyResourceDefinition | undefined>)[other];
      if (!through || !("find" in through.imported)) lack("imported.through", `${other} is not a kind the importer finds`);
    }
  }
  // A Terraform type's instance names one object (an object kind reads it by its key) or the settings of its owner.
  if (definition.terraform?.length) {
    if (!("find" in imported)) lack("terraform", "a kind the importer does not find");
    else if (definition.kind === "object" && !imported.findOne) lack("imported.findOne", "a Terraform state names one object of it");
  }
  // The class users declare, its row in the reference, and its module of the shared tests.
  if (declarationOf((platform as Record<string, unknown>)[kind])?.name !== kind) lack("class", "the package exports no class of it");
  if (!resourcesDoc.includes(`\`${kind}\``)) lack("docs", "docs/resources.md names it nowhere");
  if (!KIND_TESTS.has(kind)) lack("tests", "test/kinds has no module of it (its verify-matrix rows and secrets declarations)");
  return problems;
}

describe("every registered kind declares every part", () => {
  it.each(KINDS.map(([kind, definition]) => [kind, definition] as const))("%s", (kind, definition) => {
    expect(lacks(kind, definition)).toEqual([]);
  });

  it("no two kinds give names the same word, or claim the same Terraform type", () => {
    const words = KINDS.flatMap(([, definition]) => ("word" in definition.imported ? [definition.imported.word] : []));
    expect(words.filter((word, index) => words.indexOf(word) !== index)).toEqual([]);
    const types = KINDS.flatMap(([, definition]) => (definition.terraform ?? []).map((entry) => String(entry.type)));
    expect(types.filter((type, index) => types.indexOf(type) !== index)).toEqual([]);
  });

  it("test/kinds holds a module of registered kinds only", () => {
    expect([...KIND_TESTS.keys()].filter((kind) => !(kind in definitions))).toEqual([]);
  });

  it("names what a kind lacks", () => {
    const badge = definitions.Badge as AnyResourceDefinition;
    expect(lacks("Badge", { ...badge, words: { noun: "ProjectBadge" }, imported: { ...badge.imported, word: "Badge" } } as AnyResourceDefinition)).toEqual([
      'Badge: words.noun: "ProjectBadge" is not words',
      'Badge: imported.word: "Badge" is not letters, digits and single hyphens',
    ]);
    expect(lacks("Milestone", { ...badge, name: "Milestone" } as AnyResourceDefinition)).toEqual([
      "Milestone: class: the package exports no class of it",
      "Milestone: docs: docs/resources.md names it nowhere",
      "Milestone: tests: test/kinds has no module of it (its verify-matrix rows and secrets declarations)",
    ]);
  });
});

/** What each module of src/resources exports that is a kind: its classes of resources, and the declarations they are made from. */
async function kindsOfModules(): Promise<{ module: string; name: string; value: unknown }[]> {
  const dir = path.resolve(__dirname, "../../src/resources");
  const found: { module: string; name: string; value: unknown }[] = [];
  // kinds.ts and index.ts re-export the modules' kinds: the registration itself.
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".ts") && name !== "kinds.ts" && name !== "index.ts").sort()) {
    const exported = (await import(path.join(dir, file))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(exported)) {
      const isClass = typeof value === "function" && value.prototype instanceof PlatformResource;
      const isDeclaration = typeof value === "object" && value !== null && "schema" in value && "imported" in value && "words" in value;
      if (isClass || isDeclaration) found.push({ module: file, name, value });
    }
  }
  return found;
}

/** Why each of a resource module's kinds is not registered, as `module: name: why`. */
function unregistered(exported: { module: string; name: string; value: unknown }[], registered: Readonly<Record<string, AnyResourceDefinition>>): string[] {
  const declarations = new Set(Object.values(registered));
  return exported.flatMap(({ module, name, value }) => {
    if (typeof value !== "function") {
      return declarations.has(value as AnyResourceDefinition) ? [] : [`${module}: ${name}: no registered kind's class is made from it (its class's block in src/resources/kinds.ts)`];
    }
    const declaration = declarationOf(value);
    if (!declaration) return [`${module}: ${name}: the class names no kind (ofKind in its static block)`];
    return registered[declaration.name] === declaration ? [] : [`${module}: ${name}: not registered (its block in src/resources/kinds.ts)`];
  });
}

describe("every resource module's kind is registered", () => {
  it("each class of a resource, and each declaration, of src/resources is a registered kind's", async () => {
    const exported = await kindsOfModules();
    expect(exported.filter(({ value }) => typeof value === "function").length).toBe(Object.keys(definitions).length);
    expect(unregistered(exported, definitions)).toEqual([]);
  });

  it("names a kind whose module is not registered", async () => {
    const exported = await kindsOfModules();
    const { Label: _label, ...withoutLabel } = definitions;
    expect(unregistered(exported, withoutLabel).sort()).toEqual([
      "label.ts: Label: not registered (its block in src/resources/kinds.ts)",
      "label.ts: labelDefinition: no registered kind's class is made from it (its class's block in src/resources/kinds.ts)",
    ]);
    class Milestone extends PlatformResource {}
    expect(unregistered([{ module: "milestone.ts", name: "Milestone", value: Milestone }], definitions)).toEqual(["milestone.ts: Milestone: the class names no kind (ofKind in its static block)"]);
  });
});

describe("the registration of the kinds", () => {
  it("names the kinds without reading a class, and checks a class when its declaration is first read", () => {
    class Milestone extends PlatformResource {}
    const read: string[] = [];
    const exported = (name: string, value: unknown) => ({ enumerable: true, get: () => (read.push(name), value) });
    const classes = Object.defineProperties({}, { Label: exported("Label", platform.Badge), Milestone: exported("Milestone", Milestone), ProjectStar: exported("ProjectStar", platform.ProjectStar) });
    const kinds = registered(classes) as Record<string, AnyResourceDefinition>;
    expect(Object.keys(kinds)).toEqual(["Label", "Milestone", "ProjectStar"]);
    expect(read).toEqual([]);
    expect(kinds.ProjectStar!.name).toBe("ProjectStar");
    expect(read).toEqual(["ProjectStar"]);
    expect(() => kinds.Label).toThrow("src/resources/kinds.ts exports Label as the class of Badge: a kind's class is named as the kind");
    expect(() => kinds.Milestone).toThrow("src/resources/kinds.ts exports Milestone, which is not the class of a kind: its class declares one with ofKind in its static block");
  });
});
