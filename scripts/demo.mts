/**
 * `npm run demo`: the main example against the emulator, with the real Pulumi
 * CLI. Starts the emulator with its default seed, runs `pulumi up`, shows the
 * preview of a configuration change, applies it, and destroys, printing the
 * engine's own output. Builds the CLI first if this machine has none (minutes,
 * once). Leaves nothing running and removes its temporary stack.
 */
import { closeAllPools, PlatformClient } from "pulumi-platform";
import { startEmulator } from "pulumi-platform/emulator";
import { ensurePulumiCli, PulumiProgram } from "./pulumi-workspace.mts";

const example = process.env.DEMO_EXAMPLE ?? "badges";

function banner(text: string): void {
  process.stdout.write(`\n=== ${text} ===\n`);
}

async function main(): Promise<void> {
  banner("Pulumi CLI");
  process.stdout.write(`using ${ensurePulumiCli()}\n`);

  const emulator = await startEmulator({ port: 0 });
  let program: PulumiProgram | undefined;
  try {
    banner(`emulator listening on ${emulator.url} (default seed; the demo acts as user root)`);
    // Someone made a coverage badge by hand before the program existed: the program adopts it.
    const admin = new PlatformClient({ url: emulator.url, token: emulator.tokens.root! });
    await admin.post("/projects/acme%2Fweb/badges", {
      name: "coverage",
      link_url: "https://old-ci.example.com/coverage",
      image_url: "https://old-ci.example.com/coverage.svg",
    });

    program = await PulumiProgram.create({
      example,
      stack: "demo",
      echo: true,
      config: { "platform:url": emulator.url },
      secrets: { "platform:token": emulator.tokens.root! },
    });

    banner("pulumi up: create the declared badges (and adopt the hand-made one)");
    await program.up();

    banner("pulumi preview --expect-no-changes: a second preview is clean");
    await program.preview("--expect-no-changes");

    banner("change the CI host in the stack config and preview: in-place updates only");
    await program.setConfig("ciHost", "ci.next.example.com");
    await program.preview("--diff");

    banner("pulumi up: apply the change");
    await program.up();

    banner("pulumi destroy");
    await program.destroy();
  } finally {
    program?.dispose();
    await closeAllPools();
    await emulator.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`\ndemo failed: ${(error as Error).message}\n`);
  process.exitCode = 1;
});
