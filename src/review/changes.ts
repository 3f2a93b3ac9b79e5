/**
 * What a preview will do, as a reviewer reads it: each step as the objects it
 * deletes, replaces, takes over, updates or creates, with whose they are and
 * each changed field before and after; what a refresh found changed out of
 * band; what the preview refused. Secret values never reach it: the CLI writes
 * them as `[secret]`, and the fields a resource declares secret are named only.
 */
import isEqual from "fast-deep-equal";
import { type Diagnostic, type PreviewOutput, type PreviewStep, SECRET, type StepState, UNKNOWN } from "./preview";
import { type KindTerms, termsOf } from "./terms";

/** The kinds of change, in the order a reviewer reads them: what destroys first. */
export const CHANGE_KINDS = ["delete", "replace", "removal", "takeover", "update", "create", "drift"] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** A value as the report may show it: plain text, or the fact that it is secret or not known yet. */
export type Shown = { value: string } | { secret: true } | { unknown: true } | { absent: true };

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
  /** Whose object it is: `group acme`, `project acme/web`, `the instance`. */
  owner: string;
  /** The object as a reviewer names it: "badge 4 `legacy`". */
  object: string;
  /** Why a replacement replaces (the properties that cannot change in place). */
  reasons?: string[];
  /** What the reviewer should know that the fields do not say. */
  note?: string;
  fields: FieldChange[];
}

export interface Problem {
  /** The resource the problem is about (its program name and kind), when the engine said. */
  resource?: string;
  message: string;
}

export interface Review {
  /** The preview succeeded: no error, whatever the changes. */
  ok: boolean;
  counts: Record<ChangeKind, number>;
  changes: Change[];
  problems: Problem[];
  warnings: Problem[];
}

/** Whether an input is no field a reviewer reads: the engine's own (`__provider`), or one of the kind's `notFields`. */
const isNotField = (terms: KindTerms, key: string) => key.startsWith("__") || terms.notFields.has(key);

/** `pulumi-nodejs:dynamic/platform:Badge` → `Badge`; another provider's type as it is. */
export function kindOf(type: string | undefined, urn: string): string {
  const full = type ?? urn.split("::").at(-2) ?? "";
  return /:dynamic\/platform:(\w+)$/.exec(full)?.[1] ?? full;
}

const nameOf = (urn: string) => urn.split("::").at(-1) ?? urn;

/** Renders one value for a table cell: strings as they are, the rest as compact JSON, long ones cut. */
export function shown(value: unknown, secret = false): Shown {
  if (value === undefined || value === null) return { absent: true };
  if (secret || containsSecret(value)) return { secret: true };
  if (value === UNKNOWN) return { unknown: true };
  const text = typeof value === "string" ? value : JSON.stringify(value, (_key, inner) => (inner === UNKNOWN ? "(known after apply)" : inner));
  return { value: text.length > 300 ? `${text.slice(0, 297)}…` : text };
}

function containsSecret(value: unknown): boolean {
  if (value === SECRET) return true;
  if (Array.isArray(value)) return value.some(containsSecret);
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    // The CLI's JSON form of a secret in some releases: {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value}.
    if ("4dabf18193072939515e22adb298388d" in record) return true;
    return Object.values(record).some(containsSecret);
  }
  return false;
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

function pathParts(path: string): string[] {
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
    .map((path) => {
      const secret = isSecretPath(terms, path);
      return { path, before: shown(valueAt(before, path), secret), after: shown(valueAt(after, path), secret) };
    });
}

function differingKeys(before: Record<string, unknown> | null | undefined, after: Record<string, unknown> | null | undefined): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...keys].filter((key) => !isEqual(before?.[key], after?.[key]));
}

/** The fields a new object is created with (its inputs, secrets named only). */
function createdFields(state: StepState | null | undefined, terms: KindTerms): FieldChange[] {
  return Object.entries(state?.inputs ?? {})
    .filter(([key]) => !isNotField(terms, key))
    .map(([path, value]) => ({ path, before: { absent: true } as Shown, after: shown(value, isSecretPath(terms, path)) }));
}

/** The fields a refresh found changed on the server: the state recorded before it against the state it read. */
function driftedFields(recorded: StepState, refreshed: StepState, terms: KindTerms): FieldChange[] {
  return fieldsAt(differingKeys(recorded.outputs, refreshed.outputs), recorded.outputs, refreshed.outputs, terms);
}

/** The values that name an object: its state's inputs, then its outputs, then the number its id ends with. */
function identity(state: StepState | null | undefined): { id?: string; label?: string } {
  const values = { ...(state?.outputs ?? {}), ...(state?.inputs ?? {}) };
  return { id: /\/(\d+)$/.exec(state?.id ?? "")?.[1], label: labelOf(values) };
}

/** The first of the usual naming properties that holds a plain, known string. */
function labelOf(values: Record<string, unknown>): string | undefined {
  const plain = (value: unknown): value is string => typeof value === "string" && value !== "" && value !== UNKNOWN && value !== SECRET;
  for (const key of ["name", "title", "description", "slug", "key"]) if (plain(values[key])) return values[key] as string;
  // `samlGroupName`, `userName`: a name under another word.
  const named = Object.keys(values).find((key) => /Name$/.test(key) && plain(values[key]));
  return named === undefined ? undefined : (values[named] as string);
}

/** "badge 4 `legacy`", "SAML group link `admins`", "group settings". */
export function objectWords(noun: string, id: string | number | undefined, label: string | undefined): string {
  return [noun, id === undefined ? undefined : String(id), label === undefined ? undefined : `\`${label}\``].filter(Boolean).join(" ");
}

/** Whose object it is, from the inputs that name the owner. */
function ownerOf(state: StepState | null | undefined, terms: KindTerms): string {
  const inputs = state?.inputs ?? {};
  const named = (value: unknown) => (value === UNKNOWN ? "(a new one)" : String(value));
  if (inputs.group !== undefined) return `group ${named(inputs.group)}`;
  if (inputs.project !== undefined) return `project ${named(inputs.project)}`;
  if (inputs.registry !== undefined) return `virtual registry ${named(inputs.registry)}`;
  return terms.instanceWide ? "the instance" : "(no owner named)";
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

/** A create that takes over an object that exists: the `import` option or `adoptExisting` (the object found at preview: `takeover`). */
function isTakeover(state: StepState | null | undefined): boolean {
  const inputs = state?.inputs ?? {};
  return isRecord(inputs.takeover) || inputs.adoptExisting === true || (typeof inputs.__import === "string" && inputs.__import !== "");
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/**
 * What a takeover writes over: each field the program sets, with the value the
 * object has now where the provider read it at preview (`takeover.overwrites`,
 * src/engine/import.ts), or a note that the values it has are read at apply.
 */
function takeoverFields(step: PreviewStep, terms: KindTerms): Pick<Change, "fields" | "note"> {
  const declared = createdFields(step.newState, terms);
  const takeover = step.newState?.inputs?.takeover;
  const current = isRecord(takeover) ? takeover.overwrites : undefined;
  if (!isRecord(current)) {
    return { fields: declared, note: "the object exists; these values replace the ones it has, which are read at apply" };
  }
  const now = current as Record<string, unknown>;
  const fields = declared
    .filter((field) => field.path in now)
    .map((field) => ({ ...field, before: shown(now[field.path], isSecretPath(terms, field.path)) }));
  return { fields, note: fields.length === 0 ? "the object already has every declared value" : undefined };
}

/** The objects an exclusive set's update deletes: what the last refresh recorded and the program does not keep. */
function removals(step: PreviewStep, terms: KindTerms, owner: string): Change[] {
  const recorded = step.oldState?.inputs?.unexpected;
  const remaining = step.newState?.inputs?.unexpected;
  if (!Array.isArray(recorded)) return [];
  const left = Array.isArray(remaining) ? remaining : [];
  const keep = step.newState?.inputs?.keep;
  const kept = Array.isArray(keep) ? keep : [];
  const unsure = kept.includes(UNKNOWN);
  return recorded
    .filter((entry) => !left.some((other) => isEqual(other, entry)) && !isKept(entry as Record<string, unknown>, kept))
    .map((entry) => entryRemoval(step, terms, owner, entry as Record<string, unknown>))
    .map((change) => (unsure ? { ...change, note: "unless a `keep` value known only at apply names it (an object this run creates or takes over)" } : change));
}

/** Whether a `keep` value names the entry: its id (a number, or a resource id ending in it) or its name. */
function isKept(entry: Record<string, unknown>, keep: unknown[]): boolean {
  const names = Object.values(entry).map(String);
  return keep.some((value) => names.includes(String(value)) || (typeof value === "string" && names.some((name) => value.endsWith(`/${name}`))));
}

function entryRemoval(step: PreviewStep, terms: KindTerms, owner: string, entry: Record<string, unknown>): Change {
  const idKey = Object.keys(entry).find((key) => /Id$/.test(key) && typeof entry[key] === "number");
  return {
    kind: "removal",
    type: terms.kind,
    name: nameOf(step.urn),
    urn: step.urn,
    owner,
    object: objectWords(terms.memberNoun ?? "object", idKey ? (entry[idKey] as number) : undefined, labelOf(entry)),
    fields: Object.entries(entry).map(([path, value]) => ({ path, before: shown(value), after: { absent: true } })),
  };
}

function changeOf(step: PreviewStep, kind: ChangeKind): Change {
  const type = kindOf(step.newState?.type ?? step.oldState?.type, step.urn);
  const terms = termsOf(type);
  const state = kind === "delete" ? step.oldState : (step.newState ?? step.oldState);
  const { id, label } = identity(kind === "create" ? step.newState : (step.oldState ?? step.newState));
  const change: Change = {
    kind,
    type,
    name: nameOf(step.urn),
    urn: step.urn,
    owner: ownerOf(state, terms),
    object: objectWords(terms.noun, id, label ?? identity(step.newState).label),
    fields: [],
  };
  if (kind === "replace") change.reasons = (step.replaceReasons ?? step.diffReasons ?? []).filter((reason) => !isNotField(terms, reason));
  if (kind === "update" || kind === "replace") change.fields = fieldChanges(step, terms);
  if (kind === "create") change.fields = createdFields(step.newState, terms);
  if (kind === "takeover") Object.assign(change, takeoverFields(step, terms));
  return change;
}

/** The changes of one step: none, one, or (an exclusive set) one per object it deletes besides its own. */
function stepChanges(step: PreviewStep): Change[] {
  const kind = kindOfStep(step);
  if (kind === undefined) return [];
  const change = changeOf(step, kind);
  const terms = termsOf(change.type);
  if (!terms.memberNoun || kind !== "update") return [change];
  const deleted = removals(step, terms, change.owner);
  const fields = change.fields.filter((field) => pathParts(field.path)[0] !== "unexpected");
  return fields.length > 0 ? [...deleted, { ...change, fields }] : deleted;
}

/**
 * What a refresh found: with `--refresh`, the CLI writes each refresh step with
 * the state recorded before it, and the refreshed state as the old state of
 * the resource's next step (none when the object was gone).
 */
function driftOf(recorded: StepState, step: PreviewStep): Change[] {
  const type = kindOf(recorded.type, step.urn);
  const terms = termsOf(type);
  const gone = !step.oldState;
  const fields = gone ? [] : driftedFields(recorded, step.oldState!, terms).filter((field) => pathParts(field.path)[0] !== "unexpected");
  if (!gone && fields.length === 0) return [];
  const { id, label } = identity(recorded);
  const change: Change = {
    kind: "drift",
    type,
    name: nameOf(step.urn),
    urn: step.urn,
    owner: ownerOf(recorded, terms),
    object: objectWords(terms.noun, id, label),
    fields: gone ? [{ path: "(the object)", before: { value: "exists" }, after: { value: "deleted outside this program" } }] : fields,
  };
  return [change];
}

/** Every step's changes, and the drift a refresh found for the resources it refreshed. */
function changesOf(steps: PreviewStep[]): Change[] {
  const recorded = new Map<string, StepState>();
  const changes: Change[] = [];
  for (const step of steps) {
    if (step.op === "refresh") {
      if (step.oldState) recorded.set(step.urn, step.oldState);
      continue;
    }
    const before = recorded.get(step.urn);
    if (before) {
      recorded.delete(step.urn);
      changes.push(...driftOf(before, step));
    }
    changes.push(...stepChanges(step));
  }
  return changes;
}

/** The diagnostics' resource, as the program names it. */
function resourceOfDiagnostic(diagnostic: Diagnostic): string | undefined {
  if (!diagnostic.urn) return undefined;
  const type = kindOf(undefined, diagnostic.urn);
  return type.startsWith("pulumi:pulumi:Stack") ? undefined : `${nameOf(diagnostic.urn)} (${type})`;
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

/** The review of a parsed preview. */
export function reviewOf(preview: PreviewOutput): Review {
  const changes = changesOf(preview.steps ?? []);
  // A replacement shows as its create and, after it, the deletion of the old one: one change.
  const unique = changes.filter((change, index) => change.kind !== "replace" || changes.findIndex((other) => other.kind === "replace" && other.urn === change.urn) === index);
  const order = (change: Change) => CHANGE_KINDS.indexOf(change.kind);
  unique.sort((a, b) => order(a) - order(b) || a.owner.localeCompare(b.owner) || a.name.localeCompare(b.name));
  const counts = Object.fromEntries(CHANGE_KINDS.map((kind) => [kind, unique.filter((change) => change.kind === kind).length])) as Record<ChangeKind, number>;
  const diagnostics = preview.diagnostics ?? [];
  const problems = problemsOf(diagnostics, "error");
  return { ok: problems.length === 0, counts, changes: unique, problems, warnings: problemsOf(diagnostics, "warning") };
}
