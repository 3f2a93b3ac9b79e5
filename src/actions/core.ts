/**
 * The action layer: what the API does rather than what it holds (run a
 * schedule now, purge a cache, revoke a token, commit a changelog), each one
 * small declaration over the core it shares with the data functions
 * (../calls/core.ts):
 *
 * - the same connection: the program's stack config inside a program, else
 *   the environment (`PLATFORM_URL`, `PLATFORM_TOKEN`, or a CI job's
 *   `CI_JOB_TOKEN`), or the `connection` option;
 * - the same arguments: checked before any request, a failure naming the
 *   argument and the rule, unknown arguments included;
 * - the same explanations: a refusal says what the caller lacks, a limit of
 *   the server (the changelog's five a minute) what it is and what to do;
 * - writes are never repeated when their outcome is unknown (the client
 *   retries a POST only when the server said it did nothing): such a failure
 *   says the action may have been done.
 *
 * An action is a plain async function: it runs wherever it is called, in a
 * preview too. Inside a program, run it from a trigger resource or behind
 * `pulumi.runtime.isDryRun()` (docs/actions.md).
 */
import type { z } from "zod";
import { MAY_HAVE_BEEN_DONE, mayHaveBeenApplied } from "../client/errors";
import type { Connection } from "../connection";
import { withConnection } from "../engine/process-connections";
import { ExplainedError } from "../engine/errors";
import { clientFor, explained, parseArgs, readerFor, type CallDeclaration, type Reader } from "../calls/core";

export { groupNeeds, projectNeeds } from "../calls/core";

export interface ActionDeclaration<A extends z.ZodObject, Out> extends CallDeclaration<A> {
  /** What the action does to its subject, for messages: `run`, `purge`, `delete`. */
  verb: string;
  /** Argument names whose values are secrets (a token to revoke): masked in every message. */
  secretArgs?: readonly (keyof z.output<A> & string)[];
  /** The requests; `call.client` writes, `call.checked` checks an answer against its declared shape. */
  run(call: Reader, args: z.output<A>): Promise<Out>;
}

/** Options of an action. */
export interface ActionOptions {
  /** Another server than the stack's (`platform:url`, `platform:token`): `{ url, token, ... }`, or `{ url, jobToken }`. */
  connection?: Connection;
}

/** A declared action: a typed async function. */
export type Action<In, Out> = (args: In, opts?: ActionOptions) => Promise<Out>;

export function defineAction<A extends z.ZodObject, Out>(declaration: ActionDeclaration<A, Out>): Action<z.input<A>, Out> {
  const strict = declaration.args.strict();
  const act = async (args: z.input<A>): Promise<Out> => {
    const parsed = parseArgs(declaration, strict, args);
    const secrets = (declaration.secretArgs ?? []).map((name) => String(parsed[name] ?? ""));
    const api = clientFor(declaration);
    try {
      return await declaration.run(readerFor(api, declaration, parsed), parsed as z.output<A>);
    } catch (error) {
      const explanation = explained(declaration, parsed, error, secrets);
      if (!mayHaveBeenApplied(error) || explanation.message.includes(MAY_HAVE_BEEN_DONE)) throw explanation;
      throw new ExplainedError(`${explanation.message} ${MAY_HAVE_BEEN_DONE}`);
    }
  };
  return (args, opts) => withConnection(opts?.connection, () => act(args));
}
