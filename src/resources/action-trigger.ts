/**
 * A trigger resource: an action run as part of a program's life, at `up`
 * only (a preview never creates anything), once when the resource is
 * created and again whenever one of its inputs changes (each input replaces
 * it, `triggers` included). An event cannot be undone: destroy removes the
 * resource from the state and leaves what the action did; read gives back
 * what the run recorded (a run is not an object the server keeps).
 */
import { z } from "zod";
import { defineResource, type EngineContext, type FieldTraits } from "../engine/definition";
import type { Needs } from "../engine/needs";

/** Any values: a change of one runs the action again (a release's version, a schedule's inputs). */
export const triggers = z.array(z.unknown()).optional();

interface TriggerDeclaration<S extends z.ZodObject> {
  name: string;
  schema: S;
  /** What the run answers, as outputs (camelCase). */
  outputs: readonly string[];
  /** What the run needs: explains a refusal, and the preview verifies the least role it is known to need (../engine/verify.ts). */
  needs(args: z.output<S>): Needs;
  /** Runs the action; answers the resource's id and its outputs. */
  run(ctx: EngineContext, args: z.output<S>): Promise<{ id: string; outputs: Record<string, unknown> }>;
}

export function defineActionTrigger<S extends z.ZodObject>(declaration: TriggerDeclaration<S>) {
  const recorded = (state: Record<string, unknown>) => Object.fromEntries(declaration.outputs.map((name) => [name, state[name]]));
  const fields = Object.fromEntries(Object.keys(declaration.schema.shape).map((name) => [name, { local: true, replaceOnChange: true } satisfies FieldTraits]));
  return defineResource({
    name: declaration.name,
    schema: declaration.schema,
    fields: fields as { [K in keyof z.output<S>]?: FieldTraits },
    outputs: Object.fromEntries(declaration.outputs.map((name) => [name, {}])),
    outputsOf: (live: Record<string, unknown>) => recorded(live),
    needs: (args) => declaration.needs(args),
    async create(ctx, args) {
      const { id, outputs } = await declaration.run(ctx, args);
      return { id, live: outputs };
    },
    read: async (_ctx, _id, state) => recorded(state as Record<string, unknown>),
    // Every input replaces: an update changes only the connection's credentials, which a past run does not need.
    update: async (_ctx, _id, _args, _changed, olds) => recorded(olds as Record<string, unknown>),
    delete: async () => undefined,
  });
}
