/**
 * A trigger resource: an action run as part of a program's life, at `up`
 * only (a preview never creates anything), once when the resource is
 * created and again whenever one of its inputs changes (each input replaces
 * it, `triggers` included). An event cannot be undone: destroy removes the
 * resource from the state and leaves what the action did; read gives back
 * what the run recorded (a run is not an object the server keeps).
 */
import { z } from "zod";
import { field, traitsOf } from "../api/fields";
import { MAY_HAVE_BEEN_DONE, mayHaveBeenApplied, NetworkError } from "../client/errors";
import { defineObjectResource, type EngineContext, type OutputDeclaration, type OutputValue } from "../engine/definition";
import type { Needs } from "../api/needs";

/** Any values: a change of one runs the action again (a release's version, a schedule's inputs). */
export const triggers = z.array(z.unknown()).optional();

/** What a run records, by output name: each `recordedOutput<T>()`, documented on its key. */
type RunOutputs = Record<string, OutputDeclaration<never, unknown, never>>;

interface TriggerDeclaration<S extends z.ZodObject, O extends RunOutputs> {
  name: string;
  /** How the review names a run (`pipeline schedule run`). */
  words: { noun: string };
  schema: S;
  /** What the run answers, as outputs. */
  outputs: O;
  /** What the run needs: explains a refusal, and the preview verifies the least role it is known to need (../engine/verify.ts). */
  needs(args: z.output<S>): Needs;
  /** Runs the action; answers the resource's id and its outputs. */
  run(ctx: EngineContext, args: z.output<S>): Promise<{ id: string; outputs: { [K in keyof O]: OutputValue<O[K]> } }>;
}

export function defineActionTrigger<S extends z.ZodObject, O extends RunOutputs>(declaration: TriggerDeclaration<S, O>) {
  const names = Object.keys(declaration.outputs);
  const recorded = (state: Record<string, unknown>) => Object.fromEntries(names.map((name) => [name, state[name]]));
  // The live object of a run is what it recorded: each output is read from it by name.
  const outputs = Object.fromEntries(names.map((name) => [name, (live: Record<string, unknown>) => live[name]])) as unknown as O;
  // Every input only says what to run: none is a field of an object the server keeps.
  const inputs = Object.entries(declaration.schema.shape as Record<string, z.ZodType>).map(([name, type]) => [name, field(type, { ...traitsOf(type), local: true })]);
  return defineObjectResource({
    name: declaration.name,
    words: declaration.words,
    imported: { notImported: "a run is an act at `up`, not an object the server keeps" },
    schema: declaration.schema.extend(Object.fromEntries(inputs)) as unknown as S,
    outputs,
    // Refresh and delete send nothing: the run is what it recorded.
    needs: (args, operation) => (operation === "read" || operation === "delete" ? { ...declaration.needs(args), noRequest: true } : declaration.needs(args)),
    async create(ctx, args) {
      try {
        const { id, outputs } = await declaration.run(ctx, args);
        return { id, live: outputs };
      } catch (error) {
        // A run cannot be found again: a lost answer must not read as advice to run it blindly once more (the server's own failures already say so).
        if (error instanceof NetworkError && mayHaveBeenApplied(error)) error.message += ` ${MAY_HAVE_BEEN_DONE}`;
        throw error;
      }
    },
    read: async (_ctx, _id, state) => recorded(state as Record<string, unknown>),
    // No update: every input replaces the resource, which runs the action again.
    delete: async () => undefined,
  });
}
