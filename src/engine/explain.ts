/**
 * Server errors as the user should read them: what, where, what to do; no
 * stack trace of ours. And the readings of a 404 that decide whether an object
 * is gone, or its owner is.
 */
import { ApiError, missingOrHidden, NetworkError, REFUSAL_ADVICE, roleNeeded, tokenRefused } from "../client";
import type { AnyResourceDefinition, Operation } from "./definition";
import { needsInWords, offeringNeeded, refusedFor } from "../api/needs";
import { ExplainedError, PartialCreateError } from "./errors";
import { redact, type SecretValuesOf } from "./redaction";
import { ReadLimitExceeded } from "../bounded-read";
import { storedTokenRefusal } from "./stored-config";

type Args = Record<string, unknown>;

/** The request that failed: the operation, what it was doing in words (`update 42`), its inputs and, on update, the recorded state. */
export interface Attempt {
  operation: Operation;
  action: string;
  args: Args;
  recorded?: Args;
}

/**
 * The error as the user should read it. Secrets are masked in every message:
 * those of the declared inputs and, on update, of the recorded state, and the
 * token. Any other error (a resource module's own, which may quote the server,
 * or a bug) keeps its stack, with the secrets masked in it too.
 */
export function explain(definition: AnyResourceDefinition, secretProperties: readonly string[], error: unknown, attempt: Attempt, secretValuesOf: SecretValuesOf = {}): Error {
  const { operation, action, args, recorded } = attempt;
  const known = recorded ? [args, recorded] : [args];
  const masked = (text: string) => redact(text, known, secretProperties, secretValuesOf);
  if (error instanceof ExplainedError) {
    error.message = masked(error.message);
    return error;
  }
  // An answer past the client's limit is the server's failure, read as one: what was being done, then the limit.
  if (!(error instanceof ApiError || error instanceof NetworkError || error instanceof ReadLimitExceeded || error instanceof PartialCreateError)) {
    if (!(error instanceof Error)) return error as Error;
    error.message = masked(error.message);
    if (error.stack) error.stack = masked(error.stack);
    return error;
  }
  // The stored token first: a gated API's 401 is read as the tier or flag only when the token is the current one.
  const refused = error instanceof ApiError ? (storedTokenRefused(error, operation) ?? refusal(definition, error, operation, args)) : undefined;
  let message = `${definition.name}: could not ${action}. ${refused ?? error.message}`;
  if (!refused && isOwnerMissing(definition, error)) {
    message +=
      " The owner of this object is missing or no longer visible to the token's user; if it was deleted, remove this resource from the stack with `pulumi state delete`.";
  }
  if (!(error instanceof PartialCreateError)) return new ExplainedError(masked(message));
  error.message = masked(message);
  return error;
}

/**
 * Why the server refused, from what the declaration says it needs: the
 * object and the role, tier or feature flag it lacks. Undefined when no
 * need explains the answer.
 */
export function refusal(definition: AnyResourceDefinition, error: ApiError, operation: Operation, args: Args): string | undefined {
  const declared = definition.needs?.(args as never, operation);
  if (!declared) return undefined;
  const needs = needsInWords(declared);
  const answered = `${error.method} ${error.path} failed with ${error.status}${error.serverMessage ? ` (${error.serverMessage})` : ""}`;
  if (error.status === 404 && error.notFoundSubject === undefined && declared.offering) return `${answered}: ${offeringNeeded(declared.offering)}.`;
  if (error.status === 403 && needs.role) {
    return `${answered}: ${roleNeeded(needs.role, needs.subject)}. ${REFUSAL_ADVICE[403]}`;
  }
  // A named 404 (`404 Group Not Found`) while creating is the owner; afterwards, unless it names the object itself.
  if (error.status === 404 && error.notFoundSubject && (operation === "create" || namesAnotherObject(definition, error))) {
    return (
      `${answered}: ${missingOrHidden(needs.subject)}. ` +
      (operation === "create" ? REFUSAL_ADVICE[404] : "If it was deleted, remove this resource from the stack with `pulumi state delete`.")
    );
  }
  // A gated API refuses a missing tier or flag with 401 or an unnamed 404, not 403.
  const gated = error.status === 401 || (error.status === 404 && error.notFoundSubject === "");
  const otherwise = error.status === 401 ? tokenRefused() : "the object in the path does not exist";
  const causes = gated ? refusedFor(declared, error.status as 401 | 404, [otherwise]) : undefined;
  return causes && `${answered}: ${causes}.`;
}

/** A 401 on refresh or destroy from the stack config stored at the last `up`: that token was refused (./stored-config.ts). */
function storedTokenRefused(error: ApiError, operation: Operation): string | undefined {
  const said = error.status === 401 ? storedTokenRefusal(operation) : undefined;
  return said && `${error.method} ${error.path} failed with 401${error.serverMessage ? ` (${error.serverMessage})` : ""}: ${said}`;
}

/** A 404 naming the object itself (not its owner, not the route, not a permission problem): gone, unless the token may not see it (./gone.ts). */
export function isObjectNotFound(definition: AnyResourceDefinition, error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 404) return false;
  const subject = error.notFoundSubject;
  return subject === "" || (subject !== undefined && namesThisObject(definition, subject));
}

/** Whether a 404's subject is the one the server gives this kind of object (a word, or a sentence naming its id). */
function namesThisObject(definition: AnyResourceDefinition, subject: string): boolean {
  const own = definition.notFoundSubject;
  return typeof own === "string" ? subject === own : own !== undefined && own.test(subject);
}

/** A 404 that names another object than this one: its owner is missing, or hidden from the token's user. */
export function isOwnerMissing(definition: AnyResourceDefinition, error: unknown): boolean {
  return error instanceof ApiError && error.status === 404 && namesAnotherObject(definition, error);
}

function namesAnotherObject(definition: AnyResourceDefinition, error: ApiError): boolean {
  const subject = error.notFoundSubject;
  return subject !== undefined && subject !== "" && !namesThisObject(definition, subject);
}
