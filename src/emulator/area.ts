/**
 * What an API area declares to the core: its routes, its seed section (a
 * zod schema and how the parsed section enters the state), the areas whose
 * seeded state its seed reads, its background work and its start and stop
 * work. Every area is one folder of areas/ exporting one `EmulatorArea`,
 * registered by one line of areas/index.ts.
 */
import { z } from "zod";
import type { ApiError } from "./errors";
import type { RequestContext, RouteDefinition } from "./router";
import { SeedError } from "./seed-error";
import type { EmulatorState, User } from "./state";

export interface AreaSeed<T> {
  /** The top-level section of the seed the area reads (`"badges": {...}`). */
  readonly key: string;
  /**
   * The section's shape: the core parses the section with it, naming the
   * field and the rule of a mismatch. Every area of the package has one; an
   * extra area written before schemas (`RouteModule`) may leave it out, and
   * its `apply` then reads the section as the seed gives it.
   */
  readonly schema?: z.ZodType<T>;
  /**
   * Adds the parsed section to a state that holds the core part (users,
   * groups, projects) and the sections of the areas seeded before (`after`).
   * Runs with `undefined` when the seed has no such section (the area may
   * then set up defaults, or nothing). Throws `SeedError` for what the
   * schema cannot tell (an unknown project, a name given twice).
   */
  apply(state: EmulatorState, section: T | undefined): void;
}

/** What a CI job token in force grants: a user, on one project. */
export interface JobTokenGrant {
  user: User;
  projectId: number;
}

export interface EmulatorArea {
  readonly name: string;
  readonly routes: readonly RouteDefinition[];
  readonly seed?: AreaSeed<unknown>;
  /**
   * The areas whose seeded state this area's seed reads (merge requests read
   * the repositories' commits): they are seeded first. The core orders the
   * areas by this and refuses a cycle.
   */
  readonly after?: readonly string[];
  /**
   * The grant of a CI job token (`JOB-TOKEN`) the area holds, read by the core
   * on the routes that take one; undefined for a token it does not know or
   * whose job has ended.
   */
  readonly jobTokenGrant?: (state: EmulatorState, token: string) => JobTokenGrant | undefined;
  /**
   * A refusal of a request to any area's route that a fact of this area
   * decides, checked before the route's handler (an archived project refuses
   * writes to what it holds): the error to answer, or undefined to go on.
   */
  readonly refuses?: (ctx: RequestContext, route: RouteDefinition) => ApiError | undefined;
  /**
   * True for an access token the area knows to be out of force now (expired
   * at the state's clock): the core then treats the request as anonymous,
   * whichever user's token it was.
   */
  readonly tokenExpired?: (state: EmulatorState, token: string) => boolean;
  /**
   * Background work of the area that is due at the state's current clock
   * (scheduled runs, accepted asynchronous deletions). The emulator runs it
   * on its timer or when asked (`emulator.runDueWork()`), so tests may
   * decide when time passes. Work that reads the repositories returns a
   * promise: its synchronous part is done when `runDue` returns.
   */
  readonly runDue?: (state: EmulatorState) => void | Promise<void>;
  /**
   * Work when the emulator starts (after its state is seeded or loaded, before
   * it listens) and when it stops: the repository area builds its git
   * repositories on disk (beside `stateFile` when given) and removes
   * temporary ones.
   */
  readonly lifecycle?: {
    /** Before the state is built from `seed` (not run when a state file is loaded): slow work its `seed.apply` then finds done. */
    prepare?(seed: Readonly<Record<string, unknown>>): Promise<void>;
    start(state: EmulatorState, context: { readonly stateFile?: string }): Promise<void>;
    stop(state: EmulatorState): Promise<void> | void;
  };
}

/** The former name of `EmulatorArea`, kept for code written against it. */
export type RouteModule = EmulatorArea;

/** Declares an area's seed: typed by its schema, stored as the core reads it. */
export function areaSeed<T>(seed: AreaSeed<T>): AreaSeed<unknown> {
  return seed as AreaSeed<unknown>;
}

/**
 * The areas in seeding order: each after the areas it names in `after`,
 * otherwise in the order given, so ids assigned in seed order stay the same
 * while the list does. Throws on an unknown name or a cycle.
 */
export function seedingOrder(areas: readonly EmulatorArea[]): EmulatorArea[] {
  const names = new Set(areas.map((area) => area.name));
  for (const area of areas) {
    for (const name of area.after ?? []) {
      if (!names.has(name)) throw new Error(`area ${area.name} is seeded after ${name}, which is not an area`);
    }
  }
  const ordered: EmulatorArea[] = [];
  const done = new Set<string>();
  const waiting = [...areas];
  while (waiting.length > 0) {
    const index = waiting.findIndex((area) => (area.after ?? []).every((name) => done.has(name)));
    if (index < 0) throw new Error(`the seeding order has a cycle among the areas ${waiting.map((area) => area.name).join(", ")}`);
    const [next] = waiting.splice(index, 1);
    ordered.push(next!);
    done.add(next!.name);
  }
  return ordered;
}

/** Parses a seed section with its schema; a mismatch is a `SeedError` naming the section, the field and the rule. */
export function parseSection<T>(key: string, schema: z.ZodType<T>, section: unknown): T | undefined {
  if (section === undefined) return undefined;
  const result = schema.safeParse(section);
  if (result.success) return result.data;
  const issue = deepest(result.error.issues[0]!);
  throw new SeedError(`${fieldPath(key, schema, issue.path)}: ${ruleOf(issue)}`);
}

/**
 * Where in the section a field is, as the seed writes it:
 * `badges.projects["acme/web"][0].linkUrl`. A property the schema names is
 * `.name`; a key of a record (a full path, a username) is quoted; an index
 * is in brackets.
 */
export function fieldPath(section: string, schema: z.ZodType, path: readonly PropertyKey[]): string {
  let text = section;
  let at: z.core.$ZodType | undefined = schema;
  for (const key of path) {
    const def: z.core.$ZodTypeDef | undefined = at ? unwrapped(at, key)._zod.def : undefined;
    if (typeof key === "number") text += `[${key}]`;
    else if (def?.type === "object") text += `.${String(key)}`;
    else text += `[${JSON.stringify(String(key))}]`;
    at = def ? childOf(def, key) : undefined;
  }
  return text;
}

/** The schema below optional, nullable, default and pipe wrappers; of a union, the form `key` can index. */
function unwrapped(schema: z.core.$ZodType, key: PropertyKey): z.core.$ZodType {
  const def = schema._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType; options?: z.core.$ZodType[] };
  if (def.innerType) return unwrapped(def.innerType, key);
  if (def.type === "union" && def.options) {
    const forms = def.options.map((option) => unwrapped(option, key));
    const wanted = typeof key === "number" ? ["array"] : ["object", "record"];
    return forms.find((form) => wanted.includes(form._zod.def.type)) ?? schema;
  }
  if (def.type === "pipe" && def.in) {
    const { out } = def as { out?: z.core.$ZodType };
    // A preprocessed schema (`z.preprocess`) is checked by its output side.
    return unwrapped(def.in._zod.def.type === "transform" && out ? out : def.in, key);
  }
  return schema;
}

function childOf(def: z.core.$ZodTypeDef, key: PropertyKey): z.core.$ZodType | undefined {
  const parts = def as { type: string; shape?: Record<string, z.core.$ZodType>; valueType?: z.core.$ZodType; element?: z.core.$ZodType };
  if (parts.type === "object") return parts.shape?.[String(key)];
  if (parts.type === "record") return parts.valueType;
  if (parts.type === "array") return parts.element;
  return undefined;
}

/**
 * A value none of a union's forms accepts is reported at the form it came
 * closest to (the one whose issue lies deepest), path included: a list's
 * bad entry, not "invalid input".
 */
function deepest(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return issue;
  const forms = issue.errors.map((branch) => deepest(branch[0]!));
  // A form the value's type matched says more than the forms it did not.
  const matched = forms.filter((form) => !(form.code === "invalid_type" && form.path.length === 0));
  if (matched.length === 0) return issue;
  const inner = matched.reduce((best, candidate) => (candidate.path.length > best.path.length ? candidate : best));
  return { ...inner, path: [...issue.path, ...inner.path] };
}

/** The rule an issue broke, in the seed errors' words (a schema's own message wins). */
function ruleOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return issue.message.startsWith("Invalid input") ? `must be ${article(issue.expected)}` : issue.message;
    case "unrecognized_keys":
      return `unknown key(s) ${issue.keys.join(", ")}`;
    case "invalid_value":
      return issue.message.startsWith("Invalid") ? `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}` : issue.message;
    default:
      return issue.message;
  }
}

function article(expected: string): string {
  if (expected === "array") return "a list";
  if (expected === "object" || expected === "record") return "an object";
  return `a ${expected}`;
}

/** A section keyed by full path or name (`{ "acme/web": ... }`), each entry checked by `entry`. */
export function keyedSection<T extends z.ZodType>(keyedBy: string, entry: T) {
  return z.record(z.string(), entry, { error: `must be an object keyed by ${keyedBy}` });
}
