/**
 * `platform-review --verify-deletes` with `platform:headers` kept as a secret
 * in the stack's config, against a server that repeats the request's headers
 * in its error answer (the emulator's answer made from the request): what the
 * review writes (the preview file's warning, its messages) masks each header's
 * value, not only the JSON text of the setting as a whole.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeAllPools } from "../../src";
import { startEmulator, type Emulator } from "../../src/emulator";
import { runCli } from "./run-cli";

const CHANGE = readFileSync(path.join(__dirname, "fixtures", "change.json"), "utf8");
const PROXY_KEY = "proxy-key-0b5e7d4c1a";

let emulator: Emulator;
let work: string;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, backgroundWork: "manual" });
  work = mkdtempSync(path.join(tmpdir(), "review-echoed-"));
});
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await closeAllPools();
  await emulator.stop();
});

it("a header value the server repeats is masked in the deletes' verification, though the setting is one JSON secret", async () => {
  // The stack's config as `pulumi config --show-secrets --json` prints it: the headers a secret.
  const cli = path.join(work, "bin");
  const config = { "platform:headers": { value: JSON.stringify({ "X-Proxy-Key": PROXY_KEY }), secret: true } };
  writeFileSync(path.join(work, "config.json"), JSON.stringify(config));
  mkdirSync(cli, { recursive: true });
  writeFileSync(path.join(cli, "pulumi"), `#!/bin/sh\nexec /bin/cat '${path.join(work, "config.json")}'\n`);
  chmodSync(path.join(cli, "pulumi"), 0o755);

  const preview = JSON.parse(CHANGE) as { config: Record<string, string> };
  preview.config = { ...preview.config, "platform:url": emulator.url, "platform:token": "", "platform:headers": "[secret]" };
  const file = path.join(work, "preview.json");
  writeFileSync(file, JSON.stringify(preview, null, 4));
  // The token's user, read first, answered by a proxy that lists the request's headers.
  emulator.inject({ method: "GET", path: /\/user$/, status: 403, headers: { "Content-Type": "text/plain" }, body: ({ headers }) => `Forbidden by proxy; headers: ${JSON.stringify(headers)}` });

  const ran = await runCli(["--preview", file, "--verify-deletes", "--stack", "e2e"], { PATH: cli, PLATFORM_TOKEN: emulator.tokens.dev! });
  const written = readFileSync(file, "utf8");
  expect(written).toContain("The deletes of this preview were not verified against the server");
  expect(written).toContain('\\"x-proxy-key\\":\\"[secret]\\"');
  for (const text of [written, ran.output, ran.stderr]) {
    expect(text).not.toContain(PROXY_KEY);
    expect(text).not.toContain(emulator.tokens.dev!);
  }
});
