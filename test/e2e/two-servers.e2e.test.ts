/**
 * Two servers from one program, through the real CLI: a badge on the stack's
 * server and one on a "hosted" server over HTTPS behind a private CA, reached
 * through a connection whose token is a secret of the stack and whose CA is a
 * file (programs/two-servers). Up; a clean second
 * preview; a rotated token is an update, not a replacement, and the update
 * records it (a refresh before that up says so); another URL replaces the badge (created on the new server,
 * deleted from the old one with the connection recorded for it), the new one
 * reached with verification off and a warning said once; neither
 * token appears in plain text in `pulumi stack export`; destroy removes the
 * badges from both servers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, PlatformClient } from "pulumi-platform";
import { startEmulator, type Emulator } from "pulumi-platform/emulator";
import { stepsByName, type PulumiProgram } from "../../scripts/pulumi-workspace.mts";
import { makeTestPki } from "../client/test-pki";
import { startProgramUnderTest, stopProgramUnderTest } from "./program-under-test";

let stackServer: Emulator;
let hosted: Emulator;
let movedTo: Emulator;
let program: PulumiProgram;
const pki = makeTestPki();
const tls = { cert: pki.serverCert.text, key: pki.serverKey.text };

/** The seeds give every user the same token on every emulator: the two tokens here are two users' (both may manage acme/web's badges). */
const HOSTED_TOKEN = "glpat-alice-token";
const ROTATED_TOKEN = "glpat-maintainer-token";
const STACK_TOKEN = "glpat-root-token";

/** The server's administrator (root), trusting the test's CA. */
function adminOf(server: Emulator): PlatformClient {
  return new PlatformClient({ url: server.url, token: server.tokens.root!, retryBaseDelayMs: 10, tls: { ca: pki.ca.text } });
}

async function badgesOn(server: Emulator): Promise<{ name: string; link_url: string }[]> {
  return adminOf(server).list(apiPath`/projects/${"acme/web"}/badges`);
}

beforeAll(async () => {
  hosted = await startEmulator({ port: 0, tls });
  movedTo = await startEmulator({ port: 0, tls });
  ({ emulator: stackServer, program } = await startProgramUnderTest({
    programDir: "test/e2e/programs/two-servers",
    config: { hostedUrl: hosted.url, hostedCaCertificate: pki.ca.path },
    secrets: { hostedToken: HOSTED_TOKEN },
  }));
  expect(stackServer.tokens.root).toBe(STACK_TOKEN);
}, 10 * 60_000);

afterAll(async () => {
  await stopProgramUnderTest({ emulator: stackServer, program });
  await hosted?.stop();
  await movedTo?.stop();
});

describe.sequential("two servers in one program, through the real engine", { timeout: 5 * 60_000 }, () => {
  it("up puts one badge on each server; a second preview has no changes", async () => {
    await program.up();
    expect((await badgesOn(stackServer)).map((b) => b.link_url)).toEqual(["https://ci.internal.example.com/%{project_path}"]);
    expect((await badgesOn(hosted)).map((b) => b.link_url)).toEqual(["https://ci.example.com/%{project_path}"]);
    // Each server saw only its own badge's requests, with its own token's user.
    expect(hosted.requestLog.filter((entry) => entry.method === "POST")).toHaveLength(1);
    await program.preview("--expect-no-changes");
  });

  it("a rotated token is an update in place, masked; refresh before the up names the fix; the update records it and the next preview is clean", async () => {
    await program.setConfig("hostedToken", ROTATED_TOKEN, { secret: true });
    // The old token is revoked on the hosted server (by its administrator), as a team does once it has rotated.
    const revoked = await adminOf(hosted).post<{ revoked: boolean }>(apiPath`/groups/${"acme"}/tokens/revoke`, { token: HOSTED_TOKEN });
    expect(revoked.revoked).toBe(true);
    const steps = stepsByName(await program.previewJson()) as Record<string, { op: string; replaceReasons?: string[] }>;
    expect(steps["hosted-coverage"]!.op).toBe("update");
    expect(steps["hosted-coverage"]!.replaceReasons ?? []).toEqual([]);
    // --json lists unchanged resources only in the summary.
    expect(steps["self-managed-coverage"]?.op ?? "same").toBe("same");
    const shown = await program.preview("--diff");
    expect(shown.stdout).not.toContain(ROTATED_TOKEN);
    expect(shown.stdout).not.toContain(HOSTED_TOKEN);
    // refresh runs no program: it reads with the connection recorded at the last up, whose token is revoked.
    const refused = await program.cli(["refresh", "--yes", "--skip-preview"], { allowFailure: true });
    expect(refused.code).not.toBe(0);
    expect(refused.stdout).toContain("the server refused the token of the resource's connection, as recorded in the state at the last `pulumi up`");
    expect(refused.stdout).toContain("run `pulumi up` first");
    expect(refused.stdout).not.toContain("platform:token");
    await program.up();
    await program.preview("--expect-no-changes");
    // Refresh reads the hosted badge with the recorded (rotated) token.
    const mark = hosted.mark();
    await program.refresh();
    expect(hosted.requestsSince(mark).map((entry) => entry.status)).toEqual([200]);
  });

  it("neither token appears in plain text in the exported state", async () => {
    const exported = JSON.stringify(await program.exportStack());
    for (const token of [STACK_TOKEN, HOSTED_TOKEN, ROTATED_TOKEN]) expect(exported.includes(token), `token in the state: ${token}`).toBe(false);
    expect(exported).toContain(hosted.url);
  });

  it("another URL replaces the badge: created on the new server (verification off, said once), deleted from the old one", async () => {
    await program.cli(["config", "rm", "hostedCaCertificate"]);
    await program.setConfigs({ hostedUrl: movedTo.url, hostedInsecure: "true" });
    const steps = (await program.previewJson()).steps.filter((step) => step.urn.endsWith("::hosted-coverage"));
    expect(steps.map((step) => step.op)).toContain("replace");
    expect(steps.find((step) => step.op === "replace")!.replaceReasons).toEqual(["connection"]);
    const { stdout } = await program.up();
    // Said once in the run (the CLI repeats each warning in its closing Diagnostics).
    const diagnostics = stdout.slice(stdout.indexOf("Diagnostics:"));
    expect(diagnostics.match(/warning: TLS verification is off for https:\/\/127\.0\.0\.1:\d+ \(insecure\)/g)).toHaveLength(1);
    expect(stdout).toContain(movedTo.url);
    expect(await badgesOn(hosted)).toEqual([]);
    expect((await badgesOn(movedTo)).map((b) => b.link_url)).toEqual(["https://ci.example.com/%{project_path}"]);
    expect(await badgesOn(stackServer)).toHaveLength(1);
    await program.preview("--expect-no-changes");
  });

  it("destroy removes the badges from both servers", async () => {
    await program.destroy();
    expect(await badgesOn(stackServer)).toEqual([]);
    expect(await badgesOn(movedTo)).toEqual([]);
  });
});
