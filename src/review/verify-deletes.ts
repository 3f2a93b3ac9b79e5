/**
 * The deletes of a preview, verified against the server as the engine
 * verifies every other step. The engine calls no provider at preview for an
 * object the program no longer declares (its delete runs at `up` only), so a
 * delete the server will refuse previews clean; the review verifies it from
 * the preview's data instead: each delete step carries the object's recorded
 * inputs, from which its declaration says what the delete needs
 * (`needs(recorded, "delete")`), checked by the engine's own verification
 * (../engine/verify.ts `verifyObject`: the same reads, one per owner and run,
 * the same rule: a refusal only on the server's word, an unknown fact is not
 * one) and worded as the engine words a replacement's delete.
 *
 * The server and token are the stack's as the preview saw them: its config's
 * `platform:url` (and the other connection settings), the token in
 * PLATFORM_TOKEN (a config value the CLI shows as `[secret]` cannot be read).
 */
import { client, configureConnection, verifyAtPreview } from "../connection";
import type { AnyResourceDefinition } from "../engine/definition";
import { readsOf, startRun } from "../engine/run-caches";
import { refusedStep, tokenUser, verifyObject } from "../engine/verify";
import { definitions } from "../resources";
import { isRecord, kindOf } from "./changes";
import { type Diagnostic, type PreviewOutput, SECRET } from "./preview";

/** What verifying a preview's deletes found: an error diagnostic per refused delete, on its resource; or why nothing was verified. */
export interface DeleteVerification {
  refusals: Diagnostic[];
  /** Why the deletes could not be verified (no token, no server): said, and not judged. */
  unverified?: string;
}

/** The deletes the server would refuse, each as the engine's error diagnostic on the resource it is about. */
export async function verifyDeletes(preview: PreviewOutput, env: NodeJS.ProcessEnv = process.env): Promise<DeleteVerification> {
  const deletes = (preview.steps ?? []).filter((step) => step.op === "delete" && step.oldState?.id && isRecord(step.oldState.inputs));
  const checked = deletes.flatMap((step) => {
    const definition = (definitions as Record<string, AnyResourceDefinition | undefined>)[kindOf(step.oldState!.type ?? undefined, step.urn)];
    return definition?.needs ? [{ step, definition }] : [];
  });
  if (checked.length === 0) return { refusals: [] };
  const config = isRecord(preview.config) ? preview.config : {};
  // A secret config value is `[secret]` here: not a setting, so the environment's (PLATFORM_TOKEN) stands.
  const fromEnvironment: Record<string, string | undefined> = { "platform:url": env.PLATFORM_URL, "platform:token": env.PLATFORM_TOKEN, "platform:verifyAtPreview": env.PLATFORM_VERIFY_AT_PREVIEW };
  configureConnection({ get: (key) => (typeof config[key] === "string" && config[key] !== SECRET ? (config[key] as string) : fromEnvironment[key]) });
  if (!verifyAtPreview()) return { refusals: [] };
  startRun();
  let ctx;
  try {
    ctx = { client: client() };
    // The token's user, read once for every check below: a token the server refuses verifies nothing, and says so.
    await tokenUser(ctx, readsOf(ctx.client));
  } catch (error) {
    return { refusals: [], unverified: (error as Error).message };
  }
  const refusals = await Promise.all(
    checked.map(async ({ step, definition }): Promise<Diagnostic | undefined> => {
      const id = step.oldState!.id!;
      const recorded = Object.fromEntries(Object.entries(step.oldState!.inputs!).filter(([key]) => !key.startsWith("__")));
      let needs;
      try {
        needs = definition.needs!(recorded as never, "delete");
      } catch {
        return undefined; // inputs the declaration cannot read (a value the CLI shows as `[secret]`): not judged
      }
      const failures = await verifyObject({ resource: definition.name, needs, ctx, id });
      return failures.length > 0 ? { urn: step.urn, severity: "error", message: refusedStep(definition.name, `delete ${id}`, failures) } : undefined;
    }),
  );
  return { refusals: refusals.filter((refusal): refusal is Diagnostic => refusal !== undefined) };
}
