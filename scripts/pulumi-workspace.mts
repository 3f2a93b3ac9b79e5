/**
 * Runs an example program with the real Pulumi CLI, offline: a copy of the
 * example in a temporary directory, a local file backend, no update checks
 * and no plugin downloads; the stack's secrets kept by the tests' key service
 * (scripts/test-kms.mts) or, where a test or the demo asks, by a passphrase.
 * Used by the end-to-end tests and by `npm run demo`.
 */
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { testKms } from "./test-kms.mts";

export const repoRoot = path.resolve(import.meta.dirname, "..");

let cliBinDir: string | undefined;

/**
 * The CLI version this repository runs: the one of the SDK the template pins,
 * the pair a new project gets (docs/own-repository.md, "Versions"). The
 * repository's own lockfile may hold a newer SDK of the package's range; a CLI
 * runs newer SDKs, and this keeps the suite on the one CLI that pair names.
 */
export const CLI_VERSION = (JSON.parse(readFileSync(path.join(repoRoot, "templates/platform/package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies["@pulumi/pulumi"]!;

/**
 * The directory holding `pulumi` and `pulumi-language-nodejs`: found on PATH or
 * built once into a cache outside the repository (scripts/ensure-pulumi-cli.sh
 * says what it is doing on stderr; the first build takes minutes), at CLI_VERSION.
 */
export function ensurePulumiCli(): string {
  if (cliBinDir) return cliBinDir;
  try {
    cliBinDir = execFileSync(path.join(repoRoot, "scripts/ensure-pulumi-cli.sh"), {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, PULUMI_CLI_VERSION: process.env.PULUMI_CLI_VERSION ?? CLI_VERSION },
    }).trim();
  } catch (error) {
    throw new Error(`The Pulumi CLI is not available and could not be built (scripts/ensure-pulumi-cli.sh failed; its messages are above): ${(error as Error).message}`);
  }
  return cliBinDir;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface ProgramOptions {
  /** Directory name under examples/; or give `programDir`. */
  example?: string;
  /** A program directory elsewhere (a test's own program), absolute or relative to the repository. */
  programDir?: string;
  stack?: string;
  /** Stack config; keys without a namespace belong to the project. */
  config?: Record<string, string>;
  /** Stack config stored encrypted. */
  secrets?: Record<string, string>;
  /** Print the CLI's output as it runs (the demo). */
  echo?: boolean;
  /** Skip TypeScript type checking of the program (the examples are type-checked by `npm run typecheck`). */
  transpileOnly?: boolean;
  /** Flags added to every `pulumi` command, e.g. verbose logging: `-v=9 --logtostderr --logflow`. */
  flags?: string[];
  /** Flags added to the commands that run the engine (up, preview, refresh, destroy), e.g. `--debug`. */
  engineFlags?: string[];
  /** Environment variables for the CLI besides the workspace's own. */
  env?: Record<string, string>;
  /**
   * Who keeps the stack's secrets: the tests' key service (the default: a
   * tenth of each command's CPU less than a passphrase), or a passphrase, as
   * a user's stack has (the demo, and tests of the passphrase itself).
   */
  secretsProvider?: "test-kms" | "passphrase";
  /** Called with every finished command and its output (tests that search all of it). */
  onRun?: (run: CliRun) => void;
}

/** One `pulumi` command as it ran. */
export interface CliRun extends RunResult {
  args: string[];
}

export class PulumiProgram {
  readonly root: string;
  readonly dir: string;
  readonly stack: string;
  /** The environment every command runs with (the backend, PULUMI_HOME, the passphrase, PATH). */
  readonly env: NodeJS.ProcessEnv;
  private readonly echo: boolean;
  private readonly flags: string[];
  private readonly engineFlags: string[];
  private readonly onRun?: (run: CliRun) => void;

  private readonly secretsProviderUrl: string | undefined;

  private constructor(root: string, options: ProgramOptions, kms: { url: string; env: Record<string, string> } | undefined) {
    this.root = root;
    this.dir = path.join(root, "program");
    this.stack = options.stack ?? "e2e";
    this.echo = options.echo ?? false;
    this.flags = options.flags ?? [];
    this.engineFlags = options.engineFlags ?? [];
    this.onRun = options.onRun;
    const { PLATFORM_URL: _url, PLATFORM_TOKEN: _token, ...inherited } = process.env;
    this.env = {
      ...inherited,
      // Node 24 from the `node` package first, then the CLI, then the dynamic provider plugin of the installed SDK.
      PATH: [path.join(repoRoot, "node_modules/.bin"), ensurePulumiCli(), path.join(repoRoot, "node_modules/@pulumi/pulumi"), process.env.PATH].join(path.delimiter),
      PULUMI_BACKEND_URL: `file://${path.join(root, "backend")}`,
      PULUMI_HOME: path.join(root, "home"),
      PULUMI_CONFIG_PASSPHRASE: "pulumi-platform-e2e",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_SKIP_CONFIRMATIONS: "true",
      ...(options.transpileOnly ? { PULUMI_NODEJS_TRANSPILE_ONLY: "true" } : {}),
      NO_COLOR: "1",
      ...kms?.env,
      ...options.env,
    };
    this.secretsProviderUrl = kms?.url;
  }

  static async create(options: ProgramOptions): Promise<PulumiProgram> {
    if ((options.example === undefined) === (options.programDir === undefined)) throw new Error("PulumiProgram.create: give example or programDir");
    const source = options.example !== undefined ? path.join(repoRoot, "examples", options.example) : path.resolve(repoRoot, options.programDir!);
    const root = mkdtempSync(path.join(tmpdir(), `pulumi-platform-${path.basename(source)}-`));
    try {
      const program = new PulumiProgram(root, options, options.secretsProvider === "passphrase" ? undefined : await testKms());
      mkdirSync(path.join(root, "backend"));
      cpSync(source, program.dir, { recursive: true, filter: (file) => !file.includes("node_modules") && !/Pulumi\.[^/]+\.yaml$/.test(path.basename(file)) });
      // The program resolves `pulumi-platform` (and the serialized provider its runtime) through the repository's node_modules.
      symlinkSync(path.join(repoRoot, "node_modules"), path.join(program.dir, "node_modules"), "dir");
      await program.cli(["stack", "init", program.stack, ...(program.secretsProviderUrl ? ["--secrets-provider", program.secretsProviderUrl] : [])]);
      await program.setConfigs(options.config ?? {}, options.secrets ?? {});
      return program;
    } catch (error) {
      rmSync(root, { recursive: true, force: true }); // the caller never gets the program, so it cannot clean up
      throw error;
    }
  }

  setConfig(key: string, value: string, { secret = false } = {}): Promise<RunResult> {
    const args = ["config", "set", ...(secret ? ["--secret"] : ["--plaintext"]), key, "--"];
    return this.cli([...args, value], { shown: [...args, secret ? "[secret]" : value] });
  }

  /**
   * Sets many config values in one `pulumi config set-all` (one process, not
   * one per key); `secrets` are stored encrypted. Nothing runs when both are empty.
   */
  setConfigs(config: Record<string, string>, secrets: Record<string, string> = {}): Promise<RunResult | undefined> {
    // `--flag=key=value`: a value is never read as a flag; set-all splits each pair at its first `=`.
    const plain = Object.entries(config).map(([key, value]) => `--plaintext=${key}=${value}`);
    const secret = Object.entries(secrets).map(([key, value]) => `--secret=${key}=${value}`);
    if (plain.length + secret.length === 0) return Promise.resolve(undefined);
    const shown = [...plain, ...Object.keys(secrets).map((key) => `--secret=${key}=[secret]`)];
    return this.cli(["config", "set-all", ...plain, ...secret], { shown: ["config", "set-all", ...shown] });
  }

  /** `pulumi up` without its preview; `flags` such as `--refresh`. */
  up(...flags: string[]): Promise<RunResult> {
    return this.cli(["up", "--yes", "--skip-preview", ...flags, ...this.engineFlags]);
  }

  preview(...flags: string[]): Promise<RunResult> {
    return this.cli(["preview", ...flags, ...this.engineFlags]);
  }

  /** `pulumi preview --json`, parsed; `flags` such as `--refresh` (its refresh steps have op `refresh`). */
  async previewJson(...flags: string[]): Promise<PreviewJson> {
    const result = await this.cli(["preview", "--json", ...flags, ...this.engineFlags]);
    return JSON.parse(result.stdout) as PreviewJson;
  }

  refresh(): Promise<RunResult> {
    return this.cli(["refresh", "--yes", "--skip-preview", ...this.engineFlags]);
  }

  destroy(): Promise<RunResult> {
    return this.cli(["destroy", "--yes", "--skip-preview", ...this.engineFlags]);
  }

  async exportStack(): Promise<StackExport> {
    return JSON.parse((await this.cli(["stack", "export"])).stdout) as StackExport;
  }

  async importStack(state: StackExport): Promise<RunResult> {
    const file = path.join(this.root, "import.json");
    writeFileSync(file, JSON.stringify(state));
    return this.cli(["stack", "import", "--file", file]);
  }

  /**
   * Runs `pulumi <args>` in the program directory; throws with the CLI's output when it fails,
   * unless `allowFailure`. `shown` replaces the arguments in the echoed command line (secrets).
   */
  cli(args: string[], { allowFailure = false, shown = args, env = this.env }: { allowFailure?: boolean; shown?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<RunResult> {
    const fullArgs = ["--non-interactive", "--color", "never", ...this.flags, ...args];
    if (this.echo) process.stdout.write(`\n$ pulumi ${shown.join(" ")}\n`);
    return new Promise((resolve, reject) => {
      const child = spawn("pulumi", fullArgs, { cwd: this.dir, env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk;
        if (this.echo) process.stdout.write(chunk);
      });
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk;
        if (this.echo) process.stderr.write(chunk);
      });
      child.on("error", reject);
      child.on("close", (code) => {
        const result = { code: code ?? -1, stdout, stderr };
        this.onRun?.({ args, ...result });
        if (code === 0 || allowFailure) resolve(result);
        else reject(new Error(`pulumi ${shown.join(" ")} exited with ${code}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`));
      });
    });
  }

  /** Removes the temporary directory (state, home and program copy). */
  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }

  /** The example directories, for tests that run each one. */
  static examples(): string[] {
    return readdirSync(path.join(repoRoot, "examples"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  }
}

/** The parts of `pulumi preview --json` the tests read. */
export interface PreviewJson {
  steps: PreviewStep[];
  changeSummary: Record<string, number>;
}

export interface PreviewStep {
  op: string;
  urn: string;
  replaceReasons?: string[];
  oldState?: { inputs?: Record<string, unknown> };
  newState?: { inputs?: Record<string, unknown> };
}

/**
 * The inputs a step changes. Dynamic providers send no detailed diff, so the
 * engine shows users exactly this: the old and new inputs compared.
 */
export function changedInputs(step: PreviewStep): string[] {
  const before = step.oldState?.inputs ?? {};
  const after = step.newState?.inputs ?? {};
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    // Keys starting with two underscores are the engine's and the provider's own (`__provider`): the CLI never shows them.
    .filter((key) => !key.startsWith("__") && JSON.stringify(before[key]) !== JSON.stringify(after[key]))
    .sort();
}

/** The steps of a preview by resource name (the last part of the URN). */
export function stepsByName(preview: PreviewJson): Record<string, PreviewStep> {
  return Object.fromEntries(preview.steps.map((step) => [step.urn.split("::").at(-1)!, step]));
}

export interface StackExport {
  version: number;
  deployment: {
    resources?: {
      urn: string;
      type: string;
      id?: string;
      inputs?: Record<string, unknown>;
      outputs?: Record<string, unknown>;
    }[];
  } & Record<string, unknown>;
}
