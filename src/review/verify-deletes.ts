/**
 * The deletes of a preview, verified against the server as the engine
 * verifies every other step. The engine calls no provider at preview for an
 * object the program no longer declares (its delete runs at `up` only), so a
 * delete the server will refuse previews clean; the review verifies it from
 * the preview's data instead: each delete step carries the object's recorded
 * inputs (so does the refresh of an object a cut replacement left to delete,
 * which every later `up` deletes), from which its declaration says what the delete needs
 * (`needs(recorded, "delete")`), checked by the engine's own verification
 * (../engine/verify.ts `verifyObject`: the same reads, one per owner and run,
 * the same rule: a refusal only on the server's word, an unknown fact is not
 * one) and worded as the engine words a replacement's delete.
 *
 * The server and token are the ones the provider of the stack takes, in its
 * order: the stack's config (`platform:url`, `platform:token` and the other
 * connection settings), else the environment (PLATFORM_URL, PLATFORM_TOKEN,
 * ...). The preview shows a secret config value only as `[secret]`: those are
 * read from the stack itself, through the Pulumi CLI (`pulumi config
 * --show-secrets --json`, which decrypts with the stack's secrets provider, as
 * the preview just did), in the program's directory, for the preview's stack.
 */
import { execFile } from "node:child_process";
import { absolutePathEntries } from "../executable-path";
import { client, configureConnection, verifyAtPreview } from "../engine/process-connections";
import type { AnyResourceDefinition } from "../engine/definition";
import { readsOf, startRun } from "../engine/run-caches";
import { refusedStep, tokenUser, verifyObject } from "../engine/verify";
import { definitions } from "../resources";
import { isPendingDelete, isRecord, kindOf } from "./changes";
import { type Diagnostic, type PreviewOutput, SECRET } from "./preview";

/** What verifying a preview's deletes found: an error diagnostic per refused delete, on its resource; or why nothing was verified. */
export interface DeleteVerification {
  refusals: Diagnostic[];
  /** Why the deletes could not be verified (no token, no server): said, and not judged. */
  unverified?: string;
  /** The secret values read from the stack's config, for the caller to mask in whatever it prints. */
  secrets: string[];
}

/** Whose config a secret setting is read from: the stack the preview was of, in the current directory (the program's). */
export interface StackConfigSource {
  /** The stack's name; without it a secret setting is not read. */
  stack?: string;
}

/** The deletes the server would refuse, each as the engine's error diagnostic on the resource it is about. */
export async function verifyDeletes(preview: PreviewOutput, env: NodeJS.ProcessEnv = process.env, source: StackConfigSource = {}): Promise<DeleteVerification> {
  // A replacement's old object left to delete has no step of its own: the refresh of it, marked, stands for its delete.
  const deletes = (preview.steps ?? []).filter(
    (step) => (step.op === "delete" || (step.op === "refresh" && isPendingDelete(step.oldState))) && step.oldState?.id && isRecord(step.oldState.inputs),
  );
  const checked = deletes.flatMap((step) => {
    const definition = (definitions as Record<string, AnyResourceDefinition | undefined>)[kindOf(step.oldState!.type ?? undefined, step.urn)];
    return definition?.needs ? [{ step, definition }] : [];
  });
  if (checked.length === 0) return { refusals: [], secrets: [] };
  const shown = isRecord(preview.config) ? preview.config : {};
  let config: Record<string, unknown> = shown;
  let secrets: string[] = [];
  const hidden = Object.keys(shown).filter((key) => key.startsWith("platform:") && shown[key] === SECRET);
  if (hidden.length > 0) {
    const read = await stackConfig(hidden, source, env);
    if (typeof read === "string") return { refusals: [], unverified: read, secrets: [] };
    config = { ...shown, ...read };
    secrets = hidden.flatMap((key) => secretValuesOf(key, read[key]));
  }
  // The provider's order: a setting of the stack's config, else the environment's.
  const fromConfig = (key: string) => (typeof config[key] === "string" && config[key] !== SECRET && (config[key] as string).trim() !== "" ? (config[key] as string) : undefined);
  const fromEnvironment: Record<string, string | undefined> = { "platform:url": env.PLATFORM_URL, "platform:token": env.PLATFORM_TOKEN, "platform:verifyAtPreview": env.PLATFORM_VERIFY_AT_PREVIEW };
  configureConnection({ get: (key) => fromConfig(key) ?? fromEnvironment[key] });
  if (!verifyAtPreview()) return { refusals: [], secrets };
  startRun();
  let ctx;
  try {
    ctx = { client: client() };
    // The token's user, read once for every check below: a token the server refuses verifies nothing, and says so.
    await tokenUser(ctx, readsOf(ctx.client));
  } catch (error) {
    return { refusals: [], unverified: (error as Error).message, secrets };
  }
  const refusals = await Promise.all(
    checked.map(async ({ step, definition }): Promise<Diagnostic | undefined> => {
      const id = step.oldState!.id!;
      const recorded = Object.fromEntries(Object.entries(step.oldState!.inputs!).filter(([key]) => !key.startsWith("__")));
      let needs;
      try {
        needs = definition.needs!(recorded as never, "delete", id);
      } catch {
        return undefined; // inputs the declaration cannot read (a value the CLI shows as `[secret]`): not judged
      }
      const failures = await verifyObject({ resource: definition.name, needs, ctx, id });
      return failures.length > 0 ? { urn: step.urn, severity: "error", message: refusedStep(definition.name, `delete ${id}`, failures) } : undefined;
    }),
  );
  return { refusals: refusals.filter((refusal): refusal is Diagnostic => refusal !== undefined), secrets };
}

/**
 * The values to mask of a secret setting: the value, and for `platform:headers` (a JSON object) each
 * header's value too, which is what a server or proxy repeats, never the JSON text as a whole.
 */
function secretValuesOf(key: string, value: string | undefined): string[] {
  if (value === undefined) return [];
  if (key !== "platform:headers") return [value];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [value];
  }
  return [value, ...(isRecord(parsed) ? Object.values(parsed).filter((header): header is string => typeof header === "string") : [])];
}

/** How long reading the stack's config may take (a backend over the network included), and the most it may write. */
const CONFIG_TIMEOUT_MS = 30_000;
const CONFIG_MAX_BYTES = 1024 * 1024;

/**
 * The values of `keys` in the stack's config, decrypted by the Pulumi CLI; a
 * key the config does not hold is left out. Or why they could not be read: a
 * message that names the keys and the stack, never a value (the CLI's own
 * output holds them all, and is never shown).
 */
async function stackConfig(keys: string[], { stack }: StackConfigSource, env: NodeJS.ProcessEnv): Promise<Record<string, string> | string> {
  const one = keys.length === 1;
  const what = `${keys.join(", ")}, kept as ${one ? "a secret" : "secrets"} in the stack's config`;
  if (stack === undefined) return `${what}, could not be read: the preview names no stack (give --stack)`;
  const command = `pulumi config --show-secrets --json --stack ${stack}`;
  const reading = `${what}, could not be read with \`${command}\``;
  const output = await new Promise<{ stdout: string } | string>((resolve) => {
    execFile(
      "pulumi",
      // `--stack=<name>`: a name is never read as a flag.
      ["--non-interactive", "config", "--show-secrets", "--json", `--stack=${stack}`],
      { env: cliEnvironment(env), encoding: "utf8", timeout: CONFIG_TIMEOUT_MS, killSignal: "SIGKILL", maxBuffer: CONFIG_MAX_BYTES, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) return resolve({ stdout });
        const failure = error as NodeJS.ErrnoException & { killed?: boolean; code?: string | number };
        if (failure.code === "ENOENT") return resolve(`${what}, could not be read: the Pulumi CLI (\`pulumi\`), which decrypts ${one ? "it" : "them"}, is not on PATH`);
        if (failure.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") return resolve(`${reading}: it wrote more than ${CONFIG_MAX_BYTES / 1024} KiB`);
        if (failure.killed) return resolve(`${reading}: it did not finish within ${CONFIG_TIMEOUT_MS / 1000} s`);
        resolve(`${reading}: ${cliError(stderr) ?? `it exited with ${String(failure.code)}`}`);
      },
    );
  });
  if (typeof output === "string") return output;
  let parsed: unknown;
  try {
    parsed = JSON.parse(output.stdout);
  } catch {
    parsed = undefined;
  }
  if (!isRecord(parsed)) return `${reading}: its output is not a JSON object`;
  const values: Record<string, string> = {};
  for (const key of keys) {
    const entry = parsed[key];
    if (isRecord(entry) && typeof entry.value === "string") values[key] = entry.value;
  }
  return values;
}

/**
 * The command's environment for the CLI: the backend's and the secrets provider's, without the platform's
 * tokens it has no use for; `pulumi` is looked for only in the absolute directories of PATH, never through
 * an empty or relative entry, which would find one in the working directory (a branch's checkout).
 */
function cliEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("PLATFORM_"))), PATH: absolutePathEntries(env.PATH), PULUMI_SKIP_UPDATE_CHECK: "true" };
}

/** The CLI's own error line (`error: incorrect passphrase`), bounded and on one line; the CLI never writes a config value there. */
function cliError(stderr: string): string | undefined {
  const line = stderr.split("\n").reverse().find((text) => text.trim() !== "");
  if (line === undefined) return undefined;
  const plain = line.replace(/[\u0000-\u001f\u007f]/g, " ").trim();
  return plain.length > 300 ? `${plain.slice(0, 300)}…` : plain;
}
