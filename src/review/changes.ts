/**
 * What a preview will do, as a reviewer reads it: each step as the objects it
 * deletes, replaces, takes over, updates or creates, with whose they are and
 * each changed field before and after; what a refresh found changed out of
 * band; what the preview refused. Secret values never reach it: the CLI writes
 * them as `[secret]`, and the fields a resource declares secret are named only.
 */
import { createHash } from "node:crypto";
import { type Diagnostic, isStackResource, type PreviewOutput, type PreviewStep, recordsFailedCreate, SECRET, type StepState, UNKNOWN } from "./preview";
import { type KindTerms, OWNER_INPUTS, termsOf, unownedWords } from "./terms";
import { envelopeOf, SECRETS_CHANGED_KEY, SECRETS_UNREAD_KEY, SHOWN_ENGINE_KEYS, type Takeover } from "../engine/envelope";
import { named } from "../engine/definition";
import { differingPaths } from "../engine/values";

/** The kinds of change, in the order a reviewer reads them: what destroys first. */
export const CHANGE_KINDS = ["delete", "replace", "removal", "takeover", "update", "create", "drift"] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * A value as the report may show it: its text, or the fact that it is secret,
 * not known yet, absent, or the user of the platform's token (a new owner). A text
 * longer than the report shows is cut, with its length and the SHA-256 digest
 * of the whole text beside it, so two values that differ past the cut differ
 * here too (a secret is never digested: it is only `secret`).
 */
export type Shown =
  | { value: string }
  | { value: string; characters: number; sha256: string }
  | { secret: true }
  | { unknown: true }
  | { absent: true }
  | { tokenUser: true };

/** The longest text a value is shown with; a longer one is cut and digested. */
export const SHOWN_CHARACTERS = 300;

/** An object as a reviewer names it: the kind's noun (the tool's words), its number, and its name as the program or server gave it. */
export interface ObjectName {
  noun: string;
  id?: string;
  label?: string;
}

/** Whose object it is: the kind of owner in the tool's words (`group`, `the instance`) and its path as the program gave it. */
export interface OwnerName {
  words: string;
  path?: string;
}

export interface FieldChange {
  /** The property path as the program names it: `name`, `variables.DEPLOY_TOKEN.value`. */
  path: string;
  before: Shown;
  after: Shown;
}

export interface Change {
  kind: ChangeKind;
  /** The resource kind: `Badge`. */
  type: string;
  /** The program's name of the resource; for a removal, the exclusive set's. */
  name: string;
  urn: string;
  /** Whose object it is: `group acme`, `project acme/web`, `the instance`; for a replacement, the deleted object's. */
  owner: string;
  /** The object as a reviewer names it: "badge 4 `legacy`". */
  object: string;
  /** A replacement whose owner changes: whose the new object is (the old one is deleted under `owner`). */
  newOwner?: string;
  /** Why a replacement replaces (the properties that cannot change in place). */
  reasons?: string[];
  /** What the reviewer should know that the fields do not say. */
  note?: string;
  /** A delete that takes other objects with it (a group's subgroups and projects), counted: listed first among the deletes. */
  takes?: string;
  /** A delete the server only marks for deletion (restorable for a while): never said to be gone. */
  marks?: true;
  /** An update that is one act of its kind (a rotation): the verb said instead of "updates", and its past form. */
  verb?: { now: string; done: string };
  fields: FieldChange[];
}

export interface Problem {
  /** The resource the problem is about (its program name and kind), when the engine said. */
  resource?: string;
  message: string;
}

/**
 * Secret values a refresh could not compare, because the server never shows
 * them (a hidden CI/CD variable's value): neither drifted nor matching.
 */
export interface Unread {
  type: string;
  name: string;
  urn: string;
  owner: string;
  object: string;
  /** The properties not compared: `value`. */
  paths: string[];
}

export interface Review {
  /** The preview succeeded: no error, whatever the changes. */
  ok: boolean;
  counts: Record<ChangeKind, number>;
  changes: Change[];
  problems: Problem[];
  warnings: Problem[];
  /** What the refresh could not compare (absent when it compared everything). */
  unread?: Unread[];
}

/** Whether an input is no field a reviewer reads: the engine's own (`__provider`, the takeover, the owner's path), or one of the kind's `notFields`. */
const isNotField = (terms: KindTerms, key: string) => key.startsWith("__") || SHOWN_ENGINE_KEYS.includes(key) || terms.notFields.has(key);

/** `pulumi-nodejs:dynamic/platform:Badge` → `Badge`; another provider's type as it is. */
export function kindOf(type: string | undefined, urn: string): string {
  const full = type ?? urn.split("::").at(-2) ?? "";
  return /:dynamic\/platform:(\w+)$/.exec(full)?.[1] ?? full;
}

export const nameOf = (urn: string) => urn.split("::").at(-1) ?? urn;

/** One value as the report shows it: strings as they are, the rest as compact JSON; a long text cut, with its length and digest. */
export function shown(value: unknown, secret = false): Shown {
  if (value === undefined || value === null) return { absent: true };
  if (secret || containsSecret(value)) return { secret: true };
  if (value === UNKNOWN) return { unknown: true };
  const text = typeof value === "string" ? value : jsonText(value);
  if (text.length <= SHOWN_CHARACTERS) return { value: text };
  // Cut before a character, never inside one: a lone surrogate would show as an escape the value does not hold.
  const cut = /[\uD800-\uDBFF]/.test(text[SHOWN_CHARACTERS - 2]!) ? SHOWN_CHARACTERS - 2 : SHOWN_CHARACTERS - 1;
  return { value: text.slice(0, cut), characters: text.length, sha256: createHash("sha256").update(text).digest("hex") };
}

/** Every object and array under a value, the value first: a loop, so a value nested thousands deep costs no stack. */
function* nodesOf(value: unknown): Generator<unknown> {
  const pending = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    yield node;
    if (node !== null && typeof node === "object") for (const inner of Array.isArray(node) ? node : Object.values(node)) pending.push(inner);
  }
}

function containsSecret(value: unknown): boolean {
  for (const node of nodesOf(value)) if (isSecretValue(node)) return true;
  return false;
}

/** A secret as the CLI writes it: `[secret]`, or in some releases {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value}. */
function isSecretValue(value: unknown): boolean {
  return value === SECRET || (value !== null && typeof value === "object" && !Array.isArray(value) && "4dabf18193072939515e22adb298388d" in value);
}

/** A list or an object that is no secret itself, whose parts may be shown apart. */
const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] => value !== null && typeof value === "object" && !isSecretValue(value);

/** The path of a part, in the form of the engine's detailed diff: `variables.DEPLOY_TOKEN`, `inputs[0]`, `labels["a.b"]`. */
function partPath(path: string, key: string, inList: boolean): string {
  if (inList) return `${path}[${key}]`;
  return /^[A-Za-z_][\w-]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * One field before and after, as rows: the value whole, or, where it holds a
 * secret among plain values (a schedule's variables, one of them secret), its
 * parts apart down to each secret (and the parts of each sibling alike), so
 * that only the secrets are masked and every name and plain value shows. A field the resource declares secret is
 * one row, masked. `changedOnly` (an update, drift) leaves out the parts that
 * are the same on both sides, unless none differs.
 */
function fieldRows(path: string, before: unknown, after: unknown, secret: boolean, changedOnly: boolean): FieldChange[] {
  const rows: FieldChange[] = [];
  const row = (at: string, was: unknown, is: unknown) => rows.push({ path: at, before: shown(was, secret), after: shown(is, secret) });
  // A loop, not recursion: a value may nest thousands deep.
  // Each entry: a path, its value before and after, and whether it is shown by parts as its siblings are.
  const pending: [string, unknown, unknown, boolean][] = [[path, before, after, false]];
  while (pending.length > 0) {
    const [at, was, is, likeSiblings] = pending.pop()!;
    const splits = !secret && (likeSiblings || containsSecret(was) || containsSecret(is)) && [was, is].every((side) => side === undefined || side === null || isContainer(side));
    const inList = Array.isArray(was ?? is);
    if (!splits || [was, is].some((side) => isContainer(side) && Array.isArray(side) !== inList)) {
      row(at, was, is);
      continue;
    }
    const parts = [...new Set([...Object.keys((was ?? {}) as object), ...Object.keys((is ?? {}) as object)])];
    const partOf = (side: unknown, key: string) => (isContainer(side) ? (side as Record<string, unknown>)[key] : undefined);
    const kept = parts.filter((key) => !changedOnly || !sameValue(partOf(was, key) ?? null, partOf(is, key) ?? null));
    if (kept.length === 0) {
      row(at, was, is);
      continue;
    }
    // Where one part holds a secret, each of its siblings is shown by parts too: the items of a list alike.
    const holding = kept.some((key) => containsSecret(partOf(was, key)) || containsSecret(partOf(is, key)));
    for (const key of kept.reverse()) pending.push([partPath(at, key, inList), partOf(was, key), partOf(is, key), holding]);
  }
  return rows;
}

/** The value at a path of what a takeover overwrites: `[secret]` where the path passes through a secret. */
function overwrittenAt(overwrites: Record<string, unknown>, path: string): unknown {
  let current: unknown = overwrites;
  for (const part of pathParts(path)) {
    if (isSecretValue(current)) return SECRET;
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/**
 * A value as compact JSON, an unknown as `(known after apply)`; with
 * `sortKeys`, the same text for the same value whatever its keys' order (how
 * two values are compared). Written with a loop, not JSON.stringify's
 * recursion: a preview may nest a value thousands deep.
 */
export function jsonText(value: unknown, sortKeys = false): string {
  const out: string[] = [];
  // Each entry: a value still to write, or text to write as it is.
  const pending: ({ text: string } | { value: unknown })[] = [{ value }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if ("text" in next) {
      out.push(next.text);
      continue;
    }
    const node = next.value;
    if (node === UNKNOWN) out.push(JSON.stringify("(known after apply)"));
    else if (node === null || typeof node !== "object") out.push(JSON.stringify(node) ?? "null");
    else if (Array.isArray(node)) {
      pending.push({ text: "]" });
      for (let i = node.length - 1; i >= 0; i--) {
        pending.push({ value: node[i] === undefined ? null : node[i] });
        if (i > 0) pending.push({ text: "," });
      }
      out.push("[");
    } else {
      const keys = Object.keys(node).filter((key) => (node as Record<string, unknown>)[key] !== undefined);
      if (sortKeys) keys.sort();
      pending.push({ text: "}" });
      for (let i = keys.length - 1; i >= 0; i--) {
        pending.push({ value: (node as Record<string, unknown>)[keys[i]!] }, { text: `${i > 0 ? "," : ""}${JSON.stringify(keys[i])}:` });
      }
      out.push("{");
    }
  }
  return out.join("");
}

/** Whether two values are the same, in any order of their keys (a loop, for values nested deep). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  return jsonText(a, true) === jsonText(b, true);
}

/** The value at a detailed-diff path (`variables[0].value`, `labels["x"]`). */
function valueAt(root: Record<string, unknown> | null | undefined, path: string): unknown {
  let current: unknown = root ?? undefined;
  for (const part of pathParts(path)) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export function pathParts(path: string): string[] {
  if (!/[.[\]"]/.test(path)) return [path];
  const parts: string[] = [];
  for (const match of path.matchAll(/([^.[\]"]+)|\["([^"]*)"\]|\[(\d+)\]/g)) parts.push(match[1] ?? match[2] ?? match[3]!);
  return parts;
}

/** Whether the resource declares a property secret (its value is then never shown, even where the CLI shows it). */
function isSecretPath(terms: KindTerms, path: string): boolean {
  return terms.secretProperties.has(pathParts(path)[0] ?? "");
}

/** The changed fields of an update or replacement: the engine's detailed diff where it gave one, else the top-level inputs that differ. */
function fieldChanges(step: PreviewStep, terms: KindTerms): FieldChange[] {
  const before = step.oldState?.inputs;
  const after = step.newState?.inputs;
  return fieldsAt(step.detailedDiff ? Object.keys(step.detailedDiff) : differingKeys(before, after), before, after, terms);
}

/** Each path's value before and after, sorted by path, leaving out what is no field of the object; secrets named only. */
function fieldsAt(paths: string[], before: Record<string, unknown> | null | undefined, after: Record<string, unknown> | null | undefined, terms: KindTerms): FieldChange[] {
  return paths
    .filter((path) => !isNotField(terms, pathParts(path)[0] ?? ""))
    .sort()
    .flatMap((path) => fieldRows(path, valueAt(before, path), valueAt(after, path), isSecretPath(terms, path), true));
}

function differingKeys(before: Record<string, unknown> | null | undefined, after: Record<string, unknown> | null | undefined): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...keys].filter((key) => !sameValue(before?.[key], after?.[key]));
}

/**
 * The fields a new object is created with (its inputs, secrets named only);
 * for a settings resource's create, which overwrites settings that exist, each
 * with the value it has now (the settings the preview read: those it does not
 * overwrite have the declared value already).
 */
function createdFields(state: StepState | null | undefined, terms: KindTerms): FieldChange[] {
  const fields = Object.entries(state?.inputs ?? {})
    .filter(([key]) => !isNotField(terms, key))
    .flatMap(([path, value]) => fieldRows(path, undefined, value, isSecretPath(terms, path), false));
  const settings = settingsTakenOver(state);
  if (!settings) return fields;
  return fields.map((field) => {
    const now = pathParts(field.path)[0]! in settings.overwrites ? overwrittenAt(settings.overwrites, field.path) : undefined;
    return { ...field, before: now === undefined ? field.after : shown(now, isSecretPath(terms, field.path)) };
  });
}

/** The settings a settings resource's create takes over by nature, as the preview read them (src/engine/import.ts). */
function settingsTakenOver(state: StepState | null | undefined): Takeover | undefined {
  const { takeover } = envelopeOf(state?.inputs ?? {});
  return takeover?.byNature === true && isRecord(takeover.overwrites) ? takeover : undefined;
}

/** The fields a resource of `type` declares in a state's inputs, as a create of it records them (secrets named only). */
export const declaredFields = (state: StepState | null | undefined, type: string): FieldChange[] => createdFields(state, termsOf(type));

/**
 * The fields a refresh found changed on the server: the state recorded before
 * it (as last applied) against the state it read. The outputs name each
 * changed property; where they show it only as a secret, the inputs name
 * each plain part that changed (`variables.DEPLOY_ENVIRONMENT.value`), and
 * the engine's list of secret values that changed names the rest, which the
 * preview masks on both sides (`SECRETS_CHANGED_KEY`).
 */
function driftedFields(recorded: StepState, refreshed: StepState, terms: KindTerms): FieldChange[] {
  // What a deletion would take with the object is a fact of its contents, not of the object: never drift.
  const contents = new Set(terms.deletion ? [...Object.keys(terms.deletion.takes), terms.deletion.mode] : []);
  const keys = differingKeys(recorded.outputs, refreshed.outputs).filter((key) => !contents.has(key));
  const fields = fieldsAt(keys, recorded.outputs, refreshed.outputs, terms);
  const named = new Set(fields.map((field) => field.path));
  // A create that failed part way records the inputs it was given, not what it applied: only its outputs say what the server had.
  const inputsApplied = !recordsFailedCreate(recorded);
  const hidden = inputsApplied ? Object.keys({ ...recorded.outputs, ...refreshed.outputs }).filter((key) => !named.has(key) && !isNotField(terms, key)) : [];
  for (const key of hidden) {
    for (const path of differingPaths(recorded.inputs?.[key], refreshed.inputs?.[key], key, sameValue)) {
      const before = valueAt(recorded.inputs, path);
      const after = valueAt(refreshed.inputs, path);
      if (!containsSecret(before) && !containsSecret(after)) fields.push({ path, before: shown(before, isSecretPath(terms, path)), after: shown(after, isSecretPath(terms, path)) });
    }
  }
  const secrets = refreshed.outputs?.[SECRETS_CHANGED_KEY];
  for (const path of Array.isArray(secrets) ? secrets : []) {
    if (typeof path === "string" && !fields.some((field) => field.path === path)) fields.push({ path, before: { secret: true }, after: { secret: true } });
  }
  return fields.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * How a reviewer knows an object: the name its kind says (a group's full
 * path), alone; else its state's inputs, then its outputs, and the number its
 * id ends with.
 */
function identity(state: StepState | null | undefined, terms: KindTerms): { id?: string; label?: string } {
  const values = { ...(state?.outputs ?? {}), ...withNamedPaths(state) };
  const name = terms.name?.(values, ownerOf(state, terms).path);
  if (plain(name)) return { label: name };
  return { id: /\/(\d+)$/.exec(state?.id ?? "")?.[1], label: labelOf(values) };
}

/**
 * A state's inputs, each that names a group or project by numeric id (a
 * share's invited group) by the path the preview read for it (`namedPaths`,
 * among the inputs, or the outputs the state keeps).
 */
function withNamedPaths(state: StepState | null | undefined): Record<string, unknown> {
  const inputs = state?.inputs ?? {};
  const paths = envelopeOf(inputs).namedPaths ?? envelopeOf(state?.outputs ?? {}).namedPaths;
  if (!paths) return inputs;
  const named = { ...inputs };
  for (const [name, path] of Object.entries(paths)) if (name in named) named[name] = path;
  return named;
}

const plain = (value: unknown): value is string => typeof value === "string" && value !== "" && value !== UNKNOWN && value !== SECRET;

/** The first of the usual naming properties that holds a plain, known string. */
function labelOf(values: Record<string, unknown>): string | undefined {
  for (const key of ["name", "title", "description", "slug", "key"]) if (plain(values[key])) return values[key] as string;
  // `samlGroupName`, `userName`: a name under another word.
  const named = Object.keys(values).find((key) => /Name$/.test(key) && plain(values[key]));
  return named === undefined ? undefined : (values[named] as string);
}

/** "badge 4 `legacy`", "SAML group link `admins`", "group settings": the plain words of the data and the guard's messages. */
export function objectText({ noun, id, label }: ObjectName): string {
  return [noun, id, label === undefined ? undefined : `\`${label}\``].filter((part) => part !== undefined).join(" ");
}

export const ownerText = ({ words, path }: OwnerName): string => (path === undefined ? words : `${words} ${path}`);

/** The owner words before a path, each the tool's own (see ownerOf). */
export const OWNER_WORDS: readonly string[] = ["group", "project", "virtual registry"];

/** The owners named by the tool's words alone, but the kinds' own (see unownedWords). */
const OWNERS_IN_WORDS = new Set(["the instance", "(no owner named)", ...OWNER_WORDS.map((word) => `${word} (a new one)`)]);

/**
 * An owner's words and path, from its plain text: the words are the tool's
 * (`group`, `the instance`, `group (a new one)`), the rest the program's path;
 * a text of no such form (from data written elsewhere) is a path whole. The
 * kinds' own words are asked for last: no kind's begins with an owner word
 * (test/review/platform-kinds.test.ts), and asking loads every kind.
 */
export function ownerName(owner: string): OwnerName {
  if (OWNERS_IN_WORDS.has(owner)) return { words: owner };
  const words = OWNER_WORDS.find((word) => owner.startsWith(`${word} `));
  if (words !== undefined) return { words, path: owner.slice(words.length + 1) };
  return unownedWords().has(owner) ? { words: owner } : { words: "", path: owner };
}

/**
 * A change's object with its name apart, from its plain text: the noun is the
 * kind's (the tool's words), then the number, then the name between backticks,
 * whatever it holds. A text not of that form is a name whole.
 */
export function objectName(change: Pick<Change, "kind" | "type" | "object">): ObjectName {
  const terms = termsOf(change.type);
  const noun = change.kind === "removal" ? (terms.memberNoun ?? "object") : terms.noun;
  const parts = change.object.startsWith(noun) ? /^(?: (\d+))?(?: `([\s\S]*)`)?$/.exec(change.object.slice(noun.length)) : null;
  if (!parts) return { noun: "", label: change.object };
  return { noun, ...(parts[1] !== undefined ? { id: parts[1] } : {}), ...(parts[2] !== undefined ? { label: parts[2] } : {}) };
}

/**
 * Whose object it is, from the inputs that name the owner: a group or project
 * the program names by numeric id by the path the preview read for it (the
 * input `ownerPath` beside it, or the output the state keeps), so an owner
 * reads the same whatever the program names it by.
 */
function ownerOf(state: StepState | null | undefined, terms: KindTerms): OwnerName {
  const inputs = state?.inputs ?? {};
  for (const input of OWNER_INPUTS) {
    const value = inputs[input];
    if (value === undefined) continue;
    const words = input === "registry" ? "virtual registry" : input === "parent" ? "group" : input;
    if (value === UNKNOWN) return { words: `${words} (a new one)` };
    const byId = input !== "registry" && (typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value)));
    const path = byId ? (envelopeOf(inputs).ownerPath ?? envelopeOf(state?.outputs ?? {}).ownerPath) : undefined;
    return { words, path: path ?? (typeof value === "string" ? value : jsonText(value)) };
  }
  return { words: terms.instanceWide ? "the instance" : (terms.unowned ?? "(no owner named)") };
}

/** The kind of change a step is, or undefined for a step that changes nothing. */
function kindOfStep(step: PreviewStep): ChangeKind | undefined {
  switch (step.op) {
    case "delete":
    case "discard":
      return "delete";
    case "replace":
    case "create-replacement":
      return "replace";
    case "import":
    case "import-replacement":
      return "takeover";
    case "create":
      return isTakeover(step.newState) ? "takeover" : "create";
    case "update":
      return "update";
    default:
      return undefined;
  }
}

/** A create that takes over an object that exists: the `import` option or `adoptExisting` (the object found at preview: its takeover). */
function isTakeover(state: StepState | null | undefined): boolean {
  const inputs = state?.inputs ?? {};
  const { takeover, importId } = envelopeOf(inputs);
  // A settings resource's create takes over by nature: it is its create, shown with the values it overwrites.
  return (takeover !== undefined && takeover.byNature !== true) || inputs.adoptExisting === true || importId !== undefined;
}

export const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * What a takeover writes over: each field the program sets, with the value the
 * object has now where the provider read it at preview (`takeover.overwrites`,
 * src/engine/import.ts), or a note that the values it has are read at apply.
 */
function takeoverFields(step: PreviewStep, terms: KindTerms): Pick<Change, "fields" | "note"> {
  const declared = createdFields(step.newState, terms);
  const current = envelopeOf(step.newState?.inputs ?? {}).takeover?.overwrites;
  if (!isRecord(current)) {
    return { fields: declared, note: "the object exists; these values replace the ones it has, which are read at apply" };
  }
  const now = current as Record<string, unknown>;
  const fields = declared
    .filter((field) => pathParts(field.path)[0]! in now)
    .map((field) => ({ ...field, before: shown(overwrittenAt(now, field.path), isSecretPath(terms, field.path)) }));
  return { fields, note: fields.length === 0 ? "the object already has every declared value" : undefined };
}

/**
 * The objects a preview takes over, by the resource that takes each (its URN)
 * and the object's id (the takeover check narrated, or the `import` option's).
 */
type Takeovers = Map<string, string>;

function takeoversOf(steps: PreviewStep[]): Takeovers {
  const taken: Takeovers = new Map();
  for (const step of steps) {
    if (kindOfStep(step) !== "takeover") continue;
    const { takeover, importId } = envelopeOf(step.newState?.inputs ?? {});
    const id = takeover?.id ?? importId;
    if (id !== undefined && id !== "") taken.set(step.urn, id);
  }
  return taken;
}

/**
 * The objects an exclusive set's update deletes: what the last refresh recorded
 * and the program does not keep. A `keep` value known only at apply that comes
 * from a resource taking an object of the set over keeps that object: the
 * engine says which resources each input depends on.
 */
function removals(step: PreviewStep, terms: KindTerms, owner: OwnerName, takeovers: Takeovers): Change[] {
  const recorded = step.oldState?.inputs?.unexpected;
  const remaining = step.newState?.inputs?.unexpected;
  if (!Array.isArray(recorded)) return [];
  const left = Array.isArray(remaining) ? remaining : [];
  const keep = step.newState?.inputs?.keep;
  const kept = Array.isArray(keep) ? [...keep] : [];
  const unsure = kept.includes(UNKNOWN);
  const collection = step.oldState?.id;
  if (unsure && collection) {
    for (const urn of keepDependencies(step.newState)) {
      const taken = takeovers.get(urn);
      if (taken?.startsWith(`${collection}/`)) kept.push(taken);
    }
  }
  const deleted: Change[] = [];
  for (const entry of recorded as Record<string, unknown>[]) {
    if (left.some((other) => sameValue(other, entry)) || isKept(entry, kept)) continue;
    const change = entryRemoval(step, terms, owner, entry);
    if (unsure) {
      const unless = "unless a keep value known only at apply names it (an object this run creates or takes over)";
      change.note = change.note === undefined ? unless : `${change.note}, ${unless}`;
    }
    deleted.push(change);
  }
  return deleted;
}

/** The resources an exclusive set's `keep` depends on (the engine's record of each input's dependencies, else all of the resource's). */
function keepDependencies(state: StepState | null | undefined): string[] {
  const byInput = (state as { propertyDependencies?: unknown } | null | undefined)?.propertyDependencies;
  const all = isRecord(byInput) ? byInput.keep : (state as { dependencies?: unknown } | null | undefined)?.dependencies;
  return Array.isArray(all) ? all.filter((urn): urn is string => typeof urn === "string") : [];
}

/** Whether a `keep` value names the entry: its id (a number, or a resource id ending in it) or its name. */
function isKept(entry: Record<string, unknown>, keep: unknown[]): boolean {
  const names = Object.values(entry).map(String);
  return keep.some((value) => names.includes(String(value)) || (typeof value === "string" && names.some((name) => value.endsWith(`/${name}`))));
}

/** The naming fields of a change: its object and owner in plain words. */
function naming(named: ObjectName, ownedBy: OwnerName): Pick<Change, "object" | "owner"> {
  return { object: objectText(named), owner: ownerText(ownedBy) };
}

function entryRemoval(step: PreviewStep, terms: KindTerms, owner: OwnerName, entry: Record<string, unknown>): Change {
  const idKey = Object.keys(entry).find((key) => /Id$/.test(key) && typeof entry[key] === "number");
  const name = terms.members?.name?.(entry);
  const said = terms.members?.says?.({ kind: "delete", before: entry, owner: ownerInWords(ownerText(owner)) });
  return {
    kind: "removal",
    type: terms.kind,
    name: nameOf(step.urn),
    urn: step.urn,
    ...naming(plain(name) ? { noun: terms.memberNoun ?? "object", label: name } : { noun: terms.memberNoun ?? "object", id: idKey ? String(entry[idKey]) : undefined, label: labelOf(entry) }, owner),
    ...(said ? { note: said } : {}),
    fields: Object.entries(entry).map(([path, value]) => ({ path, before: shown(value), after: { absent: true } })),
  };
}

/**
 * A schedule updated with `takeOwnership` whose owner is someone else: the
 * update takes it over, and its pipelines then run as the user of the
 * platform's token. The owner is named where the state holds it; after an
 * apply, the new owner too (and nothing is said when it stayed the same).
 */
function ownershipChange(step: PreviewStep, terms: KindTerms): Pick<Change, "fields" | "note"> | undefined {
  const ownership = terms.ownership;
  if (!ownership || step.newState?.inputs?.[ownership.option] !== true) return undefined;
  const path = `${ownership.output} (whom its pipelines run as)`;
  const before = shown(step.oldState?.outputs?.[ownership.output]);
  const owner = step.newState.outputs?.[ownership.output];
  if (typeof owner === "string" && owner !== UNKNOWN) {
    const after = shown(owner);
    return sameValue(before, after) ? undefined : { fields: [{ path, before, after }] };
  }
  return {
    note: "takes ownership where someone else owns it: its pipelines then run as the user of the platform's token",
    fields: [{ path, before, after: { tokenUser: true } }],
  };
}

function changeOf(step: PreviewStep, kind: ChangeKind): Change {
  const type = kindOf(step.newState?.type ?? step.oldState?.type, step.urn);
  const terms = termsOf(type);
  // A replacement deletes the old object under its owner; the new one may have another (a badge moved to another project).
  const state = kind === "delete" || kind === "replace" ? (step.oldState ?? step.newState) : (step.newState ?? step.oldState);
  const { id, label } = identity(kind === "create" ? step.newState : (step.oldState ?? step.newState), terms);
  const change: Change = {
    kind,
    type,
    name: nameOf(step.urn),
    urn: step.urn,
    ...naming({ noun: terms.noun, id, label: label ?? identity(step.newState, terms).label }, ownerOf(state, terms)),
    fields: [],
  };
  if (kind === "replace" && step.newState) {
    const newOwner = ownerOf(step.newState, terms);
    if (ownerText(newOwner) !== change.owner) change.newOwner = ownerText(newOwner);
  }
  if (kind === "delete") Object.assign(change, deletionFacts(state, terms));
  if (kind === "replace") change.reasons = (step.replaceReasons ?? step.diffReasons ?? []).filter((reason) => !isNotField(terms, reason));
  if (kind === "update" || kind === "replace") change.fields = fieldChanges(step, terms);
  if (kind === "update" && terms.update) Object.assign(change, { verb: { now: terms.update.verb, done: terms.update.done }, note: terms.update.note });
  if (kind === "create") {
    change.fields = createdFields(step.newState, terms);
    if (settingsTakenOver(step.newState)) change.note = "the settings exist: each declared one before (as the preview read it) and after";
  }
  if (kind === "takeover") Object.assign(change, takeoverFields(step, terms));
  const said = kind === "drift" ? undefined : stepWords(step, kind, terms, change);
  if (said) change.note = change.note === undefined ? said : `${change.note}; ${said}`;
  const ownership = kind === "update" ? ownershipChange(step, terms) : undefined;
  if (ownership) {
    if (ownership.note) change.note = ownership.note;
    change.fields.push(...ownership.fields);
  }
  if (!change.note && (kind === "create" || kind === "update" || kind === "takeover")) change.note = writeOnlyNote(change.fields, terms);
  return change;
}

/**
 * What a reviewer must know of the write-only fields a change sets (a
 * hook's token): the server never shows them, so neither this review nor a
 * drift check can tell what the object holds now.
 */
function writeOnlyNote(fields: readonly FieldChange[], terms: KindTerms): string | undefined {
  const names = [...new Set(fields.map((field) => pathParts(field.path)[0]!).filter((name) => terms.writeOnlyProperties.has(name)))].sort();
  if (names.length === 0) return undefined;
  return `${names.join(", ")} ${names.length === 1 ? "is" : "are"} never shown by the server: the values it holds now cannot be read back, and a change made to them outside this program is not seen as drift`;
}

/**
 * What a kind's delete takes with it and how the server deletes it, from the
 * object's recorded outputs (as the last refresh or apply read them): the
 * counts, and whether it goes at once or is only marked for deletion.
 */
function deletionFacts(state: StepState | null | undefined, terms: KindTerms): Pick<Change, "takes" | "note" | "marks"> {
  const deletion = terms.deletion;
  if (!deletion) return {};
  const outputs = state?.outputs ?? {};
  const counts = Object.entries(deletion.takes).flatMap(([output, what]) => {
    const value = outputs[output];
    if (value === 0) return [];
    return [typeof value === "number" ? `${value} ${value === 1 ? what.replace(/s$/, "") : what}` : `${what} (more than the server counts)`];
  });
  const known = Object.keys(deletion.takes).some((output) => typeof outputs[output] === "number" || outputs[output] === null);
  const takes = !known ? "what it holds (not counted: the state does not say)" : counts.length > 0 ? counts.join(" and ") : "nothing else";
  const mode = outputs[deletion.mode] as { delayed?: unknown; periodDays?: unknown } | undefined;
  const how =
    mode?.delayed === true
      ? `with ${takes}; restorable for ${typeof mode.periodDays === "number" ? `${mode.periodDays} days` : "the instance's deletion period (30 days by default)"} after it is marked, then removed by the server`
      : mode?.delayed === false
        ? `the server deletes it at once, with ${takes}: nothing can be restored`
        : `with ${takes} (whether the server deletes it at once or marks it for deletion is not known: the state does not say)`;
  return { takes: counts.length > 0 || !known ? takes : undefined, note: how, ...(mode?.delayed === true ? { marks: true as const } : {}) };
}

/**
 * What the step gives or takes, where its kind says it in words (`words.says`):
 * a takeover's before is what it overwrites, as the preview read it; a
 * replacement that moves the object to another owner takes under the one and
 * gives under the other.
 */
function stepWords(step: PreviewStep, kind: ChangeKind, terms: KindTerms, change: Change): string | undefined {
  const says = terms.says;
  if (!says) return undefined;
  const owner = ownerInWords(change.owner);
  const after = kind === "delete" || !step.newState?.inputs ? undefined : withNamedPaths(step.newState);
  const recorded = step.oldState?.inputs ? withNamedPaths(step.oldState) : undefined;
  if (kind === "replace" && change.newOwner !== undefined) {
    const words = [recorded && says({ kind: "delete", before: recorded, owner }), after && says({ kind: "create", after, owner: ownerInWords(change.newOwner) })];
    return words.filter((part): part is string => typeof part === "string" && part !== "").join("; ") || undefined;
  }
  const overwrites = envelopeOf(after ?? {}).takeover?.overwrites;
  const before = kind === "create" ? undefined : kind === "takeover" ? (isRecord(overwrites) && after ? { ...after, ...overwrites } : undefined) : recorded;
  const stepKind = kind === "removal" || kind === "drift" ? "delete" : kind;
  return says({ kind: stepKind, ...(before ? { before } : {}), ...(after ? { after } : {}), owner });
}

/** An owner in a step's words: the tool's words, its path `named` (shown as a value). */
function ownerInWords(owner: string): string {
  const { words, path } = ownerName(owner);
  return [words || undefined, path === undefined ? undefined : named(path)].filter((part) => part !== undefined).join(" ");
}

/** The changes of one step: none, one, or (an exclusive set) one per object it deletes besides its own. */
function stepChanges(step: PreviewStep, takeovers: Takeovers): Change[] {
  const kind = kindOfStep(step);
  // The stack's own resource is the engine's record of the program (its exports): nothing on a server, nothing to review.
  if (kind === undefined || isStackResource(step.urn)) return [];
  const change = changeOf(step, kind);
  const terms = termsOf(change.type);
  if (!terms.memberNoun || kind !== "update") return [change];
  const deleted = removals(step, terms, ownerName(change.owner), takeovers);
  const fields = change.fields.filter((field) => pathParts(field.path)[0] !== "unexpected");
  if (fields.length > 0) deleted.push({ ...change, fields });
  return deleted;
}

/**
 * What a refresh found: with `--refresh`, the CLI writes each refresh step with
 * the state recorded before it, and the refreshed state as the old state of
 * the resource's next step (none when the object was gone).
 */
function driftOf(recorded: StepState, step: PreviewStep): Change | undefined {
  const type = kindOf(recorded.type, step.urn);
  const terms = termsOf(type);
  const gone = !step.oldState;
  const fields = gone ? [] : driftedFields(recorded, step.oldState!, terms).filter((field) => pathParts(field.path)[0] !== "unexpected");
  if (!gone && fields.length === 0) return undefined;
  const { id, label } = identity(recorded, terms);
  return {
    kind: "drift",
    type,
    name: nameOf(step.urn),
    urn: step.urn,
    ...naming({ noun: terms.noun, id, label }, ownerOf(recorded, terms)),
    fields: gone ? [{ path: "(the object)", before: { value: "exists" }, after: { value: "deleted outside this program" } }] : fields,
  };
}

/** Whether a state is of an object a replacement left to delete: the engine deletes it at the next apply. */
export const isPendingDelete = (state: StepState | null | undefined) => (state as { delete?: unknown } | null | undefined)?.delete === true;

/**
 * Whether a state, as recorded before this run, is of an object a delete-first
 * replacement deleted already: an apply cut between its delete and its create
 * leaves it so marked, and the next apply only creates. (A preview marks the
 * old state of every delete-first replacement so; only the refresh's record
 * of the state before it tells the cut one apart.)
 */
const isPendingReplacement = (state: StepState | null | undefined) => (state as { pendingReplacement?: unknown } | null | undefined)?.pendingReplacement === true;

/**
 * The delete of an object a replacement left behind, when an apply was cut
 * between the replacement's create and its delete: a preview has no step for
 * it, only the refresh of the old object, yet every later `up` (one with a
 * saved plan too) deletes it; an apply's events have its `delete-replaced`.
 */
function pendingDelete(step: PreviewStep, applied: boolean): Change {
  const change = changeOf(step, "delete");
  change.note = applied
    ? "the rest of a replacement an earlier apply cut short"
    : "the rest of a replacement an earlier apply cut short (its new object was made): the next apply deletes it";
  return change;
}

/**
 * Every step's changes, and the drift a refresh found for the resources it
 * refreshed. `applied`: the steps are an apply's events, not a preview's.
 */
function changesOf(steps: PreviewStep[], applied: boolean): Change[] {
  const recorded = new Map<string, StepState>();
  const takeovers = takeoversOf(steps);
  const changes: Change[] = [];
  const leftDeletes: Change[] = [];
  for (const step of steps) {
    if (step.op === "refresh" && isPendingDelete(step.oldState)) {
      if (!applied) changes.push(pendingDelete(step, false));
      continue;
    }
    if (step.op === "refresh") {
      if (step.oldState) recorded.set(step.urn, step.oldState);
      continue;
    }
    if (step.op === "delete-replaced") {
      if (applied) leftDeletes.push(pendingDelete(step, true));
      continue;
    }
    const before = recorded.get(step.urn);
    if (before) {
      recorded.delete(step.urn);
      const drift = driftOf(before, step);
      if (drift) changes.push(drift);
    }
    for (const change of stepChanges(step, takeovers)) {
      if (change.kind === "replace" && isPendingReplacement(before)) change.note = "an earlier apply deleted the old object already: what is left is to create the new one";
      changes.push(change);
    }
  }
  // A replacement's own delete is part of its change; only the delete an earlier replacement left is one of its own.
  const replaced = new Set(changes.filter((change) => change.kind === "replace").map((change) => change.urn));
  if (applied) for (const change of changes) if (change.kind === "replace") noteCutReplacement(change, steps);
  return [...changes, ...leftDeletes.filter((change) => !replaced.has(change.urn))];
}

/**
 * An apply's replacement that did only one of its halves (the engine emits
 * the replacement's own event either way): its events have no made new object
 * (`create-replacement`), or no deleted old one (`delete-replaced`). Its
 * change then says which half is left, which the next apply does.
 */
function noteCutReplacement(change: Change, steps: readonly PreviewStep[]): void {
  const did = (op: string) => steps.some((step) => step.urn === change.urn && step.op === op);
  if (!did("create-replacement")) change.note = "cut short: the old object was deleted, the new one not made; the next apply creates it";
  else if (!did("delete-replaced")) change.note = "cut short: the new object was made, the old one not deleted; the next apply deletes it";
}

/** A URN in an engine message: `urn:pulumi:<stack>::<project>::<type>::<name>`. */
const URN_IN_TEXT = /urn:pulumi:[^\s:]*::[^\s:]*::[^\s]*?::[^\s'"]+/;

/**
 * The resource a diagnostic is about, as the program names it: the one its
 * message names (the engine names a resource by its URN in a message it may
 * attach elsewhere: "expected resource operations for <urn> but none were
 * seen"), else the one it is attached to; none for the stack.
 */
function resourceOfDiagnostic(diagnostic: Diagnostic): string | undefined {
  const urn = URN_IN_TEXT.exec(diagnostic.message)?.[0] ?? diagnostic.urn;
  if (!urn) return undefined;
  const type = kindOf(undefined, urn);
  return type.startsWith("pulumi:pulumi:Stack") ? undefined : `${nameOf(urn)} (${type})`;
}

/** The engine's diagnostic text without its colour codes and trailing space. */
function plainMessage(message: string): string {
  // eslint-disable-next-line no-control-regex
  return message
    .replace(/\u001b\[[0-9;]*m/g, "")
    .replace(/<\{%(?:reset|fg \d+|bold)%\}>/g, "")
    .replace(/^(?:error|warning): /, "")
    // The engine's lead of a check failure; the report names the resource itself.
    .replace(/^\S+ resource '[^']*' has a problem: /, "")
    .trim();
}

function problemsOf(diagnostics: Diagnostic[], severity: string): Problem[] {
  const seen = new Set<string>();
  const problems: Problem[] = [];
  for (const diagnostic of diagnostics) {
    if ((diagnostic.severity ?? "info") !== severity) continue;
    const problem = { resource: resourceOfDiagnostic(diagnostic), message: plainMessage(diagnostic.message) };
    const key = `${problem.resource}\u0000${problem.message}`;
    if (problem.message === "" || seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

/**
 * The secret values each refreshed object's server never shows (the engine's
 * `SECRETS_UNREAD_KEY` in the refreshed state, the old state of the step after
 * the refresh): said as not compared, never as matching.
 */
function unreadOf(steps: PreviewStep[]): Unread[] {
  const refreshed = new Set<string>();
  const unread: Unread[] = [];
  for (const step of steps) {
    if (step.op === "refresh") {
      if (step.oldState && !isPendingDelete(step.oldState)) refreshed.add(step.urn);
      continue;
    }
    if (!refreshed.delete(step.urn)) continue;
    const paths = step.oldState?.outputs?.[SECRETS_UNREAD_KEY];
    const named = Array.isArray(paths) ? paths.filter((path): path is string => typeof path === "string") : [];
    if (named.length === 0) continue;
    const type = kindOf(step.oldState?.type, step.urn);
    const terms = termsOf(type);
    const { id, label } = identity(step.oldState, terms);
    unread.push({ type, name: nameOf(step.urn), urn: step.urn, ...naming({ noun: terms.noun, id, label }, ownerOf(step.oldState, terms)), paths: named.sort() });
  }
  return unread;
}

/** The review of a parsed preview. */
export function reviewOf(preview: PreviewOutput): Review {
  const changes = changesOf(preview.steps ?? [], preview.applied === true);
  // A replacement shows as its create and, after it, the deletion of the old one: one change.
  const replaced = new Set<string>();
  const unique = changes.filter((change) => change.kind !== "replace" || (!replaced.has(change.urn) && replaced.add(change.urn)));
  const order = (change: Change) => CHANGE_KINDS.indexOf(change.kind);
  const compare = new Intl.Collator().compare;
  // A delete that takes other objects with it (a group's projects) comes first, above every other.
  const weight = (change: Change) => (change.takes === undefined ? 1 : 0);
  unique.sort((a, b) => order(a) - order(b) || weight(a) - weight(b) || compare(a.owner, b.owner) || compare(a.name, b.name));
  const counts = Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, 0])) as Record<ChangeKind, number>;
  for (const change of unique) counts[change.kind]++;
  const diagnostics = preview.diagnostics ?? [];
  const problems = problemsOf(diagnostics, "error");
  const unread = unreadOf(preview.steps ?? []);
  return { ok: problems.length === 0, counts, changes: unique, problems, warnings: problemsOf(diagnostics, "warning"), ...(unread.length > 0 ? { unread } : {}) };
}

/**
 * Whether two changes are one change: the same resource, the same kind of
 * change, the same object. An object's number is compared only where both
 * name one: a create names its object's number only once applied, so a
 * planned create and the apply's event of it are one change, while an update
 * of badge 4 and one of badge 5 under one resource are two.
 */
export function sameChange(a: Pick<Change, "urn" | "kind" | "type" | "object">, b: Pick<Change, "urn" | "kind" | "type" | "object">): boolean {
  if (a.urn !== b.urn || a.kind !== b.kind) return false;
  if (a.object === b.object) return true;
  const [one, other] = [objectName(a), objectName(b)];
  return one.noun === other.noun && one.label === other.label && (one.id === undefined || other.id === undefined || one.id === other.id);
}

/** The planned changes an apply did not make: all of `planned` that none of `applied` is. */
export function notApplied(planned: readonly Change[], applied: readonly Change[]): Change[] {
  return planned.filter((change) => change.kind !== "drift" && !applied.some((done) => sameChange(done, change)));
}

/** A field of an object's state as a review shows it (a secret named only): what the state holds at `path`. */
export function shownInState(state: StepState | null | undefined, type: string, path: string): Shown {
  return shown(valueAt(state?.inputs, path), isSecretPath(termsOf(type), path));
}
