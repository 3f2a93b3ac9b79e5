/**
 * `platform-recover`: after a `pulumi up` that was killed (docs/own-repository.md#a-killed-pulumi-up),
 * settles each create the stack records as pending, so that the next `up` creates nothing twice and
 * `destroy` leaves nothing behind.
 *
 * For each pending create of this package's resources, the resource's own lookup
 * (./engine/pending-creates.ts) tells whether the create made its object. One
 * it made is recorded in the stack with its id, and read (`pulumi refresh
 * --target`); one it did not is dropped, so the next `up` creates it; one that
 * cannot be told stays pending and is named, with what to check.
 *
 * Pulumi's own `pulumi refresh --import-pending-creates URN ID` would be the
 * way to record one, but the CLI 3.259 drops such a create from the state
 * without reading or recording it (measured), which would leave the object
 * on the server and out of the stack. So the state is edited: `pulumi stack
 * export`, the pending operation turned into a resource (its recorded inputs,
 * still encrypted where secret, and the id found), `pulumi stack import`.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeAllPools } from "./client";
import { absolutePathEntries } from "./executable-path";
import { configureConnection } from "./engine/process-connections";
import { fileBackendDirectory, repairMetadataFiles } from "./file-backend";
import type { AnyResourceDefinition } from "./engine/definition";
import { lookUpPendingCreate, type PendingCreateFinding } from "./engine/pending-creates";
import { definitions } from "./resources";

const TYPE_PREFIX = "pulumi-nodejs:dynamic/platform:";
const USAGE =
  "usage: platform-recover [--cancel] [--stack NAME]  (in the directory of the Pulumi program; --cancel first releases the lock the killed run left, " +
  "as `pulumi cancel --yes` does: only once no other pulumi command runs on the stack)";
/** What the CLI says when it cannot read the stack's state, the file backend's damaged metadata among the causes. */
const UNREADABLE_STATE = /failed to load checkpoint|^error: EOF$/m;

interface Options {
  cancel: boolean;
  stackFlags: string[];
}

interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  [key: string]: unknown;
}
interface PendingOperation {
  resource: StateResource;
  type: string;
}
interface StackState {
  deployment: { resources?: StateResource[]; pending_operations?: PendingOperation[] } & Record<string, unknown>;
  [key: string]: unknown;
}

export async function run(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const options = optionsOf(argv);
  if (options === undefined) {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  try {
    process.exitCode = await recover(options);
  } catch (error) {
    console.error(`platform-recover: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    await closeAllPools();
  }
}

function optionsOf(argv: readonly string[]): Options | undefined {
  const options: Options = { cancel: false, stackFlags: [] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--cancel" && !options.cancel) options.cancel = true;
    else if (argv[i] === "--stack" && options.stackFlags.length === 0 && argv[i + 1]) options.stackFlags = ["--stack", argv[++i]!];
    else return undefined;
  }
  return options;
}

/** Runs the Pulumi CLI, found only in the absolute directories of PATH (../executable-path.ts): the program's directory may be a branch's checkout. */
function pulumi(args: string[], { quiet = true } = {}): string {
  return execFileSync("pulumi", ["--non-interactive", ...args], {
    encoding: "utf8",
    maxBuffer: 512 * 1024 * 1024,
    stdio: ["ignore", "pipe", quiet ? "pipe" : "inherit"],
    env: { ...process.env, PATH: absolutePathEntries(process.env.PATH) },
  });
}

/** The outcome for one pending create, as printed. */
interface Outcome {
  name: string;
  finding: PendingCreateFinding | { made: "recorded" };
}

/**
 * Runs a pulumi command; if the CLI cannot read the stack's state and the
 * backend is a directory whose metadata a kill cut, repairs it and runs the
 * command again.
 */
function pulumiRepairing(args: string[]): string {
  try {
    return pulumi(args);
  } catch (error) {
    if (!UNREADABLE_STATE.test(String((error as { stderr?: unknown }).stderr ?? ""))) throw error;
    const { url } = JSON.parse(pulumi(["whoami", "--json"])) as { url?: string };
    const directory = url === undefined ? undefined : fileBackendDirectory(url);
    const removed = directory === undefined ? [] : repairMetadataFiles(directory);
    if (removed.length === 0) throw error;
    for (const file of removed) console.log(`Repaired the state backend: removed ${file}, a metadata file the killed run left cut (the backend reads a missing one as default metadata).`);
    return pulumi(args);
  }
}

async function recover({ cancel, stackFlags }: Options): Promise<number> {
  if (cancel) console.log(pulumiRepairing(["cancel", "--yes", ...stackFlags]).trim());
  const state = JSON.parse(pulumiRepairing(["stack", "export", ...stackFlags])) as StackState;
  const pending = (state.deployment.pending_operations ?? []).filter((op) => op.type === "creating" && op.resource.type.startsWith(TYPE_PREFIX));
  if (pending.length === 0) {
    console.log("No create of pulumi-platform's resources is pending in this stack: nothing to recover.");
    return 0;
  }
  // The lookups need the declared values in plain text; they stay in this process (the state written back keeps them encrypted).
  const plain = JSON.parse(pulumi(["stack", "export", "--show-secrets", ...stackFlags])) as StackState;
  const plainInputs = new Map((plain.deployment.pending_operations ?? []).map((op) => [op.resource.urn, op.resource.inputs ?? {}]));
  const config = JSON.parse(pulumi(["config", "--show-secrets", "--json", ...stackFlags])) as Record<string, { value?: string }>;
  configureConnection({ get: (key) => config[key]?.value });

  const resources = state.deployment.resources ?? [];
  const recordedUrns = new Set(resources.map((resource) => resource.urn));
  const kept: PendingOperation[] = [];
  const found: string[] = [];
  const outcomes: Outcome[] = [];
  for (const op of state.deployment.pending_operations ?? []) {
    if (!pending.includes(op)) {
      kept.push(op);
      continue;
    }
    const name = op.resource.urn.split("::").at(-1)!;
    if (recordedUrns.has(op.resource.urn)) {
      // The create ended and was recorded; only its pending mark was left.
      outcomes.push({ name, finding: { made: "recorded" } });
      continue;
    }
    const definition = (definitions as Record<string, AnyResourceDefinition | undefined>)[op.resource.type.slice(TYPE_PREFIX.length)];
    const finding: PendingCreateFinding = definition
      ? await lookUpPendingCreate(definition, plainInputs.get(op.resource.urn) ?? {})
      : { made: "unknown", reason: `this version of pulumi-platform has no resource ${op.resource.type.slice(TYPE_PREFIX.length)}` };
    outcomes.push({ name, finding });
    if (finding.made === true) {
      // Recorded as created, its outputs the inputs until the refresh below reads the object (the host finds its code in them).
      resources.push({ ...op.resource, id: finding.id, outputs: op.resource.inputs ?? {} });
      found.push(op.resource.urn);
    } else if (finding.made === "unknown") kept.push(op);
  }
  state.deployment.resources = resources;
  state.deployment.pending_operations = kept;

  const dir = mkdtempSync(path.join(tmpdir(), "platform-recover-"));
  try {
    const file = path.join(dir, "state.json");
    writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
    pulumi(["stack", "import", "--file", file, ...stackFlags]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (found.length > 0) pulumi(["refresh", "--yes", "--skip-preview", ...found.flatMap((urn) => ["--target", urn]), ...stackFlags], { quiet: false });

  for (const { name, finding } of outcomes) console.log(describe(name, finding));
  const unknown = outcomes.filter(({ finding }) => finding.made === "unknown");
  if (unknown.length === 0) {
    console.log("Every cut create is settled: run `pulumi up` to create what is missing.");
    return 0;
  }
  console.log(
    `${unknown.length} create(s) stay pending. Check on the server whether each object exists: ` +
      "if it does, delete it or take it over (the resource's `import` option) after the next step; then run `pulumi refresh --clear-pending-creates` and `pulumi up`.",
  );
  return 1;
}

function describe(name: string, finding: Outcome["finding"]): string {
  switch (finding.made) {
    case true:
      return `${name}: made as declared (${finding.id}): recorded in the stack.`;
    case false:
      return `${name}: not made: no longer pending; the next \`pulumi up\` creates it.`;
    case "recorded":
      return `${name}: already recorded in the stack: no longer pending.`;
    default:
      return `${name}: cannot be told (${finding.reason}): still pending.`;
  }
}
