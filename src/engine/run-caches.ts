/**
 * The run-wide caches of `check` (./provider.ts) and of the preview's checks
 * (./verify.ts), each declared here once with the type of its keys and of
 * what it holds.
 *
 * The provider host is one process per run, and calls `configure` once per
 * resource kind: there the caches last the run. Elsewhere (tests, scripts
 * calling `providers.<Name>`), each `configure` starts a run (`startRun`).
 */
import { createHash } from "node:crypto";
import type { ApiError, PlatformClient } from "../client";
import type { FeatureDefinition, FeatureFlag } from "../api/access-facts";
import type { Live } from "./definition";
import { inProviderHost } from "./engine-log";
import type { OwnerFacts } from "../api/needs";
import { canonicalJson } from "./values";

type Args = Record<string, unknown>;

/** The token's user, as the preview's checks need it. */
export interface UserFacts {
  id: number;
  username: string;
  isAdmin: boolean;
  /**
   * The user the steps are verified as is the apply identity (`platform:applyAs`), not the token's
   * own: the project's `permissions` are the token's, so roles are read by member; and whether it
   * is an administrator is unknown unless the reader may see it (then no role need is judged).
   */
  applying?: { adminUnknown: boolean };
}

/** A read of the preview's checks, once per server connection and run: what is read, and of what. */
export type ReadKey =
  | { read: "user" }
  | { read: "apply user"; username: string }
  | { read: "owner"; kind: "group" | "project"; ref: string | number }
  | { read: "role"; owner: string }
  | { read: "plan"; namespace: string }
  | { read: "license" }
  | { read: "features" }
  | { read: "definitions" }
  | { read: "object"; path: string }
  | { read: "list"; list: string; owner: string }
  | { read: "object owner"; id: string }
  | { read: "target"; what: string }
  | { read: "untold flag"; flag: string }
  | { read: "ref"; owner: string; kind: "branch" | "tag"; name: string }
  | { read: "answer"; request: string };

/** What each read gives; undefined where the server would not tell. */
export interface ReadAnswers {
  user: UserFacts;
  /** Undefined when no user has that name (or the reader may not see it). */
  "apply user": UserFacts | undefined;
  owner: OwnerFacts | undefined;
  role: number | undefined;
  plan: string | undefined;
  license: string | undefined;
  features: FeatureFlag[] | undefined;
  definitions: FeatureDefinition[] | undefined;
  object: { groupId: number } | { error: ApiError };
  list: Live[] | undefined;
  "object owner": string | null | undefined;
  /** Whether the object is there; undefined when the server will not tell. */
  target: boolean | undefined;
  /** Whether the branch or tag is there; undefined when the server will not tell. */
  ref: boolean | undefined;
  "untold flag": void;
  /** A GET's answer as the server gave it (see `sharingReads` in ./verify.ts). */
  answer: unknown;
}

type Answer<K extends ReadKey> = ReadAnswers[K["read"]];

/**
 * What names the subject of each read, in order: an owner by its kind and
 * reference, a list by the list and its owner's path, and so on.
 */
const SUBJECT: { [R in ReadKey["read"]]: readonly Exclude<keyof Extract<ReadKey, { read: R }>, "read">[] } = {
  user: [],
  "apply user": ["username"],
  owner: ["kind", "ref"],
  role: ["owner"],
  plan: ["namespace"],
  license: [],
  features: [],
  definitions: [],
  object: ["path"],
  list: ["list", "owner"],
  "object owner": ["id"],
  target: ["what"],
  ref: ["owner", "kind", "name"],
  "untold flag": ["flag"],
  answer: ["request"],
};

/**
 * The subject of a read as a key. A reference is the same owner whether it
 * came as a number or as its text (the API takes `12` and `"12"` alike).
 */
function subjectOf(key: ReadKey): string {
  const fields = SUBJECT[key.read] as readonly string[];
  return JSON.stringify(fields.map((field) => String((key as unknown as Record<string, unknown>)[field])));
}

/**
 * What the run has read of one server (the client of one connection): each
 * answer, by what was read and of what, shared by every resource that needs it.
 */
export interface ServerReads {
  /** The server could not be reached: nothing more is verified in this run. */
  unreachable: boolean;
  readonly answers: Map<ReadKey["read"], Map<string, Promise<unknown>>>;
}

let serverReads = new WeakMap<PlatformClient, ServerReads>();

export function readsOf(client: PlatformClient): ServerReads {
  let reads = serverReads.get(client);
  if (!reads) serverReads.set(client, (reads = { unreachable: false, answers: new Map() }));
  return reads;
}

/** One answer per read, subject, server and run: concurrent checks wait on the same request. */
export function readOnce<K extends ReadKey>(reads: ServerReads, key: K, read: () => Promise<Answer<K>>): Promise<Answer<K>> {
  let ofFact = reads.answers.get(key.read);
  if (!ofFact) reads.answers.set(key.read, (ofFact = new Map()));
  const subject = subjectOf(key);
  let answer = ofFact.get(subject) as Promise<Answer<K>> | undefined;
  if (!answer) ofFact.set(subject, (answer = read()));
  return answer;
}

/** Keeps an answer known under another key too (an owner read by path, under its id), unless one is there. */
export function keepAnswer<K extends ReadKey>(reads: ServerReads, key: K, answer: Answer<K>): void {
  void readOnce(reads, key, async () => answer);
}

/**
 * The inputs of resources already in the stack, as checked in this run. The
 * engine checks a resource it replaces a second time, without the old inputs
 * (pulumi/pulumi pkg/resource/deploy/step_generator.go, so that a new object
 * gets fresh defaults); that second check is no create of a new object: the
 * first one verified it, and the object it would "collide" with is the one
 * being replaced.
 */
let checkedWithOlds = new Set<string>();

/** Notes the inputs of a resource checked with its old inputs (a resource already in the stack). */
export function noteExistingResource(resource: string, inputs: Args): void {
  checkedWithOlds.add(inputsKey(resource, inputs));
}

/** Whether these inputs were checked with old inputs in this run (then a check without them is a replacement's). */
export function isExistingResource(resource: string, inputs: Args): boolean {
  return checkedWithOlds.has(inputsKey(resource, inputs));
}

/**
 * The inputs of a resource kind as a key, by their value: the same whatever
 * order their keys came in (the engine sends a resource's properties sorted;
 * check and a program build them in their own order). The value as a digest:
 * the sets keep one entry per resource of the stack for the whole run, and a
 * large stack's inputs as text would weigh on the host's heap; a digest is 44
 * characters whatever the inputs. A collision of SHA-256 digests is not a
 * concern. The provider is not told which resource it serves (no URN reaches
 * check or create), so its kind and inputs are what name it.
 */
function inputsKey(resource: string, inputs: Args): string {
  return `${resource} ${createHash("sha256").update(canonicalJson(inputs)).digest("base64")}`;
}

/**
 * The inputs check returned in this run, so diff knows it is a step of the
 * program's run (a preview or an `up`) and verifies what only it can see
 * (the object's id). `pulumi refresh` calls diff too, after each read, with
 * the refreshed inputs, which check never returned: nothing to verify then.
 */
let checkedSteps = new Set<string>();

export function noteCheckedStep(resource: string, inputs: Args): void {
  checkedSteps.add(inputsKey(resource, inputs));
}

export function isCheckedStep(resource: string, inputs: Args): boolean {
  return checkedSteps.has(inputsKey(resource, inputs));
}

/** Called by `configure`: a new run, except in the provider host (see above). */
export function startRun(): void {
  if (inProviderHost()) return;
  serverReads = new WeakMap();
  checkedWithOlds = new Set();
  checkedSteps = new Set();
}

/**
 * What check parsed, by the resource kind and the value of what it returned
 * (`inputsKey`): the engine passes check's result on to the create or update
 * that follows it, and parsing it again was a large part of the engine's own
 * time in those calls. Parsing check's result gives the value check parsed,
 * since the schemas' transforms and defaults give back what they made (a list
 * of variables becomes a map, a map stays one); this only saves the time.
 * Each entry is taken once; the map is bounded, as a preview checks and
 * creates nothing, and the engine runs a resource's create soon after its
 * check. It is not reset by a run: what it holds is right in any run.
 */
const checkedInputs = new Map<string, Args>();
const MAX_CHECKED_INPUTS = 512;

/** Keeps what check parsed for the inputs it returned (without the engine's keys). */
export function rememberChecked(resource: string, returned: Args, parsed: Args): void {
  if (checkedInputs.size >= MAX_CHECKED_INPUTS) checkedInputs.delete(checkedInputs.keys().next().value!);
  checkedInputs.set(inputsKey(resource, returned), parsed);
}

/** What check parsed for these inputs, once; undefined when it is not kept. */
export function takeChecked(resource: string, declared: Args): Args | undefined {
  if (checkedInputs.size === 0) return undefined;
  const key = inputsKey(resource, declared);
  const parsed = checkedInputs.get(key);
  if (parsed !== undefined) checkedInputs.delete(key);
  return parsed;
}
