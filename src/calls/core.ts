/**
 * The core of every call, the data functions' (../functions/core.ts) and the
 * actions' (../actions/core.ts) alike:
 *
 * - the arguments: validated with the declaration's zod schema before any
 *   request; a failure names the argument and the rule, unknown arguments
 *   included (`projcet: unknown property; did you mean project?`);
 * - the reads: each answer checked against the declared API shape (a server
 *   that is not the platform's API fails clearly), then given with camelCase
 *   names and nothing dropped; lists page by page, files streamed to disk;
 * - failures: a missing object is an error that names it, a refusal says what
 *   the caller lacks, in the resources' words (../api/needs.ts); no stack
 *   trace of ours.
 */
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { z } from "zod";
import { ApiError, missingOrHidden, NetworkError, PAGE_SIZE, REFUSAL_ADVICE, roleNeeded, tierNeeded, tokenRefused, type PlatformClient, type Query } from "../client";
import { ReadLimitExceeded } from "../bounded-read";
import { client } from "../engine/process-connections";
import { camelCase } from "../api/fields";
import { needsInWords, offeringNeeded, type Needs } from "../api/needs";
import { ExplainedError } from "../engine/errors";
import { redact } from "../engine/redaction";
import { describeIssue } from "../validation";

export { groupNeeds, projectNeeds } from "../api/needs";

/** A 401 of an API that serves only signed-in callers (schedules, security reports): the one wording of that refusal. */
export const signedInOnly = () => `this API needs a signed-in caller, and ${tokenRefused()}.`;

// ---------------------------------------------------------------------------
// camelCase results

// A leading underscore is dropped (`_links` → `links`, not `Links`).
type CamelCase<S extends string> = S extends `_${infer Rest}` ? CamelCase<Rest> : S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** An API object as a function returns it: every key in camelCase, at any depth. */
export type Camelized<T> = T extends readonly (infer Item)[]
  ? Camelized<Item>[]
  : T extends object
    ? { [K in keyof T as K extends string ? CamelCase<K> : K]: Camelized<T[K]> }
    : T;

export { camelCase };

/** Renames keys at every depth, except inside `opaque` fields, whose keys are data (a finding's `details`). */
function camelized(value: unknown, opaque: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => camelized(item, opaque));
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [camelCase(key), opaque.has(key) ? inner : camelized(inner, opaque)]));
}

// ---------------------------------------------------------------------------
// Declarations

type Args = Record<string, unknown>;

/**
 * What the shared layer needs of a call to check its arguments and explain
 * its failures: the data functions' declarations, and the actions' (../actions/core.ts).
 */
export interface CallDeclaration<A extends z.ZodObject> {
  /** `getRegistryTags`: named in every message. */
  name: string;
  /** The arguments, camelCase, as users write them. Unknown names are refused. */
  args: A;
  /** Rules across arguments that the schema cannot say; each failure names its argument. */
  validate?(args: z.output<A>): { argument: string; reason: string }[];
  /** What the call reads, as a user names it (`registry repository 7 of project acme/web`): named when it is missing. */
  subject(args: z.output<A>): string;
  /**
   * What a refusal means for this call, beyond its needs and the
   * generic reading: a 404 of a tier-gated API may be the tier, a 403 of a
   * protected tag its protection. Actions also explain the server's limits
   * here (a 429 of the changelog, a 400 of an hourly lease).
   */
  refusals?: Partial<Record<number, (args: z.output<A>) => string>>;
  /**
   * What the call needs of the token's user and of the owner, declared as
   * resources declare it (../api/needs.ts): a 403 is worded from it as a
   * resource's is, the call's own `refusals[403]` then adds to it.
   */
  needs?(args: z.output<A>): Needs;
  /** What the call does to its subject, for messages: `read` (the default), `run`, `delete`. */
  verb?: string;
}

/**
 * The reads a lookup is made of, each checked against its declared shape and
 * camelCased; failures are explained by the lookup's declaration.
 */
export interface Reader {
  object<R extends z.ZodType>(path: string, query: Query | undefined, shape: R): Promise<Camelized<z.output<R>>>;
  /** Every page, 100 items a request, or only the pages the first `limit` items need. */
  list<R extends z.ZodType>(path: string, query: Query | undefined, item: R, limit?: number): Promise<Camelized<z.output<R>>[]>;
  text(path: string, query?: Query): Promise<string>;
  /**
   * A file the API serves, streamed to `destination` and hashed as it arrives
   * (never held whole in memory); the file appears only once it is complete.
   * Past `maxBytes` read the download stops and fails naming `what` and the limit.
   */
  file(path: string, query: Query | undefined, destination: string, bound: { maxBytes: number; what: string }): Promise<SavedFile>;
  /** The client itself, for reads beside the API (a token service, the registry); check their answers with `checked`. */
  readonly client: PlatformClient;
  /** An answer checked against `shape` (a mismatch is explained), then camelCased, as every read's is. */
  checked<R extends z.ZodType>(shape: R, answer: unknown): Camelized<z.output<R>>;
}

/** A file a lookup saved to disk (`Reader.file`). */
export interface SavedFile {
  /** Where it was written. */
  path: string;
  /** Bytes. */
  size: number;
  /** SHA-256 of the bytes, hexadecimal. */
  sha256: string;
}

/** Any declaration, as the shared code handles them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDeclaration = CallDeclaration<any> & { secrets?: readonly string[]; opaque?: readonly string[] };

/** The reads of one call, on behalf of `declaration` (whose subject names what a bad answer was for). */
export function readerFor(api: PlatformClient, declaration: AnyDeclaration, args: Args): Reader {
  const checked = <T>(shape: z.ZodType, answer: unknown) => checkedAnswer(declaration, shape, answer, args) as T;
  return {
    async object(path, query, shape) {
      return checked(shape, await api.get<unknown>(path, query));
    },
    async list(path, query, item, limit = Infinity) {
      const items: unknown[] = [];
      for await (const page of api.pages<unknown>(path, { ...query, per_page: Math.min(PAGE_SIZE, limit) })) {
        items.push(...page);
        if (items.length >= limit) break;
      }
      return checked(z.array(item), items.slice(0, limit));
    },
    async text(path, query) {
      const answer = await api.get<unknown>(path, query);
      if (answer === undefined) return "";
      if (typeof answer !== "string") return checked(z.string(), answer);
      return answer;
    },
    file: (path, query, destination, bound) => api.stream(path, query, (body) => savedFile(body, destination, bound)),
    client: api,
    checked: (shape, answer) => checked(shape, answer),
  };
}

/**
 * Writes a download beside its destination, hashing each chunk on its way to
 * disk, then renames it into place: a broken download leaves no partial file
 * under the name, and each attempt of a retried request starts afresh.
 */
async function savedFile(body: NodeJS.ReadableStream, destination: string, { maxBytes, what }: { maxBytes: number; what: string }): Promise<SavedFile> {
  await mkdir(dirname(destination), { recursive: true });
  const partial = `${destination}.${randomBytes(4).toString("hex")}.partial`;
  const hash = createHash("sha256");
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      // Counted as it arrives: a server may send more than its Content-Length says, or no end at all.
      if (size > maxBytes) return done(new ReadLimitExceeded(what, maxBytes));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, measure, createWriteStream(partial));
    await rename(partial, destination);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return { path: destination, size, sha256: hash.digest("hex") };
}

/** The client of the connection in force; a connection not set up is said in the call's name. */
export function clientFor(declaration: { name: string }): PlatformClient {
  try {
    return client();
  } catch (error) {
    throw new ExplainedError(`${declaration.name}: ${(error as Error).message}`);
  }
}

// ---------------------------------------------------------------------------
// Arguments, answers and failures

/** The arguments checked against `schema` and the declaration's own rules; a failure names each argument and sends nothing. */
export function parseArgs(declaration: AnyDeclaration, schema: z.ZodObject, args: unknown): Args {
  const result = schema.safeParse(args ?? {}, { reportInput: true });
  const known = Object.keys(schema.shape);
  const failures = result.success
    ? (declaration.validate?.(result.data as never) ?? []).map((failure) => failure.reason)
    : result.error.issues.map((issue) => describeIssue(issue, known));
  if (failures.length) throw new ExplainedError(`${declaration.name}: invalid arguments: ${failures.join("; ")}. No request was sent.`);
  return result.data as Args;
}

/** The answer checked against the declared shape, then camelCased. */
function checkedAnswer(declaration: AnyDeclaration, shape: z.ZodType, answer: unknown, args: Args): unknown {
  const checked = shape.safeParse(answer);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new ExplainedError(
      `${declaration.name}: the server's answer for ${declaration.subject(args as never)} is not what the API specifies ` +
        `(${issue.path.join(".") || "the answer"}: ${issue.message}). Check that platform:url is the platform's API.`,
    );
  }
  return camelized(checked.data, new Set(declaration.opaque ?? []));
}

/** A failed request as the user should read it: what was looked up or done, what the server said, what to do. */
export function explained(declaration: AnyDeclaration, args: Args, error: unknown, secrets: readonly string[] = []): Error {
  if (error instanceof ExplainedError) return error;
  // An answer past the client's limit reads as a network failure does: what was being done, then the limit.
  if (!(error instanceof ApiError || error instanceof NetworkError || error instanceof ReadLimitExceeded)) return error as Error;
  const subject = declaration.subject(args as never);
  const verb = declaration.verb ?? "read";
  const special = error instanceof ApiError ? (declaration.refusals?.[error.status]?.(args as never) ?? offeringRefusal(declaration, args, error)) : undefined;
  const answered = error instanceof ApiError ? `${error.method} ${error.path} answered ${error.status}${error.serverMessage ? ` (${error.serverMessage})` : ""}` : "";
  // What a CI job token cannot do is said whatever the call's own reading of the refusal.
  const note = error instanceof ApiError && error.credentialNote ? ` ${error.credentialNote}` : "";
  let message: string;
  // A 404 and a 403 read as a resource's do: the missing or hidden object, the role or tier lacking.
  const refused = error instanceof ApiError && (error.status === 404 || error.status === 403);
  const cause = refused ? (error.status === 404 ? notFoundCause(error, args, subject, special) : forbiddenCause(declaration, args)) : undefined;
  if (refused && (cause || special)) {
    const advice = special ?? REFUSAL_ADVICE[error.status as 403 | 404];
    message = `could not ${verb} ${subject}: ${answered}${cause ? `: ${cause}` : ""}. ${advice}${note}`;
  } else if (error instanceof ApiError && special) {
    // A job token's 401 is the job token's reach, not a wrong access token.
    message = error.status === 401 ? `${answered}: ${note ? note.trim() : special}` : `could not ${verb} ${subject}: ${answered}. ${special}`;
  } else {
    message = `could not ${verb} ${subject}. ${error.message}`;
  }
  // The token is masked should a server repeat it, and so are the call's own secret arguments (a token to revoke).
  return new ExplainedError(redact(`${declaration.name}: ${message}`, [{ secrets: [...secrets] }], ["secrets"]));
}

/**
 * What a 404 means, in the one wording of a missing or hidden object: the
 * owner the server named when the call names it too (`404 Project Not Found`
 * and a `project` argument), another object the server named, or the subject
 * itself. An unknown route that the call explains itself is left to it.
 */
function notFoundCause(error: ApiError, args: Args, subject: string, special: string | undefined): string | undefined {
  const named = error.notFoundSubject;
  if (named === undefined && special !== undefined) return undefined;
  if (!named) return missingOrHidden(subject);
  const kind = named.toLowerCase();
  const ref = args[kind];
  return missingOrHidden(typeof ref === "string" || typeof ref === "number" ? `${kind} ${ref}` : `the ${kind}`);
}

/** A route the server does not know, on an offering the call's needs exclude: the one wording of it, as a sentence. */
function offeringRefusal(declaration: AnyDeclaration, args: Args, error: ApiError): string | undefined {
  const offering = error.status === 404 && error.notFoundSubject === undefined ? declaration.needs?.(args as never).offering : undefined;
  return offering && `${offeringNeeded(offering).replace(/^./, (first) => first.toUpperCase())}.`;
}

/** What a 403 means, from the call's needs: the role (and tier) it needs, in the resources' words. */
function forbiddenCause(declaration: AnyDeclaration, args: Args): string | undefined {
  const declared = declaration.needs?.(args as never);
  const needs = declared && needsInWords(declared);
  if (!needs?.role) return needs?.tier ? tierNeeded(needs.tier, needs.subject) : undefined;
  return needs.tier ? `${roleNeeded(needs.role, needs.subject)}, and ${tierNeeded(needs.tier, needs.subject)}` : roleNeeded(needs.role, needs.subject);
}
