/**
 * A platform team's own repository, as a new user meets it: the README's
 * commands of "Use it in your own repository" run word for word (HOME is a
 * temporary directory holding `~/src/pulumi-platform`, a checkout made of links
 * to this repository's files): a project made from the shipped template, the
 * package packed into its vendor/ and installed by a relative path, the real
 * Pulumi CLI, and the emulator started with `npm run emulator` and stopped by
 * SIGTERM and SIGINT; the review loop rehearsed on the emulator, as
 * docs/review.md's "Rehearse the loop on the emulator" says, word for word
 * (its merge request and notes asserted through the API), and again from its
 * script that starts the emulator with `startEmulator` of the installed
 * package's `pulumi-platform/emulator`. Then the update
 * command of docs/own-repository.md, the
 * project committed, and a teammate's clone (another HOME, no checkout of
 * pulumi-platform) that runs the CI workflow of docs/ci/github-actions.yml step
 * by step, `npm ci` from the vendored tarball first, with the workflow's
 * cached Pulumi CLI build restored. Also: the template's TypeScript settings
 * and the other module resolutions, `pulumi new` on the shipped template, the
 * Node.js version check, the published declarations, and an example copied
 * out of the repository with its own package.json: platform-team on the
 * oldest `@pulumi/pulumi` of the package's range (the newest is this
 * repository's own, which the other end-to-end files run).
 *
 * npm installs come from the machine's npm cache (prefer-offline), the
 * registry only for what it lacks; the Pulumi CLI from the cache that
 * scripts/ensure-pulumi-cli.sh fills.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createConnection } from "node:net";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { CLI_VERSION, ensurePulumiCli, repoRoot } from "../../scripts/pulumi-workspace.mts";

/** The oldest @pulumi/pulumi the package's range allows (package.json `dependencies`), run by the platform-team example. */
const sdkRange = (JSON.parse(readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies["@pulumi/pulumi"]!;
const OLDEST_SDK = sdkRange.replace(/^\^/, "");

const root = mkdtempSync(path.join(tmpdir(), "pulumi-platform-user-"));
const home = path.join(root, "home");
const checkout = path.join(home, "src/pulumi-platform"); // what the README calls ~/src/pulumi-platform
const project = path.join(home, "src/platform-infra"); // what the README calls ~/src/platform-infra
let tarball = "";
const started: ChildProcess[] = [];

/** The user's environment: a HOME of their own, no npm-run variables of this suite, no Pulumi CLI on PATH. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_|^INIT_CWD$|^PLATFORM_|^PULUMI_/i.test(key)));
  const pathEntries = (process.env.PATH ?? "").split(path.delimiter).filter((entry) => !entry.startsWith(repoRoot) && !existsSync(path.join(entry, "pulumi")));
  return {
    ...inherited,
    HOME: home,
    PATH: pathEntries.join(path.delimiter),
    npm_config_cache: path.join(homedir(), ".npm"), // the machine's npm cache: installs work offline once it is warm
    npm_config_prefer_offline: "true",
    npm_config_update_notifier: "false",
    PULUMI_CLI_CACHE: path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), ".cache"), "pulumi-platform/pulumi-cli"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    NO_COLOR: "1",
    ...extra,
  };
}

interface Run {
  code: number;
  output: string;
}

/** Runs a bash script; throws with its output unless it succeeds (or `allowFailure`). */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv = userEnv(), allowFailure = false): Run {
  const result = spawnSync("bash", ["-euo", "pipefail", "-c", script], { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  const run = { code: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
  if (run.code !== 0 && !allowFailure) throw new Error(`script failed (${run.code}) in ${cwd}:\n${script}\n--- output ---\n${run.output}`);
  return run;
}

/** The fenced sh (or js) block of README.md (or another doc) that follows `<!-- user-project: NAME -->`. */
function readmeBlock(name: string, doc = "README.md"): string {
  const readme = readFileSync(path.join(repoRoot, doc), "utf8");
  const match = new RegExp(`<!-- user-project: ${name} -->\\s*\`\`\`(?:sh|js)\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!match) throw new Error(`${doc} has no sh or js block marked <!-- user-project: ${name} -->`);
  return match[1]!;
}

/** Whether something listens on 127.0.0.1:`port`. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** Waits for a child to exit; its exit code, or the signal that ended it. */
function exited(child: ChildProcess): Promise<number | string> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? child.signalCode!);
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal!)));
}

/**
 * The README's emulator listens on 127.0.0.1:8080: a server already there (a
 * user's own emulator, another program) would answer this test's requests in
 * its place, so the test stops instead.
 */
async function expectPortFree(port: number): Promise<void> {
  if (await listening(port)) throw new Error(`127.0.0.1:${port} is already in use: this test starts the README's emulator there, and would talk to whatever listens there instead; stop it and run the test again`);
}

/** Starts a long-running script in its own process group (stopped in afterAll). */
function startInBackground(script: string, cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn("bash", ["-c", script], { cwd, env, detached: true, stdio: "ignore" });
  started.push(child);
  return child;
}

async function waitFor(what: string, ready: () => Promise<boolean> | boolean, seconds = 60): Promise<void> {
  for (let waited = 0; waited < seconds * 5; waited++) {
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A directory holding only Node.js 22+ (what actions/setup-node gives a CI job): the project's own Node. */
function setupNodeDir(): string {
  return path.dirname(realpathSync(path.join(project, "node_modules/.bin/node")));
}

beforeAll(() => {
  ensurePulumiCli(); // builds the CLI into the cache once, if this machine has none
  mkdirSync(checkout, { recursive: true });
  // A checkout after `npm ci`, made of links to this repository's files (its node_modules included).
  for (const entry of ["bin", "templates", "scripts", "src", "docs", "node_modules", "package.json", "tsconfig.build.json", "README.md", "LICENSE"]) {
    symlinkSync(path.join(repoRoot, entry), path.join(checkout, entry));
  }
}, 240_000);

afterAll(() => {
  for (const child of started) {
    try {
      process.kill(-child.pid!, "SIGTERM");
    } catch {
      // already gone
    }
  }
  rmSync(root, { recursive: true, force: true });
}, 180_000);

describe("a project of its own, installed from the packed package", { sequential: true }, () => {
  it("README: a new project from the template, the package in its vendor/ by a relative path without script warnings, type-checks", () => {
    const run = bash(readmeBlock("new"), home);
    expect(run.output).not.toMatch(/install-scripts|not yet covered by allowScripts/);
    tarball = path.join(project, "vendor/pulumi-platform-0.1.0.tgz");
    expect(readdirSync(path.join(project, "vendor"))).toEqual(["pulumi-platform-0.1.0.tgz"]);
    const manifest = JSON.parse(readFileSync(path.join(project, "package.json"), "utf8")) as { name: string; dependencies: Record<string, string> };
    expect(manifest.name).toBe("platform-infra");
    expect(manifest.dependencies["pulumi-platform"]).toBe("file:vendor/pulumi-platform-0.1.0.tgz");
    expect(readFileSync(path.join(project, "package-lock.json"), "utf8")).not.toContain(home);
    expect(readFileSync(path.join(project, ".gitignore"), "utf8")).toContain(".platform-emulator-state.json");
    // One copy of the SDK, the one the template pins: the CLI this suite builds is for it.
    const tree = bash("npm ls @pulumi/pulumi --all --json", project).output;
    const versions = new Set([...tree.matchAll(/"@pulumi\/pulumi": \{\s*"version": "([^"]+)"/g)].map((match) => match[1]));
    const pinned = (JSON.parse(readFileSync(path.join(repoRoot, "templates/platform/package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies["@pulumi/pulumi"];
    expect([...versions]).toEqual([pinned]);
    // What users get: no lifecycle scripts, no source maps, a licence, the template.
    const installed = path.join(project, "node_modules/pulumi-platform");
    const published = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")) as Record<string, unknown>;
    expect(published.scripts).toBeUndefined();
    expect(bash("find . -name '*.map' | head -n 5", installed).output).toBe("");
    expect(readFileSync(path.join(installed, "LICENSE"), "utf8")).toContain("Apache License");
  }, 240_000);

  it("README: the CLI from the package, a stack, the emulator from npm run emulator, preview and up against it; SIGTERM stops the emulator", async () => {
    // PULUMI_HOME: the CLI finds ~/.pulumi through the user database, not HOME; keep the machine's out of it.
    const env = userEnv({ PULUMI_HOME: path.join(home, ".pulumi") });
    // `exec`: the child is npm itself, which a process manager (or `kill`) signals.
    await expectPortFree(8080);
    const emulator = startInBackground(`exec ${readmeBlock("emulator")}`, project, env);
    await waitFor("the emulator on 127.0.0.1:8080", () =>
      fetch("http://127.0.0.1:8080/api/v4/metadata", { headers: { "PRIVATE-TOKEN": "glpat-alice-token" } }).then(
        (response) => response.ok,
        () => false,
      ),
    );
    // The README's block, then (in the same shell, as a user goes on) a second preview that must be clean.
    const run = bash(`${readmeBlock("run")}\nnpm run pulumi -- preview --expect-no-changes`, project, env);
    expect(run.output).toMatch(/2 created/);
    expect(run.output).toContain('platformVersion: "');
    // The project's SDK is the pinned one, so the CLI is the suite's own build, reused, never another.
    expect(run.output).not.toMatch(/building pulumi v/);
    process.kill(emulator.pid!, "SIGTERM"); // npm alone, not its process group
    await exited(emulator);
    await waitFor("port 8080 to close", async () => !(await listening(8080)), 10);
    expect(existsSync(path.join(project, ".platform-emulator-state.json"))).toBe(true);
  }, 900_000);

  // The rehearsal's shell block runs word for word as the script's rehearse.sh; its run on `npm run
  // emulator` would repeat the same commands (that emulator is the README's test above).
  it("docs/review.md: the loop rehearsed on the emulator from its script (startEmulator of pulumi-platform/emulator): a branch and a commit through the API, a merge request, its review, the merge, the guarded apply", async () => {
    const env = userEnv({ PULUMI_HOME: path.join(home, ".pulumi") });
    writeFileSync(path.join(project, "rehearse.sh"), readmeBlock("rehearsal", "docs/review.md"));
    writeFileSync(path.join(project, "rehearse.mjs"), readmeBlock("rehearsal-from-code", "docs/review.md"));
    try {
      // The shell of the README's first day. This emulator starts from the seed: both stacks' objects are made again.
      const shell = 'export PATH="$(npx pulumi-platform-cli):$PATH" PULUMI_CONFIG_PASSPHRASE=change-me PULUMI_BACKEND_URL="file://$HOME"\n';
      await expectPortFree(8080);
      const run = bash(`${shell}npx node rehearse.mjs`, project, env);
      const printed = run.output.split("\n").filter((line) => /^!\d+ note \d+: /.test(line));
      expect(printed.map((line) => line.replace(/^!\d+ note \d+: /, ""))).toEqual(['<!-- platform-review stack="dev" -->', '<!-- platform-review stack="prod" -->', '<!-- platform-review-applied stack="dev" -->', '<!-- platform-review-applied stack="prod" -->']);
      expect(existsSync(path.join(project, "up.json"))).toBe(false);
    } finally {
      for (const file of ["rehearse.sh", "rehearse.mjs"]) rmSync(path.join(project, file), { force: true });
    }
    expect(await listening(8080)).toBe(false); // the script stopped its emulator
  }, 600_000);

  it("the emulator stops on SIGINT to npm run emulator, and on either signal when run directly on an old Node.js, under the project's own", async () => {
    const env = userEnv();
    await expectPortFree(8080);
    const viaNpm = startInBackground("exec npm run emulator", project, env);
    await waitFor("the emulator on 127.0.0.1:8080", () => listening(8080));
    process.kill(viaNpm.pid!, "SIGINT");
    await exited(viaNpm);
    await waitFor("port 8080 to close", async () => !(await listening(8080)), 10);
    // The shell's node made to say 20: the command runs the emulator under node_modules/.bin/node and passes signals on.
    const preload = path.join(root, "node-20-bin.cjs");
    writeFileSync(preload, 'Object.defineProperty(process.versions, "node", { value: "20.11.1" });\n');
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const direct = startInBackground(`exec node --require ${JSON.stringify(preload)} node_modules/.bin/platform-emulator --port-from Pulumi.yaml --quiet`, project, env);
      await waitFor("the emulator on 127.0.0.1:8080", () => listening(8080));
      process.kill(direct.pid!, signal);
      expect(await exited(direct)).toBe(0);
      expect(await listening(8080)).toBe(false);
    }
  }, 120_000);

  it("docs/own-repository.md: updating the package is one command; the project is committed without what .gitignore leaves out", () => {
    bash(readmeBlock("update", "docs/own-repository.md"), home);
    expect(readdirSync(path.join(project, "vendor"))).toEqual(["pulumi-platform-0.1.0.tgz"]);
    expect((JSON.parse(readFileSync(path.join(project, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies["pulumi-platform"]).toBe(
      "file:vendor/pulumi-platform-0.1.0.tgz",
    );
    const committed = bash("git init -q -b main && git add -A && git -c user.name=dev -c user.email=dev@example.com commit -qm 'platform-infra' && git ls-files", project).output.split("\n");
    expect(committed).toContain("vendor/pulumi-platform-0.1.0.tgz");
    expect(committed).toContain("package-lock.json");
    expect(committed.filter((file) => /^node_modules\/|emulator-state|^\.pulumi\//.test(file))).toEqual([]);
  }, 300_000);

  it("the template's TypeScript settings, and moduleResolution node16 and bundler, type-check both entry points", async () => {
    writeFileSync(
      path.join(project, "entry-points.ts"),
      'import { Badge } from "pulumi-platform";\nimport { startEmulator, defaultSeed } from "pulumi-platform/emulator";\nexport const used = [Badge, startEmulator, defaultSeed];\n',
    );
    const variants: Record<string, object> = {
      node10: { extends: "./tsconfig.json", files: ["index.ts", "entry-points.ts"] },
      node16: { extends: "./tsconfig.json", compilerOptions: { module: "node16", moduleResolution: "node16" }, files: ["index.ts", "entry-points.ts"] },
      bundler: { extends: "./tsconfig.json", compilerOptions: { module: "preserve", moduleResolution: "bundler" }, files: ["index.ts", "entry-points.ts"] },
    };
    for (const [name, config] of Object.entries(variants)) writeFileSync(path.join(project, `tsconfig.${name}.json`), JSON.stringify(config));
    const runs = await Promise.all(
      Object.keys(variants).map((name) =>
        bashAsync(`npx tsc --noEmit -p tsconfig.${name}.json`, project, userEnv()).then(
          (run) => ({ name, ...run }),
          (error: Error) => ({ name, code: 1, output: error.message }),
        ),
      ),
    );
    expect(runs).toEqual(Object.keys(variants).map((name) => ({ name, code: 0, output: "" })));
  }, 300_000);

  it("pulumi new accepts the template the package ships", () => {
    const target = path.join(root, "from-pulumi-new");
    const env = userEnv({ PULUMI_HOME: path.join(root, "pulumi-home-new") });
    bash(`export PATH="$(npx pulumi-platform-cli):$PATH"; pulumi new "$PWD/node_modules/pulumi-platform/templates/platform" --generate-only --yes --name team-infra --dir ${JSON.stringify(target)}`, project, env);
    expect(JSON.parse(readFileSync(path.join(target, "package.json"), "utf8"))).toMatchObject({ name: "team-infra" });
    expect(readFileSync(path.join(target, "Pulumi.yaml"), "utf8")).toMatch(/^name: team-infra$/m);
    // npm leaves .gitignore files out of packages: the installed template holds it as gitignore.
    expect(readdirSync(target).sort()).toEqual([".gitlab-ci.yml", "Pulumi.dev.yaml", "Pulumi.prod.yaml", "Pulumi.yaml", "gitignore", "index.ts", "package.json", "tsconfig.json"]);
  }, 60_000);

  it("a teammate's clone runs the CI workflow of docs/ci/github-actions.yml: npm ci from vendor/, the CLI from the restored cache, the emulator, preview and up", async () => {
    type Step = { name?: string; uses?: string; run?: string; if?: string; with?: Record<string, string> };
    const workflow = parseYaml(readFileSync(path.join(repoRoot, "docs/ci/github-actions.yml"), "utf8")) as { jobs: Record<string, { env: Record<string, string>; steps: Step[] }> };
    const job = workflow.jobs.emulator!;
    // The runner: another machine's HOME with no checkout of pulumi-platform, and the repository cloned (actions/checkout).
    const runnerHome = path.join(root, "runner-home");
    const clone = path.join(root, "runner-work/platform-infra");
    bash(`git clone -q ${JSON.stringify(project)} ${JSON.stringify(clone)}`, root);
    expect(existsSync(path.join(clone, "node_modules"))).toBe(false);
    // actions/setup-node keeps Node's packages; actions/cache restores the CLI build at the path the workflow names.
    expect(job.steps.find((step) => step.uses?.startsWith("actions/setup-node"))?.with?.cache).toBe("npm");
    const cached = job.steps.find((step) => step.uses?.startsWith("actions/cache"))!;
    expect(cached.with!.key).toContain("hashFiles('package-lock.json')");
    const cacheDir = cached.with!.path!.replace(/^~/, runnerHome);
    mkdirSync(cacheDir, { recursive: true });
    const machineCache = userEnv().PULUMI_CLI_CACHE!;
    for (const entry of readdirSync(machineCache).filter((name) => /^v[\d.]+$/.test(name))) symlinkSync(path.join(machineCache, entry), path.join(cacheDir, entry));
    const runnerTemp = path.join(root, "runner-temp");
    mkdirSync(runnerTemp);
    const githubPath = path.join(root, "github-path");
    writeFileSync(githubPath, "");
    const steps = job.steps.filter((step) => step.run !== undefined);
    expect(steps.map((step) => step.name)).toEqual(["Install", "Pulumi CLI", "Start the emulator", "Preview and update against the emulator", "Stop the emulator"]);
    const outputs: Record<string, string> = {};
    let failure: unknown;
    for (const step of steps) {
      if (failure !== undefined && step.if !== "always()") continue; // as the runner: after a failure, only `if: always()` steps
      // As the runner: the job's env, setup-node's Node.js first on PATH, then what steps added to GITHUB_PATH.
      const added = readFileSync(githubPath, "utf8").split("\n").filter(Boolean).reverse();
      const { PULUMI_CLI_CACHE: _default, ...env } = userEnv({ ...job.env, HOME: runnerHome, RUNNER_TEMP: runnerTemp, GITHUB_PATH: githubPath, PULUMI_HOME: path.join(root, "pulumi-home-ci") });
      env.PATH = [...added, setupNodeDir(), env.PATH].join(path.delimiter);
      try {
        outputs[step.name!] = bash(step.run!, clone, env).output;
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
    expect(realpathSync(path.join(clone, "node_modules/pulumi-platform"))).toBe(path.join(clone, "node_modules/pulumi-platform"));
    expect(outputs["Pulumi CLI"]).toContain(`reusing cached build: ${cacheDir}`);
    expect(outputs["Pulumi CLI"]).not.toMatch(/building pulumi v/);
    expect(outputs["Start the emulator"]).toMatch(/emulator ready at http:\/\/127\.0\.0\.1:\d+/);
    expect(outputs["Preview and update against the emulator"]).toMatch(/2 created/);
    const pid = Number(readFileSync(path.join(runnerTemp, "emulator.pid"), "utf8"));
    await waitFor("the emulator to stop", () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    }, 10);
  }, 300_000);

  it("the package says what to do on a Node.js older than 22, when it is loaded", () => {
    const preload = path.join(root, "node-20.cjs");
    writeFileSync(preload, 'Object.defineProperty(process.versions, "node", { value: "20.11.1" });\n');
    const run = bash(`PATH=${JSON.stringify(setupNodeDir())}:$PATH node --require ${JSON.stringify(preload)} -e 'require("pulumi-platform")'`, project, userEnv(), true);
    expect(run.code).not.toBe(0);
    expect(run.output).toContain("pulumi-platform needs Node.js 22 or newer, but this is Node.js 20.11.1");
    expect(run.output).toContain("npm install --save-dev node@24");
  });

  it("the published declarations speak to users: no references to documents they do not have", () => {
    const leaks = bash(
      `grep -rnoE ".{0,30}([Tt]he spec\\b|[Ss]pec (document|part)|document [0-9]|\\bparts? [0-9]+\\.[0-9]|\\b[Ii]ssue [0-9]+|real-api-behaviour).{0,30}" --include='*.d.ts' dist || true`,
      path.join(project, "node_modules/pulumi-platform"),
    ).output;
    expect(leaks.split("\n").filter(Boolean)).toEqual([]);
  });
});

describe("examples copied out of the repository, each with its own package.json", { sequential: true }, () => {
  /** Copies an example, installs it (with `sdk` pinned if given) and runs up and a clean preview against an emulator started from its command line. */
  async function runExample(example: string, options: { sdk?: string; seed?: "self-managed"; token: string }): Promise<string> {
    const dir = path.join(root, "examples", example);
    cpSync(path.join(repoRoot, "examples", example), dir, { recursive: true, filter: (file) => !file.includes("node_modules") && !/Pulumi\.[^/]+\.yaml$/.test(path.basename(file)) });
    const env = userEnv({ PULUMI_HOME: path.join(dir, ".pulumi-home"), PULUMI_BACKEND_URL: `file://${dir}/.state`, PULUMI_CONFIG_PASSPHRASE: "example" });
    env.PATH = [setupNodeDir(), env.PATH].join(path.delimiter);
    const sdk = options.sdk ? `@pulumi/pulumi@${options.sdk} ` : "";
    await bashAsync(`npm install ${sdk}${JSON.stringify(tarball)}`, dir, env);
    let seed = "";
    if (options.seed === "self-managed") {
      bash(`node -e 'process.stdout.write(JSON.stringify(require("pulumi-platform/emulator").selfManagedSeed))' > seed.json`, dir, env);
      seed = "--seed seed.json";
    }
    startInBackground(`node_modules/.bin/platform-emulator --port 0 --quiet ${seed} --ready-file emulator-url`, dir, env);
    await waitFor(`the emulator of ${example}`, () => existsSync(path.join(dir, "emulator-url")));
    mkdirSync(path.join(dir, ".state"));
    const run = bash(
      [
        // The CLI this repository builds (the template's pair) runs every SDK of the range.
        `export PATH="$(PULUMI_CLI_VERSION=${CLI_VERSION} npx pulumi-platform-cli):$PATH"`,
        "pulumi stack init e2e --non-interactive",
        `pulumi config set platform:url "$(cat emulator-url)"`,
        `pulumi config set --secret platform:token ${options.token}`,
        "pulumi up --yes --skip-preview --non-interactive",
        "pulumi preview --expect-no-changes --non-interactive",
        "npm ls @pulumi/pulumi",
      ].join("\n"),
      dir,
      env,
    );
    return run.output;
  }

  // The newest SDK of the range is this repository's own (its lockfile), which every other end-to-end file runs.
  it(`platform-team on the oldest @pulumi/pulumi of the range (${OLDEST_SDK})`, async () => {
    const platformTeam = await runExample("platform-team", { sdk: OLDEST_SDK, seed: "self-managed", token: "glpat-root-token" });
    expect(platformTeam).toMatch(/\d+ created/);
    // `npm ls`: one copy of the SDK, the oldest of the range, serves the program and the package.
    expect(new Set([...platformTeam.matchAll(/@pulumi\/pulumi@([\d.]+)/g)].map((match) => match[1]))).toEqual(new Set([OLDEST_SDK]));
  }, 300_000);
});

/** bash() without blocking the event loop, for installs that run side by side. */
function bashAsync(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", script], { cwd, env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve({ code, output }) : reject(new Error(`script failed (${code}) in ${cwd}:\n${script}\n--- output ---\n${output}`))));
  });
}
