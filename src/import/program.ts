/**
 * The program text of an imported estate, in the shape of the package's
 * template (templates/platform): Pulumi.yaml, package.json, tsconfig.json,
 * .gitignore, index.ts, and one module per group or project (and the
 * instance), sorted.
 *
 * Names are fixed at the first import and kept in the manifest by what each
 * object is on the server (its kind and id), so a rename on the server never
 * changes a resource's identity. Everything that comes from the server is
 * written as a JSON string literal (a string TypeScript reads as the same
 * text), never in a comment or a template literal; file names are the fixed
 * names, which are letters, digits and hyphens only.
 */
import type { AnyResourceDefinition } from "../engine/definition";
import { definitions } from "../resources";
import { isReference } from "../engine/estate";
import { type Declaration, type ImportValue, isSecretFromConfig, type ModuleOwner, type SecretEntry } from "./values";

/** What the manifest keeps between runs: the names given, by the object's key. */
export interface Names {
  /** Owner modules (`groups/12`) and resources (`Badge groups/12/badges/5`), by key. */
  [key: string]: string;
}

export interface ProgramOptions {
  /** The Pulumi project's name. */
  projectName: string;
  /** The server's URL, written as the project's `platform:url` default (never the token). */
  url?: string;
  /** The names of earlier runs. */
  names: Names;
  /** The template's package.json, tsconfig.json and .gitignore (templates/platform), by file name. */
  template: Record<"package.json" | "tsconfig.json", string> & { ".gitignore"?: string };
  /** Secrets the program reads from config. */
  secrets: SecretEntry[];
}

export interface Program {
  /** File contents by path relative to the out dir, sorted. */
  files: Map<string, string>;
  /** The names in force (earlier ones kept, new ones given): the manifest's. */
  names: Names;
  /** The config keys of the secrets to set, sorted. */
  secrets: string[];
}

const KIND_ORDER = Object.keys(definitions);
const DESCRIPTION = "The platform as platform-import found it";

/** The word of the names a kind's declarations get (`acme-badge-coverage`), as the kind declares it; an only-these set takes its members' (`only-these-badges`). */
function wordOf(kind: string): string {
  const imported = (definitions as Record<string, AnyResourceDefinition | undefined>)[kind]?.imported;
  if (imported && "word" in imported) return imported.word;
  if (imported && "setOf" in imported) return `only-these-${wordOf(imported.setOf)}s`;
  return slugOf(kind, "resource");
}

/** Letters, digits and single hyphens: a readable name from any text, at most 48 characters. */
export function slugOf(text: string, fallback: string): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
  return slug === "" ? fallback : slug;
}

/** A TypeScript identifier from a name of letters, digits and hyphens: `acme-badge-coverage` → `acmeBadgeCoverage`. */
export function identifierOf(name: string): string {
  const camel = name.replace(/-+([a-z0-9])/g, (_, letter: string) => letter.toUpperCase()).replace(/[^A-Za-z0-9]/g, "");
  return /^[0-9]/.test(camel) ? `_${camel}` : camel;
}

/** A name not yet taken: the base, else the base with -2, -3, ... */
function unique(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
  taken.add(name);
  return name;
}

const ownerKeyOf = (owner: ModuleOwner) => (owner.kind === "instance" ? "instance" : `${owner.kind}s/${owner.id}`);

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The names of the owners and the declarations: earlier ones kept, new ones given in a fixed order. */
function assignNames(declarations: Declaration[], earlier: Names): Names {
  const names: Names = {};
  const taken = new Set<string>();
  const owners = new Map<string, ModuleOwner>();
  for (const declaration of declarations) owners.set(ownerKeyOf(declaration.owner), declaration.owner);
  // Earlier names stay, also those of objects gone from the server: a name is never reused for another object.
  for (const [key, name] of Object.entries(earlier)) {
    names[key] = name;
    taken.add(name);
  }
  const newOwners = [...owners.entries()].filter(([key]) => names[key] === undefined).sort((a, b) => compareText(a[1].fullPath, b[1].fullPath) || compareText(a[0], b[0]));
  for (const [key, owner] of newOwners) names[key] = unique(owner.kind === "instance" ? "instance" : slugOf(owner.fullPath, owner.kind), taken);
  const fresh = declarations
    .filter((declaration) => names[declaration.key] === undefined)
    .sort((a, b) => compareText(names[ownerKeyOf(a.owner)]!, names[ownerKeyOf(b.owner)]!) || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || compareText(slugOf(a.baseName, ""), slugOf(b.baseName, "")) || compareText(a.key, b.key));
  for (const declaration of fresh) {
    const word = wordOf(declaration.kind);
    const own = declaration.baseName === "" ? "" : `-${slugOf(declaration.baseName, word)}`;
    names[declaration.key] = unique(`${names[ownerKeyOf(declaration.owner)]}-${word}${own}`, taken);
  }
  return names;
}

/** A secret's config key: the resource's fixed name and the property, letters and digits (`acmeIntegrationSlackWebhook`). */
const configKeyOf = (name: string, property: string): string => {
  const base = identifierOf(name);
  // Config keys start with a letter: a name from a path such as `2024-archive` gets one.
  return `${/^[A-Za-z]/.test(base) ? base : `secret${base.replace(/^_/, "")}`}${property[0]!.toUpperCase()}${property.slice(1)}`;
};

/** Writes a value as TypeScript: strings as JSON literals, references as outputs, secrets as config reads (`configKeys`: by property). */
export function literalOf(value: ImportValue, variables: ReadonlyMap<string, string>, indent: string, configKeys: ReadonlyMap<string, string> = new Map()): string {
  if (isReference(value)) {
    const variable = variables.get(value.reference);
    return variable === undefined ? literalOf(value.value, variables, indent, configKeys) : `${variable}.${value.output}`;
  }
  if (isSecretFromConfig(value)) return `config.requireSecret(${JSON.stringify(configKeys.get(value.secretConfig) ?? value.secretConfig)})`;
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "boolean" || value === null) return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const items = value.map((item) => literalOf(item, variables, inner, configKeys));
    const flat = `[${items.join(", ")}]`;
    return flat.length <= 80 && !flat.includes("\n") ? flat : `[\n${items.map((item) => `${inner}${item},`).join("\n")}\n${indent}]`;
  }
  if (typeof value === "object" && value !== undefined) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([key, item]) => `${inner}${propertyKey(key)}: ${literalOf(item, variables, inner, configKeys)},`).join("\n")}\n${indent}}`;
  }
  return "undefined";
}

const propertyKey = (key: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key));

const OWNER_WORDS = { group: "A group", project: "A project", instance: "The instance" } as const;

function moduleText(owner: ModuleOwner, declarations: Declaration[], names: Names, secretKeys: ReadonlySet<string>): string {
  const kinds = [...new Set(declarations.map((declaration) => declaration.kind))].sort(compareText);
  const variables = new Map<string, string>();
  const usedIdentifiers = new Set<string>(["config", "fullPath", "pulumi"]);
  for (const declaration of declarations) variables.set(declaration.key, unique(identifierOf(names[declaration.key]!), usedIdentifiers));
  const usesConfig = declarations.some((declaration) => secretKeys.has(declaration.key));
  const lines: string[] = [
    `// ${OWNER_WORDS[owner.kind]}${owner.kind === "instance" ? "" : ` (id ${owner.id})`}, imported by platform-import. Each object is taken over by its id`,
    "// with the `import` option: the first preview shows takeovers that overwrite nothing. This file is",
    "// yours to edit; a later platform-import run never overwrites it once edited.",
  ];
  if (usesConfig) lines.push('import * as pulumi from "@pulumi/pulumi";');
  lines.push(`import { ${kinds.join(", ")} } from "pulumi-platform";`, "");
  if (owner.kind !== "instance") {
    lines.push(`/** The ${owner.kind}'s full path when imported. The program names it by its id, which a rename or a move does not change. */`);
    lines.push(`export const fullPath = ${JSON.stringify(owner.fullPath)};`, "");
  }
  if (usesConfig) lines.push("const config = new pulumi.Config();", "");
  for (const declaration of declarations) {
    for (const note of declaration.notes) lines.push(`// ${note}`);
    if (secretKeys.has(declaration.key)) lines.push("// The server never shows its secrets: set each config entry this reads (index.ts lists the commands).");
    const configKeys = new Map(Object.keys(declaration.args).map((property) => [property, configKeyOf(names[declaration.key]!, property)]));
    const args = literalOf(declaration.args, variables, "", configKeys);
    lines.push(`export const ${variables.get(declaration.key)} = new ${declaration.kind}(${JSON.stringify(names[declaration.key])}, ${args}, { import: ${JSON.stringify(declaration.importId)} });`, "");
  }
  return lines.join("\n");
}

/** Where an owner's module goes: a fixed name of letters, digits and hyphens, so never a path of the server's. */
const moduleFile = (owner: ModuleOwner, name: string) => (owner.kind === "instance" ? "instance.ts" : `${owner.kind}s/${name}.ts`);

export function programOf(declarations: Declaration[], options: ProgramOptions): Program {
  const names = assignNames(declarations, options.names);
  const byOwner = new Map<string, { owner: ModuleOwner; declarations: Declaration[] }>();
  for (const declaration of declarations) {
    const key = ownerKeyOf(declaration.owner);
    if (!byOwner.has(key)) byOwner.set(key, { owner: declaration.owner, declarations: [] });
    byOwner.get(key)!.declarations.push(declaration);
  }
  const secretKeys = new Set(options.secrets.map((secret) => secret.key));
  const files = new Map<string, string>();
  const modules: string[] = [];
  for (const [key, { owner, declarations: owned }] of byOwner) {
    const sorted = [...owned].sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || compareText(names[a.key]!, names[b.key]!));
    const file = moduleFile(owner, names[key]!);
    files.set(file, moduleText(owner, sorted, names, secretKeys));
    modules.push(file);
  }
  modules.sort(compareText);
  const secrets = options.secrets.map((secret) => configKeyOf(names[secret.key]!, secret.property)).sort(compareText);
  const index = [
    "// The platform as platform-import found it: one module per group and project (and the instance).",
    "// The first `pulumi preview` shows only takeovers that overwrite nothing; after `pulumi up` the next is clean.",
    ...(secrets.length === 0
      ? []
      : ["// Secrets the server never shows, to set before the first preview:", ...secrets.map((configKey) => `//   pulumi config set --secret ${configKey}`)]),
    ...modules.map((file) => `import ${JSON.stringify(`./${file.replace(/\.ts$/, "")}`)};`),
    "",
  ].join("\n");
  files.set("index.ts", index);
  files.set("Pulumi.yaml", pulumiYaml(options));
  // The template's own files, filled in as pulumi-platform-new fills them.
  for (const [file, text] of Object.entries(options.template)) files.set(file, text.split("${PROJECT}").join(options.projectName).split("${DESCRIPTION}").join(DESCRIPTION));
  return { files: new Map([...files].sort((a, b) => compareText(a[0], b[0]))), names, secrets };
}

function pulumiYaml(options: ProgramOptions): string {
  return [
    `name: ${options.projectName}`,
    `description: ${DESCRIPTION}`,
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    typescript: true",
    "# The token is never written here: pulumi config set --secret platform:token <token>",
    ...(options.url === undefined ? [] : ["config:", `  platform:url: ${JSON.stringify(options.url)}`]),
    "",
  ].join("\n");
}
