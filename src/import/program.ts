/**
 * The program text of an imported estate, in the shape of the package's
 * template (templates/platform): Pulumi.yaml, package.json, tsconfig.json,
 * .gitignore, index.ts, and one module per group or project (and the
 * instance), sorted.
 *
 * Names are fixed at the first import and kept in the manifest by what each
 * object is on the server (its kind and id), so a rename on the server never
 * changes a resource's identity; so are the config keys of secrets, so a key
 * never comes to name another object's secret. Everything that comes from the
 * server is written as a string literal that TypeScript reads as the same text
 * and that shows what it holds (every deceptive character as its escape,
 * ../visible-text.ts), never in a comment or a template literal; file names
 * are the fixed names, which are letters, digits and hyphens only.
 */
import type { AnyResourceDefinition } from "../engine/definition";
import { definitions } from "../resources";
import { isReference } from "../engine/estate";
import { importOrder } from "./order";
import { DECEPTIVE_CHARACTERS, escapeOf, visible } from "../visible-text";
import { type Declaration, type ImportValue, isSecretFromConfig, type ModuleOwner, type SecretEntry } from "./values";

/** What the manifest keeps between runs: the names given, by the object's key. */
export interface Names {
  /** Owner modules (`groups/12`) and resources (`Badge groups/12/badges/5`), by key. */
  [key: string]: string;
}

/** What the manifest keeps between runs: the config key given to each secret, by its resource's key and property (`<key> <property>`). */
export interface ConfigKeys {
  [secret: string]: string;
}

/** The template's files an imported program starts from (templates/platform), by file name. */
export type TemplateFiles = Record<"package.json" | "tsconfig.json", string> & { ".gitignore"?: string; ".gitlab-ci.yml"?: string };

export interface ProgramOptions {
  /** The Pulumi project's name. */
  projectName: string;
  /** The server's URL, written as the project's `platform:url` default (never the token). */
  url?: string;
  /** The names of earlier runs. */
  names: Names;
  /** The config keys of earlier runs; none before a first run. */
  configKeys?: ConfigKeys;
  /** The template's files, filled in as pulumi-platform-new fills them. */
  template: TemplateFiles;
  /** Secrets the program reads from config. */
  secrets: SecretEntry[];
}

export interface Program {
  /** File contents by path relative to the out dir, sorted: what each run writes anew. */
  files: Map<string, string>;
  /**
   * The template's files, filled in: written where absent, and the project's
   * own from then on (its next steps edit them: the vendored package in
   * package.json, the stacks in .gitlab-ci.yml).
   */
  starters: Map<string, string>;
  /** The names in force (earlier ones kept, new ones given): the manifest's. */
  names: Names;
  /** The config keys in force (earlier ones kept, new ones given): the manifest's. */
  configKeys: ConfigKeys;
  /** The config keys of the secrets to set, sorted. */
  secrets: string[];
}

/** The kinds in the order their declarations are written in an owner's module: a kind after those its declarations refer to. */
const KIND_ORDER = importOrder(definitions);
const DESCRIPTION = "The platform as platform-import found it";

/** The word of the names a kind's declarations get (`acme-badge-coverage`), as the kind declares it; an only-these set takes its members' (`only-these-badges`). */
function wordOf(kind: string): string {
  const imported = (definitions as Record<string, AnyResourceDefinition | undefined>)[kind]?.imported;
  if (imported && "word" in imported) return imported.word;
  if (imported && "setOf" in imported) return `only-these-${wordOf(imported.setOf)}s`;
  return slugOf(kind, "resource");
}

/** The form of every name the program gives: letters, digits and single hyphens inside. */
export const NAME_FORM = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

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

/**
 * The TypeScript identifier of a name (NAME_FORM), one to one: a hyphen
 * before a letter makes it a capital (`acme-badge-coverage` →
 * `acmeBadgeCoverage`), a hyphen before a digit is `_` (`acme-badge-x-2` →
 * `acmeBadgeX_2`, beside `acme-badge-x2` → `acmeBadgeX2`), and a name that
 * starts with a digit starts with `_`. Names hold no capital and no `_`, so
 * two names never give one identifier, and a name's is the same in every run.
 */
export function identifierOf(name: string): string {
  const camel = name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()).replace(/-(?=[0-9])/g, "_");
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

/**
 * The key a new secret's config entry would have: the resource's fixed name
 * and the property, letters and digits (`acmeIntegrationSlackWebhook`), as
 * the first runs gave them. Two secrets may come to one such key (`u-2` and
 * `u2`; `token` of `x-api` and `apiToken` of `x`): `assignConfigKeys` makes
 * each distinct.
 */
const configKeyBase = (name: string, property: string): string => {
  const base = name.replace(/-([a-z0-9])/g, (_, character: string) => character.toUpperCase());
  // Config keys start with a letter: a name from a path such as `2024-archive` gets one.
  return `${/^[a-z]/.test(base) ? base : `secret${base}`}${property[0]!.toUpperCase()}${property.slice(1)}`;
};

const secretOf = (secret: SecretEntry) => `${secret.key} ${secret.property}`;

/**
 * The config key of each secret: earlier ones kept (also those of objects
 * gone, so a key never names another object's secret), new ones given in a
 * fixed order, each distinct (`acmeUpstreamU2Password`, then
 * `acmeUpstreamU2Password2`).
 */
function assignConfigKeys(secrets: readonly SecretEntry[], names: Names, earlier: ConfigKeys): ConfigKeys {
  const keys: ConfigKeys = { ...earlier };
  const taken = new Set(Object.values(earlier));
  const fresh = secrets
    .filter((secret) => keys[secretOf(secret)] === undefined)
    .map((secret) => ({ secret, name: names[secret.key]! }))
    .sort((a, b) => compareText(a.name, b.name) || compareText(a.secret.property, b.secret.property));
  for (const { secret, name } of fresh) {
    const base = configKeyBase(name, secret.property);
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}${n}`;
    taken.add(key);
    keys[secretOf(secret)] = key;
  }
  return keys;
}

/** Text as a TypeScript string literal: it reads as the same text, and shows it (each deceptive character as its escape). */
export const stringLiteral = (text: string): string => visible(JSON.stringify(text));

/** Writes a value as TypeScript: strings as JSON literals, references as outputs, secrets as config reads (`configKeys`: by property). */
export function literalOf(value: ImportValue, variables: ReadonlyMap<string, string>, indent: string, configKeys: ReadonlyMap<string, string> = new Map()): string {
  if (isReference(value)) {
    const variable = variables.get(value.reference);
    return variable === undefined ? literalOf(value.value, variables, indent, configKeys) : `${variable}.${value.output}`;
  }
  if (isSecretFromConfig(value)) return `config.requireSecret(${stringLiteral(configKeys.get(value.secretConfig) ?? value.secretConfig)})`;
  if (typeof value === "string") return stringLiteral(value);
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

const propertyKey = (key: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : stringLiteral(key));

const OWNER_WORDS = { group: "A group", project: "A project", instance: "The instance" } as const;

function moduleText(owner: ModuleOwner, declarations: Declaration[], names: Names, configKeys: ConfigKeys): string {
  const kinds = [...new Set(declarations.map((declaration) => declaration.kind))].sort(compareText);
  const variables = new Map<string, string>();
  // A declaration's name holds its owner's and a kind's word (`acme-badge`), so its identifier has a capital or `_`: never one of these.
  const moduleIdentifiers = new Set<string>(["config", "fullPath", "pulumi"]);
  for (const declaration of declarations) {
    const identifier = identifierOf(names[declaration.key]!);
    if (moduleIdentifiers.has(identifier)) throw new Error(`the name ${names[declaration.key]} gives the identifier ${identifier}, which the module already holds`);
    moduleIdentifiers.add(identifier);
    variables.set(declaration.key, identifier);
  }
  // The properties a declaration reads from config: its write-only secrets, each with the key given to it.
  const secretsOf = (declaration: Declaration) => Object.keys(declaration.args).filter((property) => isSecretFromConfig(declaration.args[property]));
  const usesConfig = declarations.some((declaration) => secretsOf(declaration).length > 0);
  const lines: string[] = [
    `// ${OWNER_WORDS[owner.kind]}${owner.kind === "instance" ? "" : ` (id ${owner.id})`}, imported by platform-import. Each object is taken over by its id`,
    "// with the `import` option: the first preview shows takeovers that overwrite nothing. This file is",
    "// yours to edit; a later platform-import run never overwrites it once edited.",
  ];
  if (usesConfig) lines.push('import * as pulumi from "@pulumi/pulumi";');
  lines.push(`import { ${kinds.join(", ")} } from "pulumi-platform";`, "");
  if (owner.kind !== "instance") {
    lines.push(`/** The ${owner.kind}'s full path when imported. The program names it by its id, which a rename or a move does not change. */`);
    lines.push(`export const fullPath = ${stringLiteral(owner.fullPath)};`, "");
  }
  if (usesConfig) lines.push("const config = new pulumi.Config();", "");
  for (const declaration of declarations) {
    // A note is the import's own wording; shown as it reads all the same, so no character in it ends the comment's line.
    for (const note of declaration.notes) lines.push(`// ${visible(note)}`);
    const secrets = secretsOf(declaration);
    if (secrets.length > 0) lines.push("// Its secrets are read from the stack's config, never written here: set each config entry this reads (index.ts lists the commands).");
    const keysOfProperties = new Map(secrets.map((property) => [property, configKeys[`${declaration.key} ${property}`]!]));
    const args = literalOf(declaration.args, variables, "", keysOfProperties);
    lines.push(`export const ${variables.get(declaration.key)} = new ${declaration.kind}(${stringLiteral(names[declaration.key]!)}, ${args}, { import: ${stringLiteral(declaration.importId)} });`, "");
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
  const configKeys = assignConfigKeys(options.secrets, names, options.configKeys ?? {});
  const files = new Map<string, string>();
  const modules: string[] = [];
  for (const [key, { owner, declarations: owned }] of byOwner) {
    const sorted = [...owned].sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || compareText(names[a.key]!, names[b.key]!));
    const file = moduleFile(owner, names[key]!);
    files.set(file, moduleText(owner, sorted, names, configKeys));
    modules.push(file);
  }
  modules.sort(compareText);
  const secrets = options.secrets.map((secret) => configKeys[secretOf(secret)]!).sort(compareText);
  const index = [
    "// The platform as platform-import found it: one module per group and project (and the instance).",
    "// The first `pulumi preview` shows only takeovers that overwrite nothing; after `pulumi up` the next is clean.",
    ...(secrets.length === 0
      ? []
      : ["// Secrets the program reads from the stack's config, to set before the first preview:", ...secrets.map((configKey) => `//   pulumi config set --secret ${configKey}`)]),
    ...modules.map((file) => `import ${JSON.stringify(`./${file.replace(/\.ts$/, "")}`)};`),
    "",
  ].join("\n");
  files.set("index.ts", index);
  files.set("Pulumi.yaml", pulumiYaml(options));
  // The template's own files, filled in as pulumi-platform-new fills them.
  const starters = new Map<string, string>();
  for (const [file, text] of Object.entries(options.template).sort((a, b) => compareText(a[0], b[0]))) {
    if (text !== undefined) starters.set(file, text.split("${PROJECT}").join(options.projectName).split("${DESCRIPTION}").join(DESCRIPTION));
  }
  return { files: new Map([...files].sort((a, b) => compareText(a[0], b[0]))), starters, names, configKeys, secrets };
}

/** Text as a YAML double-quoted scalar that shows what it holds: YAML reads JSON's escapes, and `\U` (not `\u{}`) beyond the first plane. */
function yamlString(text: string): string {
  return JSON.stringify(text).replace(DECEPTIVE_CHARACTERS, (character) => {
    const point = character.codePointAt(0)!;
    return point > 0xffff ? `\\U${point.toString(16).toUpperCase().padStart(8, "0")}` : escapeOf(character);
  });
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
    ...(options.url === undefined ? [] : ["config:", `  platform:url: ${yamlString(options.url)}`]),
    "",
  ].join("\n");
}
