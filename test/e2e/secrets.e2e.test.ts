/**
 * Secrets never appear in state, logs or error messages (issue 7).
 *
 * A distinct value is planted in every secret field the code declares (every
 * GroupIntegration slug that takes a secret, the Upstream password, the
 * ApplicationSettings keys, the PipelineSchedule variables; see
 * ./secrets-plan.ts), in the token, in the prior values a settings resource
 * reads and keeps, and in out-of-band edits a refresh reads back. The whole
 * engine life cycle then runs with the real CLI and verbose logging
 * (`-v=9 --logtostderr --logflow`, `--debug`): up, previews with diffs,
 * refresh, a rotation of every secret, drift, a failing up whose server errors
 * echo the secrets and the token, a preview that fails in `check`, and
 * destroy. Afterwards every byte the run produced is searched for every
 * planted value: the CLI's stdout and stderr of every command, each stack
 * export, the error messages, the file backend (state, history, backups), the
 * stack's config file, PULUMI_HOME (its logs decompressed where they are
 * gzip), the CLI's temporary directory, and the emulator's own log.
 *
 * Nothing is filtered before the search. Hits are then told apart by whose
 * output holds them: two kinds of Pulumi's own debug output print secrets
 * whatever a provider does (ENGINE_RPC_DUMP, SECRET_WIRE_FORM below); they are
 * counted and shown, not hidden. Every other hit fails the test.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "pulumi-platform";
import { selfManagedSeed, startEmulator, type Emulator } from "pulumi-platform/emulator";
import { ensurePulumiCli, PulumiProgram, type CliRun } from "../../scripts/pulumi-workspace.mts";
import { integrationStore } from "../../dist/emulator/areas/integrations/model";
import { MARKER, Plantings, SETTINGS_KINDS, declarationsWithSecrets, secretFieldsInCode, secretFieldsOf, type Declaration, type PlantedField } from "./secrets-plan";

/** Verbose logging, as a user asked to send logs would run it; on every command, flowed to the plugins. */
const VERBOSE = ["-v=9", "--logtostderr", "--logflow"];
const DEBUG = ["--debug"];

/**
 * Two kinds of debug output of Pulumi itself print secrets, whatever the
 * provider does. A hit is put down to them only when its text proves it.
 *
 * The engine's property dump (Pulumi 3.259, pkg/resource/plugin/rpc.go:98 and
 * :348, at -v=9): MarshalProperties and UnmarshalProperties log every property
 * they convert, as one JSON log record each. A secret crosses the wire as a map
 * `{<signature key>: <secret signature>, value: <plaintext>}`, which is
 * converted with the same functions, so its plaintext is logged as a property
 * `value`; and a dynamic provider's check, create and read results come back
 * unmarked (the Node.js dynamic provider host sends plain values; the engine
 * marks them secret afterwards), so they are logged under their own names. The
 * slog redaction (pulumi#23931) masks only values marked secret, and the
 * filter of config secrets (logging.FilterString) runs on the format string and
 * the string attributes before the message is formatted, so it never sees the
 * formatted plaintext.
 */
// A property's name in the dump may be a key of a map the program gives (a custom header's `X-Receiver-Key`).
const ENGINE_RPC_DUMP = /^\{"time":"[^"]+","level":"INFO","msg":"(?:Un)?[Mm]arshaling property for RPC\[.*\]: [A-Za-z0-9_.-]+=\{.*","v":9\}$/;
/**
 * The Node.js SDK's debug message `RegisterResource RPC finished: <resource>;
 * err: null, resp: <response>` (@pulumi/pulumi 3.259, runtime/resource.ts,
 * shown with --debug and logged by the engine as eventSink::Debug): it prints
 * the protobuf response whole (jspb's comma-separated array form), and with it
 * the resource's outputs; a secret there is `<signature key>,,,<secret
 * signature>,value,,,<plaintext>`. The serialized provider in the response
 * spans many lines, so the message does too. A hit on a line that holds that
 * wire form before it, after an `RPC finished:` message began, is in this dump:
 * the form is jspb's, which nothing of ours writes.
 */
const SECRET_WIRE_FORM = "1b47061264138c4ac30d75fd1eb44270,value,,,";
const SDK_RPC_RESPONSE = "RPC finished: ";

/** Whose output a hit is in: Pulumi's own debug output (shown above), or ours. */
function attribute(text: string, index: number, lineStart: number, line: string): "engine property dump" | "SDK response dump" | "ours" {
  if (ENGINE_RPC_DUMP.test(line)) return "engine property dump";
  const inRpcResponse = text.lastIndexOf(SDK_RPC_RESPONSE, index) !== -1;
  if (inRpcResponse && text.slice(lineStart, index).includes(SECRET_WIRE_FORM)) return "SDK response dump";
  return "ours";
}

interface Hit {
  place: string;
  marker: string;
  line: string;
  source: ReturnType<typeof attribute>;
}

/** Searches texts for the planted markers and keeps every hit with its line. */
class LeakSearch {
  readonly hits: Hit[] = [];
  /** Places searched (files, command outputs), and bytes, by group. */
  readonly groups = new Map<string, { places: number; bytes: number }>();

  get places(): number {
    return [...this.groups.values()].reduce((sum, group) => sum + group.places, 0);
  }

  get bytes(): number {
    return [...this.groups.values()].reduce((sum, group) => sum + group.bytes, 0);
  }

  search(group: string, place: string, text: string): void {
    const counts = this.groups.get(group) ?? { places: 0, bytes: 0 };
    this.groups.set(group, { places: counts.places + 1, bytes: counts.bytes + text.length });
    for (const match of text.matchAll(MARKER)) this.hit(place, text, match.index, match[0]);
    for (const { value } of plantings.serverMade) {
      for (let index = text.indexOf(value); index !== -1; index = text.indexOf(value, index + 1)) this.hit(place, text, index, value);
    }
  }

  private hit(place: string, text: string, index: number, marker: string): void {
    const start = text.lastIndexOf("\n", index) + 1;
    const end = text.indexOf("\n", index);
    const line = text.slice(start, end === -1 ? undefined : end);
    this.hits.push({ place, marker, line, source: attribute(text, index, start, line) });
  }

  /** Every file under a directory, gzip files decompressed (Pulumi's own logs are gzip until it has the stack's key). */
  searchDirectory(group: string, dir: string): void {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
      const file = path.join(dir, entry);
      if (!statSync(file).isFile()) continue;
      const bytes = readFileSync(file);
      const gzip = bytes[0] === 0x1f && bytes[1] === 0x8b;
      // Pulumi's logs of stack operations are encrypted with the stack's secrets provider (format PLOG):
      // they hold everything, unmasked, by design (`pulumi logs decrypt`); searched as they are.
      const encrypted = bytes.subarray(0, 4).toString("latin1") === "PLOG";
      const kind = gzip ? " (gzip logs, decompressed)" : encrypted ? " (logs encrypted by Pulumi)" : "";
      this.search(`${group}${kind}`, entry, (gzip ? gunzipSync(bytes) : bytes).toString("latin1"));
    }
  }
}

const plantings = new Plantings();
const search = new LeakSearch();
/** Every field planted, per set of secrets. */
const plantedFields: PlantedField[] = [];
/** Error messages the failing operations printed. */
const errorMessages: string[] = [];
const token = plantings.plant("platform:token (the stack's token)");

let emulator: Emulator;
let api: PlatformClient;
let program: PulumiProgram;
let emulatorLog = "";
let restoreStderr: (() => void) | undefined;
/** TMPDIR of the CLI and its plugins, so their temporary files are searched too. */
let cliTmp: string;
let runs = 0;
let current: ReturnType<typeof declarationsWithSecrets>;
let previousConfigKeys: string[] = [];

/** Writes a set of declarations into the program and its config secrets into the stack. */
async function declare(set: ReturnType<typeof declarationsWithSecrets>, { mutate }: { mutate?: (declarations: Declaration[]) => void } = {}): Promise<void> {
  const declarations = structuredClone(set.declarations);
  mutate?.(declarations);
  writeFileSync(path.join(program.dir, "declarations.json"), JSON.stringify(declarations, null, 2));
  if (previousConfigKeys.length) await program.cli(["config", "rm-all", ...previousConfigKeys]);
  const entries = Object.entries(set.config);
  await program.cli(["config", "set-all", ...entries.flatMap(([key, value]) => ["--secret", `${key}=${value}`])], { shown: ["config", "set-all", "[secrets]"] });
  previousConfigKeys = entries.map(([key]) => key);
}

function rotate(set: string, configFirst: boolean): ReturnType<typeof declarationsWithSecrets> {
  const next = declarationsWithSecrets(plantings, set, configFirst);
  plantedFields.push(...next.fields);
  return next;
}

/** The secret settings the emulator stores for a group integration (the API never shows them). */
function storedIntegrationSecrets(slug: string): Record<string, unknown> {
  const record = integrationStore.of(emulator.state).integrations.find((i) => i.slug === slug && i.active);
  return record?.properties ?? {};
}

/** The error-tracking keys on the server: their DSNs and public keys are secrets the server made. */
async function receiveServerSecrets(): Promise<number> {
  const keys = await api.list<{ public_key: string; sentry_dsn: string }>(apiPath`/projects/${"acme/web"}/error_tracking/client_keys`);
  for (const key of keys) {
    plantings.receive(key.sentry_dsn, "ErrorTrackingClientKey.dsn (made by the server)");
    plantings.receive(key.public_key, "ErrorTrackingClientKey.publicKey (made by the server)");
  }
  return keys.length;
}

/** The planted values of a set that the server must hold after an `up`: proof they were really sent. */
async function expectServerHolds(set: ReturnType<typeof declarationsWithSecrets>): Promise<void> {
  // The key the program manages, and the seed's: each DSN is searched for like a planted value.
  expect(await receiveServerSecrets()).toBeGreaterThan(1);
  const valueOf = (declaration: Declaration, field: string) => {
    const planted = declaration.secrets.find((s) => s.path[0] === field)!.from;
    return "config" in planted ? set.config[planted.config] : planted.runtime;
  };
  for (const declaration of set.declarations) {
    if (declaration.kind !== "GroupIntegration") continue;
    const stored = storedIntegrationSecrets(String(declaration.args.slug));
    for (const { path: [field] } of declaration.secrets) {
      expect(stored[String(field).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)], `${declaration.name}.${field} on the server`).toBe(valueOf(declaration, String(field)));
    }
  }
  const instance = set.declarations.find((d) => d.kind === "ApplicationSettings")!;
  const settings = await api.get<Record<string, unknown>>("/application/settings");
  expect(settings.akismet_api_key).toBe(valueOf(instance, "akismetApiKey"));
  const schedule = (await api.list<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`))[0]!;
  const live = await api.get<{ variables: { key: string; value: string }[] }>(apiPath`/projects/${"acme/web"}/pipeline_schedules/${schedule.id}`);
  const declared = set.declarations.find((d) => d.kind === "PipelineSchedule")!;
  expect(live.variables.map((v) => v.value).sort()).toEqual(
    declared.secrets.map(({ from }) => ("config" in from ? set.config[from.config] : from.runtime)).sort(),
  );
}

/** The error lines a failed command printed (the engine's `error:` diagnostics). */
function errorsIn(run: { stdout: string; stderr: string }): string[] {
  return `${run.stdout}\n${run.stderr}`.split("\n").filter((line) => /^\s*error:/.test(line) && !line.startsWith("{"));
}

beforeAll(async () => {
  ensurePulumiCli();
  // The emulator's own request log goes to this process's stderr: keep it to search it.
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => {
    emulatorLog += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  }) as typeof process.stderr.write;
  restoreStderr = () => {
    process.stderr.write = write;
  };
  const seed = { ...selfManagedSeed, users: selfManagedSeed.users!.map((user) => (user.username === "root" ? { ...user, token } : user)) };
  emulator = await startEmulator({ port: 0, seed, log: true });
  cliTmp = mkdtempSync(path.join(tmpdir(), "pulumi-platform-secrets-tmp-"));
  api = new PlatformClient({ url: emulator.url, token, retryBaseDelayMs: 10 });
  program = await PulumiProgram.create({
    programDir: "test/e2e/programs/secrets",
    transpileOnly: true,
    config: { "platform:url": emulator.url },
    secrets: { "platform:token": token },
    flags: VERBOSE,
    engineFlags: DEBUG,
    env: { TMPDIR: cliTmp },
    onRun: (run: CliRun) => {
      // Each command's output is a place of its own (the arguments of `config set-all` hold the values: not shown).
      const command = `#${String(++runs).padStart(2, "0")} pulumi ${run.args.filter((arg) => !arg.includes("=")).slice(0, 3).join(" ")}`;
      const isExport = run.args[0] === "stack" && run.args[1] === "export";
      search.search(isExport ? "stack exports" : "CLI stdout and stderr", `${command}: stdout`, run.stdout);
      search.search("CLI stdout and stderr", `${command}: stderr`, run.stderr);
      // SECRETS_TEST_TRANSCRIPT=<dir> keeps every command's output, to read where a hit came from.
      const transcript = process.env.SECRETS_TEST_TRANSCRIPT;
      if (transcript) writeFileSync(path.join(transcript, `${command.replace(/[^\w#-]+/g, "_")}.txt`), `$ pulumi ${run.args.join(" ")}\n--- stdout ---\n${run.stdout}\n--- stderr ---\n${run.stderr}`);
    },
  });
}, 10 * 60_000);

afterAll(async () => {
  restoreStderr?.();
  program?.dispose();
  if (cliTmp) rmSync(cliTmp, { recursive: true, force: true });
  await closeAllPools();
  await emulator?.stop();
});

describe.sequential("secrets never appear in state, logs or error messages (real CLI, verbose logging)", { timeout: 10 * 60_000 }, () => {
  it("plants a value in every secret field the code declares, and in the prior values the server holds", async () => {
    current = rotate("A", true);
    // Every secret field of the code is planted, and nothing else is called secret.
    expect([...new Set(plantedFields.map((f) => f.field))].sort()).toEqual(secretFieldsInCode());
    // Prior values: settings resources keep the values they replace; those of secret fields are secrets too.
    for (const kind of SETTINGS_KINDS) {
      const secret = secretFieldsOf(kind);
      if (secret.length === 0) continue;
      expect(kind, "a settings resource with secret fields the test can write prior values for").toBe("ApplicationSettings");
      const prior = Object.fromEntries(secret.map((field) => [field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), plantings.plant(`${kind}.${field} prior value on the server`)]));
      await api.put("/application/settings", prior);
    }
    await declare(current);
  });

  it("up, previews and refresh", async () => {
    await program.up();
    await expectServerHolds(current);
    // Clean, and its diff display (what a reviewer reads) searched as well.
    await program.preview("--expect-no-changes", "--diff");
    await program.refresh();
    await program.preview("--expect-no-changes");
    await program.exportStack();
  });

  it("an update that rotates every secret (config and run-time sources swapped)", async () => {
    current = rotate("B", false);
    await declare(current);
    await program.preview("--diff");
    await program.up();
    await expectServerHolds(current);
    await program.preview("--expect-no-changes");
    await program.exportStack();
  });

  it("out-of-band edits of readable secrets: refresh reads them, preview shows the drift, up restores", async () => {
    const drift = (what: string) => plantings.plant(`${what} (out-of-band edit read by refresh)`);
    await api.put("/application/settings", {
      akismet_api_key: drift("ApplicationSettings.akismetApiKey"),
      recaptcha_site_key: drift("ApplicationSettings.recaptchaSiteKey"),
      recaptcha_private_key: drift("ApplicationSettings.recaptchaPrivateKey"),
      external_pipeline_validation_service_token: drift("ApplicationSettings.externalPipelineValidationServiceToken"),
    });
    const schedule = (await api.list<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`))[0]!;
    await api.put(apiPath`/projects/${"acme/web"}/pipeline_schedules/${schedule.id}/variables/${"FIRST_SECRET"}`, { value: drift("PipelineSchedule.variables FIRST_SECRET") });
    await program.refresh();
    await program.exportStack();
    const preview = await program.preview("--diff");
    expect(preview.stdout).toMatch(/~ 2 to update/);
    await program.up();
    await expectServerHolds(current);
    await program.exportStack();
  });

  it("failing operations: server errors that echo the secrets and the token, and a value check refuses", async () => {
    const previous = current;
    current = rotate("C", true);
    await declare(current);
    // Each resource's first write is refused by a server whose message repeats what it was sent, and the token.
    const valuesOf = (set: typeof current, name: string) =>
      set.declarations.find((d) => d.name === name)!.secrets.map(({ from }) => ("config" in from ? set.config[from.config]! : from.runtime));
    const echo = (name: string) => [...valuesOf(current, name), ...valuesOf(previous, name), token].join(" ");
    const faulted: string[] = [];
    for (const declaration of current.declarations.filter((d) => d.secrets.length > 0)) {
      const message = `${declaration.name} was refused: ${echo(declaration.name)}`;
      if (declaration.kind === "GroupIntegration") {
        emulator.inject({ method: "PUT", path: new RegExp(`/groups/acme/integrations/${String(declaration.args.slug)}$`), status: 400, body: { message: `Failed to update integration. {webhook: ["${message}"]}` } });
      } else if (declaration.kind === "Upstream") {
        emulator.inject({ method: "PATCH", path: /\/virtual_registries\/container\/upstreams\/\d+$/, status: 422, body: { message: { password: [message] } } });
      } else if (declaration.kind === "ApplicationSettings") {
        emulator.inject({ method: "PUT", path: "/application/settings", status: 403, body: { message: `403 Forbidden - ${message}` } });
      } else if (declaration.kind === "PipelineSchedule") {
        emulator.inject({ method: "PUT", path: /\/pipeline_schedules\/\d+\/variables\/FIRST_SECRET$/, status: 400, body: { message } });
      } else if (declaration.kind === "ProjectVariable" || declaration.kind === "GroupVariable" || declaration.kind === "InstanceVariable") {
        const collection = { ProjectVariable: "/projects/acme%2Fweb/variables", GroupVariable: "/groups/acme/variables", InstanceVariable: "/admin/ci/variables" }[declaration.kind];
        emulator.inject({ method: "PUT", path: `${collection}/${String(declaration.args.key)}`, status: 400, body: { message: { value: [message] } } });
      } else if (declaration.kind === "ProjectHook" || declaration.kind === "GroupHook") {
        const hooks = declaration.kind === "ProjectHook" ? /\/projects\/[^/]+\/hooks\/\d+$/ : /\/groups\/acme\/hooks\/\d+$/;
        emulator.inject({ method: "PUT", path: hooks, status: 422, body: { message: { url: [message], token: [message] } } });
      } else {
        throw new Error(`no refused write for ${declaration.kind}: add one to the secrets test`);
      }
      faulted.push(declaration.name);
    }
    // --continue-on-error: every resource gets to its write, not only those before the first failure.
    const failed = await program.cli(["up", "--yes", "--skip-preview", "--continue-on-error", ...DEBUG], { allowFailure: true });
    emulator.clearFaults();
    expect(failed.code).not.toBe(0);
    const errors = errorsIn(failed);
    errorMessages.push(...errors);
    // One error per refused resource, each saying what failed, with the echoed secrets masked.
    for (const name of faulted) expect(errors.some((line) => line.includes(`${name} was refused`)), `the error of ${name}`).toBe(true);
    expect(errors.filter((line) => line.includes("was refused")).every((line) => line.includes("[secret]"))).toBe(true);

    // A value `check` refuses: the message names the property and the rule, never the value.
    const invalid = plantings.plant("GroupIntegration slack.webhook (invalid: not a URL)");
    await declare(current, {
      mutate: (declarations) => {
        const slack = declarations.find((d) => d.name === "integration-slack")!;
        slack.secrets = slack.secrets.filter((s) => s.path[0] !== "webhook");
        slack.args.webhook = invalid;
      },
    });
    const refused = await program.cli(["preview", ...DEBUG], { allowFailure: true });
    expect(refused.code).not.toBe(0);
    const checkErrors = errorsIn(refused);
    errorMessages.push(...checkErrors);
    expect(`${refused.stdout}${refused.stderr}`).toContain("webhook: must be an http(s) URL");

    // Without faults the same program converges.
    await declare(current);
    await program.up();
    await expectServerHolds(current);
    await program.exportStack();
  });

  it("destroy gives the prior values back", async () => {
    await program.destroy();
    await program.exportStack();
    expect(integrationStore.of(emulator.state).integrations.filter((i) => i.active)).toEqual([]);
    const settings = await api.get<Record<string, unknown>>("/application/settings");
    const priors = plantings.all.filter((p) => p.what.includes("prior value on the server"));
    // One per secret setting of ApplicationSettings, the only settings resource with secrets.
    expect(priors).toHaveLength(secretFieldsOf("ApplicationSettings").length);
    expect(String(settings.akismet_api_key)).toBe(priors.find((p) => p.what.includes("akismetApiKey"))!.value);
  });

  it("no planted value appears anywhere the run left text", () => {
    for (const [index, message] of errorMessages.entries()) search.search("error messages", `error ${index + 1}`, message);
    search.searchDirectory("file backend (state, history, backups)", path.join(program.root, "backend"));
    search.searchDirectory("PULUMI_HOME (logs, workspaces)", path.join(program.root, "home"));
    for (const file of readdirSync(program.dir).filter((name) => /^Pulumi\..+\.yaml$/.test(name))) {
      search.search("stack config file", file, readFileSync(path.join(program.dir, file), "utf8"));
    }
    search.searchDirectory("CLI temporary directory", cliTmp);
    search.search("emulator stderr log", "stderr", emulatorLog);
    search.search("emulator request log", "requestLog", JSON.stringify(emulator.requestLog));

    const bySource = (source: Hit["source"]) => search.hits.filter((hit) => hit.source === source);
    const ours = bySource("ours");
    const pulumi = (source: Hit["source"]) => `${bySource(source).length} hits, ${new Set(bySource(source).map((hit) => hit.marker)).size} distinct values`;
    const fields = [...new Set(plantedFields.map((f) => f.field))];
    const integrationFields = fields.filter((field) => field.startsWith("GroupIntegration "));
    const integrationNames = new Set(integrationFields.map((field) => field.split(".").at(-1)));
    const count = (text: string) => plantings.all.filter((p) => p.what.includes(text)).length;
    const viaConfig = plantedFields.filter((f) => f.viaConfig).length;
    const example = (source: Hit["source"]) => {
      const hit = bySource(source)[0];
      return hit ? `\n      e.g. ${hit.line.replaceAll(hit.marker, "<planted>").slice(0, 240)}` : "";
    };
    const report = [
      `secrets searched for: ${plantings.all.length}, found: ${ours.length}`,
      `secret fields planted: ${fields.length} of the ${secretFieldsInCode().length} the code declares (GroupIntegration: ${integrationFields.length} slug fields, ${integrationNames.size} distinct field names), plus platform:token`,
      `server-made secrets searched for as well: ${plantings.serverMade.length} (error-tracking DSNs and public keys)`,
      `values planted: ${plantings.all.length - plantings.serverMade.length}: ${plantedFields.length} in fields (sets A, B, C; ${viaConfig} from the stack config, ${plantedFields.length - viaConfig} from the program's run time), ${count("prior value")} prior values on the server, ${count("out-of-band")} out-of-band edits, ${count("invalid")} value check refuses, the token`,
      `places searched: ${search.places}, ${(search.bytes / 1e6).toFixed(1)} MB; error messages: ${errorMessages.length}`,
      ...[...search.groups].map(([group, { places, bytes }]) => `  ${group}: ${places}, ${(bytes / 1e6).toFixed(2)} MB`),
      `found: ${ours.length}`,
      `found in Pulumi's own debug output, not ours (counted, not hidden):`,
      `  the engine's -v=9 property dump (pkg/resource/plugin/rpc.go:98/348): ${pulumi("engine property dump")}${example("engine property dump")}`,
      `  the Node.js SDK's --debug "RegisterResource RPC finished" response dump (runtime/resource.ts): ${pulumi("SDK response dump")}${example("SDK response dump")}`,
    ];
    console.log(`secrets test\n  ${report.join("\n  ")}`);
    const describeHit = (hit: Hit) => `${plantings.byMarker(hit.marker)?.what ?? "unknown marker"} in ${hit.place}: ${hit.line.replaceAll(hit.marker, "<planted>").slice(0, 400)}`;
    expect(ours.map(describeHit)).toEqual([]);
  });
});
