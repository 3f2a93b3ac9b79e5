/**
 * The emulator logs no credential: a token sent as a query parameter
 * (`private_token`, `access_token`, `job_token`, ...) is `[FILTERED]` in the
 * line printed per request and in the request log tests read, as GitLab's
 * `filter_parameters` hide it in its logs. Tried on the server in this
 * process and on the `platform-emulator` command (dist/, built by `npm test`).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { filteredQuery } from "../../src/emulator/server";
import { startEmulator } from "../../src/emulator";
import { whenOutput, whenFileExists } from "../spawned";

const SECRETS = ["glpat-query-secret-1", "query-secret-2", "query-secret-3", "query-secret-4", "query-secret-5"];
/** Each credential parameter with its own secret, and harmless ones around them. */
const QUERY = `per_page=2&private_token=${SECRETS[0]}&access_token=${SECRETS[1]}&job_token=${SECRETS[2]}&PRIVATE_TOKEN=${SECRETS[3]}&private%5Ftoken[]=${SECRETS[4]}&search=web`;

describe("filteredQuery", () => {
  it("replaces every credential parameter's value, keeps the others byte for byte", () => {
    expect(filteredQuery(QUERY)).toBe(
      "per_page=2&private_token=[FILTERED]&access_token=[FILTERED]&job_token=[FILTERED]&PRIVATE_TOKEN=[FILTERED]&private%5Ftoken[]=[FILTERED]&search=web",
    );
    expect(filteredQuery("password=p&client_secret=s&deploy_key=k&jwt=j&sort=asc&q=%E2%9C%93&bad=%zz")).toBe(
      "password=[FILTERED]&client_secret=[FILTERED]&deploy_key=[FILTERED]&jwt=[FILTERED]&sort=asc&q=%E2%9C%93&bad=%zz",
    );
    expect(filteredQuery("")).toBe("");
    expect(filteredQuery("private_token")).toBe("private_token=[FILTERED]");
  });
});

describe("the server's log", () => {
  const written: string[] = [];
  afterEach(() => vi.restoreAllMocks());

  it("neither the printed line nor the recorded request holds a token from the query; the token still authenticates", async () => {
    const emulator = await startEmulator({ log: true });
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const token = emulator.tokens["root"]!;
      const answer = await fetch(`${emulator.apiUrl}/groups?private_token=${token}&${QUERY}`);
      expect(answer.status).toBe(200);
      const bad = await fetch(`${emulator.apiUrl}/user?access_token=${SECRETS[1]}`);
      expect(bad.status).toBe(401);
    } finally {
      vi.restoreAllMocks();
      await emulator.stop();
    }
    const recorded = JSON.stringify(emulator.requestLog);
    const printed = written.join("");
    expect(printed).toMatch(/GET \/api\/v4\/groups\?private_token=\[FILTERED\]&per_page=2&private_token=\[FILTERED\]/);
    for (const secret of [...SECRETS, emulator.tokens["root"]!]) {
      expect(printed).not.toContain(secret);
      expect(recorded).not.toContain(secret);
    }
    expect(emulator.requestLog.map((entry) => entry.query)).toContain(`access_token=[FILTERED]`);
  });
});

const bin = resolve(__dirname, "../../dist/emulator/bin.js");

it("platform-emulator prints one line per request, with no token from the query", async () => {
  const dir = mkdtempSync(join(tmpdir(), "emulator-log-"));
  const readyFile = join(dir, "emulator-url");
  const child = spawn(process.execPath, [bin, "--port", "0", "--ready-file", readyFile], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  try {
    await whenFileExists(child, readyFile);
    const url = readFileSync(readyFile, "utf8").trim();
    expect((await fetch(`${url}/api/v4/metadata?private_token=glpat-alice-token&${QUERY}`)).status).toBe(200);
    await whenOutput(child, () => (stderr.includes("/api/v4/metadata") ? true : undefined));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/GET \/api\/v4\/metadata\?private_token=\[FILTERED\]/);
    for (const secret of [...SECRETS, "glpat-alice-token"]) expect(stderr).not.toContain(secret);
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});
