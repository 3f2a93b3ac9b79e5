/**
 * A `pulumi up` of 50 badges killed by SIGKILL part way, as a CI runner
 * cancelling a job kills the CLI's process group, with the real Pulumi CLI.
 *
 * What must hold: no create starts after the kill, and the provider process
 * (which the kill does not reach: Pulumi starts it in a process group of its
 * own, so killing the CLI's group kills only `pulumi`) exits; the recovery of
 * docs/own-repository.md, run word for word, leaves each badge on the server
 * once and in the stack once, with nothing pending; the next preview is
 * clean; `destroy` leaves the server as the seed had it.
 *
 * Each badge POST is held 300 ms by the emulator's fault plan (`slow`, then
 * answered as usual), so the kill lands among the creates.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, truncateSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAllPools } from "pulumi-platform";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { ensurePulumiCli, PulumiProgram, repoRoot } from "../../scripts/pulumi-workspace.mts";

const BADGES = 50;
const BADGE_POSTS = /^\/api\/v4\/projects\/[^/]+\/badges$/;
/**
 * A request the provider sent just before the kill may reach the emulator's handler (in this process, on
 * two busy cores) a moment after it: up to 39 ms measured. A create started after the kill would start as one
 * in flight ends, each held 300 ms, so over the 300 ms after it and beyond.
 */
const ARRIVAL_SLACK_MS = 100;

/** The fenced sh block of docs/own-repository.md that follows `<!-- killed-apply: recover -->`. */
function recoveryCommands(): string {
  const doc = readFileSync(path.join(repoRoot, "docs/own-repository.md"), "utf8");
  const match = /<!-- killed-apply: recover -->\s*```sh\n([\s\S]*?)```/.exec(doc);
  if (!match) throw new Error("docs/own-repository.md has no sh block marked <!-- killed-apply: recover -->");
  return match[1]!;
}

/** The project badges of acme/web on the server: name → ids. */
async function serverBadges(emulator: Emulator): Promise<Map<string, number[]>> {
  const answer = await fetch(`${emulator.apiUrl}/projects/acme%2Fweb/badges?per_page=100`, { headers: { "private-token": emulator.tokens.root! } });
  const badges = (await answer.json()) as { id: number; name: string; kind: string }[];
  const byName = new Map<string, number[]>();
  for (const badge of badges.filter((b) => b.kind === "project")) byName.set(badge.name, [...(byName.get(badge.name) ?? []), badge.id]);
  return byName;
}

/** Runs a bash script in the program's directory with its environment. */
function bash(script: string, program: PulumiProgram): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", script], { cwd: program.dir, env: program.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The processes of a session, with their process group and command line. */
function sessionProcesses(sid: number): { pid: number; pgid: number; command: string }[] {
  const listed = spawnSync("ps", ["-o", "pid=,pgid=,args=", "-s", String(sid)], { encoding: "utf8" }).stdout;
  return listed
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((match) => match !== null)
    .map((match) => ({ pid: Number(match[1]), pgid: Number(match[2]), command: match[3]! }));
}

/**
 * The program's node_modules as a user's project has it: the repository's
 * packages, and this package's commands in `.bin` (the docs run `npx platform-recover`).
 */
function installCommands(program: PulumiProgram): void {
  const modules = path.join(program.dir, "node_modules");
  const shared = path.join(repoRoot, "node_modules");
  rmSync(modules);
  mkdirSync(path.join(modules, ".bin"), { recursive: true });
  for (const name of readdirSync(shared)) if (name !== ".bin") symlinkSync(path.join(shared, name), path.join(modules, name));
  for (const name of readdirSync(path.join(shared, ".bin"))) symlinkSync(path.join(shared, ".bin", name), path.join(modules, ".bin", name));
  symlinkSync(path.join(repoRoot, "bin/platform-recover.js"), path.join(modules, ".bin/platform-recover"));
}

/** The pulumi-platform Badge posts the emulator has seen. */
function badgePosts(emulator: Emulator) {
  return emulator.requestLog.filter((entry) => entry.method === "POST" && BADGE_POSTS.test(entry.path));
}

async function waitFor(done: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 120_000; !done(); await new Promise((resolve) => setTimeout(resolve, 20))) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
  }
}

/**
 * Starts `pulumi up` in a process group of its own; once `begun()` holds, reads the processes of its session
 * (their pids go into `started`, for the test's clean-up); once `due()` holds, kills the group with SIGKILL and
 * waits for the provider process to exit.
 */
async function killUp(program: PulumiProgram, started: number[], begun: () => boolean, due: () => boolean) {
  const cli = spawn("pulumi", ["--non-interactive", "up", "--yes", "--skip-preview"], { cwd: program.dir, env: program.env, stdio: "ignore", detached: true });
  await waitFor(begun, "the creates to begin");
  // Read while the creates go on (before the kill, so the emulator is not held up around it).
  const processes = sessionProcesses(cli.pid!);
  started.push(...processes.map((p) => p.pid));
  const providers = processes.filter((p) => p.command.includes("dynamic-provider"));
  await waitFor(due, "the moment to kill");
  const killedAt = Date.now();
  process.kill(-cli.pid!, "SIGKILL");
  await waitFor(() => providers.every((p) => !alive(p.pid)), "the provider process to exit");
  return { killedAt, providers, cliPid: cli.pid! };
}

/** The badge creates the stack's state file records as pending, read from the file backend's directory (replaced whole by a rename). */
function pendingCreatesOnDisk(program: PulumiProgram): number {
  try {
    const state = JSON.parse(readFileSync(path.join(program.root, "backend/.pulumi/stacks/platform-killed-apply", `${program.stack}.json`), "utf8"));
    // The badges' creates: the stack's own resource is pending first, before any badge is asked for.
    const pending = (state.checkpoint?.latest?.pending_operations ?? []) as { type: string; resource: { type: string } }[];
    return pending.filter((op) => op.type === "creating" && op.resource.type === "pulumi-nodejs:dynamic/platform:Badge").length;
  } catch {
    return 0;
  }
}

/**
 * The emulator (each badge POST held `slowMs` by its fault plan, then answered as usual) and the program
 * of `badgeCount` badges, set up before the describe's tests and stopped after them, with what a kill left running.
 */
function useKilledApplyStack({ slowMs, badgeCount }: { slowMs: number; badgeCount: number }) {
  const stack = { emulator: undefined as unknown as Emulator, program: undefined as unknown as PulumiProgram, started: [] as number[] };
  beforeAll(async () => {
    ensurePulumiCli();
    stack.emulator = await startEmulator({ port: 0, faults: { slowMs, rules: [{ method: "POST", path: BADGE_POSTS.source, rate: 1, kinds: ["slow"] }] } });
    stack.program = await PulumiProgram.create({
      programDir: "test/e2e/programs/killed-apply",
      transpileOnly: true,
      config: { "platform:url": stack.emulator.url, badgeCount: String(badgeCount) },
      secrets: { "platform:token": stack.emulator.tokens.root! },
    });
    installCommands(stack.program);
  }, 5 * 60_000);
  afterAll(async () => {
    // What the kill left running (Pulumi's language host, in a group of its own), by the ids the test saw.
    for (const pid of stack.started) if (alive(pid)) process.kill(pid, "SIGKILL");
    stack.program?.dispose();
    await closeAllPools();
    await stack.emulator?.stop();
  });
  return stack;
}

describe.sequential("a pulumi up of 50 creates killed by SIGKILL, with the real Pulumi CLI", { timeout: 10 * 60_000 }, () => {
  const stack = useKilledApplyStack({ slowMs: 300, badgeCount: BADGES });
  let before: Map<string, number[]>;
  beforeAll(async () => {
    before = await serverBadges(stack.emulator);
  });

  it("no create starts after the kill of the CLI's process group, and the provider process exits", async () => {
    const { emulator, program, started } = stack;
    // The emulator logs a request once answered.
    const answered = (count: number) => () => badgePosts(emulator).length >= count;
    const { killedAt, providers, cliPid } = await killUp(program, started, answered(1), answered(12));
    expect(providers.length).toBeGreaterThan(0);
    // Killing the CLI's group does not reach the provider: Pulumi starts it in a group of its own.
    expect(providers.every((p) => p.pgid !== cliPid)).toBe(true);

    const posts = badgePosts(emulator);
    const late = posts.filter((entry) => entry.time > killedAt + ARRIVAL_SLACK_MS);
    const afterKill = posts.filter((entry) => entry.time > killedAt).map((entry) => `+${entry.time - killedAt} ms`);
    console.log(`killed after ${posts.length - late.length} badge POSTs; arrived after the kill: ${JSON.stringify(afterKill)} (slack ${ARRIVAL_SLACK_MS} ms)`);
    expect(late).toEqual([]);
    expect(posts.length).toBeLessThan(BADGES);
    // The state is not read here: the kill may have cut the backend's metadata file, which the recovery repairs.
  });

  it("the documented recovery, word for word: each badge once on the server and in the stack, then a clean preview", async () => {
    const { emulator, program } = stack;
    // Not spawnSync: the emulator answers from this process.
    const run = await bash(recoveryCommands(), program);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/made as declared \(projects\/acme%2Fweb\/badges\/\d+\): recorded in the stack/);
    const settled = (outcome: RegExp) => run.stdout.split("\n").filter((line) => outcome.test(line)).length;
    console.log(`platform-recover: ${settled(/: made as declared/)} recorded, ${settled(/: not made/)} dropped, ${settled(/: already recorded/)} already recorded`);

    const after = await serverBadges(emulator);
    const declared = Array.from({ length: BADGES }, (_, i) => `b${String(i + 1).padStart(2, "0")}`);
    for (const name of declared) expect(after.get(name), name).toHaveLength(1);

    const state = await program.exportStack();
    expect(state.deployment.pending_operations ?? []).toEqual([]);
    const recorded = (state.deployment.resources ?? []).filter((resource) => resource.type === "pulumi-nodejs:dynamic/platform:Badge");
    expect(recorded.map((resource) => resource.urn.split("::").at(-1)).sort()).toEqual(declared);
    for (const resource of recorded) expect(resource.id).toBe(`projects/acme%2Fweb/badges/${after.get(resource.urn.split("::").at(-1)!)![0]}`);

    await program.preview("--expect-no-changes");
  });

  it("destroy leaves the server as the seed had it", async () => {
    const { emulator, program } = stack;
    await program.destroy();
    expect(await serverBadges(emulator)).toEqual(before);
  });
});

describe.sequential("a kill that also cuts the file backend's metadata file, with the real Pulumi CLI", { timeout: 10 * 60_000 }, () => {
  const COUNT = 4;
  const stack = useKilledApplyStack({ slowMs: 2000, badgeCount: COUNT });

  it("the documented recovery repairs the cut file, settles the pending creates, and the stack converges", async () => {
    const { emulator, program, started } = stack;
    // Each create is held 2 s, so the kill lands while the state records them as pending.
    const pending = () => pendingCreatesOnDisk(program) > 0;
    await killUp(program, started, pending, pending);
    // Where the kill lands between the backend truncating the metadata file and writing it (rare, seen in CI;
    // when this kill itself landed there, the file is already empty and the truncation changes nothing).
    const metadata = path.join(program.root, "backend/.pulumi/stacks/platform-killed-apply", `${program.stack}.json.attrs`);
    truncateSync(metadata, 0);
    const broken = await program.cli(["stack", "export"], { allowFailure: true });
    expect(broken.stderr).toContain("failed to load checkpoint: EOF");

    const run = await bash(recoveryCommands(), program);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain(`Repaired the state backend: removed .pulumi/stacks/platform-killed-apply/${program.stack}.json.attrs, a metadata file the killed run left cut`);
    expect(run.stdout, run.stdout).toMatch(/b0\d: made as declared \(projects\/acme%2Fweb\/badges\/\d+\): recorded in the stack/);

    const after = await serverBadges(emulator);
    for (let i = 1; i <= COUNT; i++) expect(after.get(`b0${i}`), `b0${i}`).toHaveLength(1);
    const state = await program.exportStack();
    expect(state.deployment.pending_operations ?? []).toEqual([]);
    expect(state.deployment.resources?.filter((resource) => resource.type === "pulumi-nodejs:dynamic/platform:Badge")).toHaveLength(COUNT);
    await program.preview("--expect-no-changes");
    await program.destroy();
  });
});
