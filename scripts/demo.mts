/**
 * `npm run demo`: the main example (examples/platform-team, all nine
 * resources) against the emulator, with the real Pulumi CLI. Starts the
 * emulator with its default seed made self-managed and Ultimate (what the
 * instance settings and the licensed resources need), runs `pulumi up`,
 * shows a clean second preview and the preview of a configuration change,
 * applies it, and destroys, printing the engine's own output. Builds the CLI
 * first if this machine has none (minutes, once). Leaves nothing running and
 * removes its temporary stack.
 *
 * `DEMO_EXAMPLE=<dir>` runs another directory of examples/ (the change step
 * is shown for the examples listed in `demos` below).
 */
import { closeAllPools, PlatformClient } from "pulumi-platform";
import { selfManagedSeed, startEmulator } from "pulumi-platform/emulator";
import { ensurePulumiCli, PulumiProgram } from "./pulumi-workspace.mts";

interface Demo {
  /** Something made by hand before the program existed, which the program adopts. */
  prepare?: { what: string; run(admin: PlatformClient): Promise<unknown> };
  /** A configuration change and what it does. */
  change?: { what: string; config: Record<string, string> };
}

const demos: Record<string, Demo> = {
  "platform-team": {
    prepare: {
      what: "a cache cleanup policy someone set up by hand",
      run: (admin) => admin.post("/groups/acme/-/virtual_registries/cleanup/policy", { cadence: 1, enabled: false, keep_n_days_after_download: 5 }),
    },
    change: {
      what: "change the CI host, the chat channel and a SAML role: in-place updates, and one replacement (SAML links have no update)",
      config: { ciHost: "ci.next.example.com", chatChannel: "deploys", developerRole: "maintainer" },
    },
  },
  badges: {
    prepare: {
      what: "a coverage badge someone made by hand",
      run: (admin) =>
        admin.post("/projects/acme%2Fweb/badges", {
          name: "coverage",
          link_url: "https://old-ci.example.com/coverage",
          image_url: "https://old-ci.example.com/coverage.svg",
        }),
    },
    change: { what: "change the CI host: in-place updates only", config: { ciHost: "ci.next.example.com" } },
  },
};

const example = process.env.DEMO_EXAMPLE ?? "platform-team";
const demo = demos[example] ?? {};

function banner(text: string): void {
  process.stdout.write(`\n=== ${text} ===\n`);
}

async function main(): Promise<void> {
  banner("Pulumi CLI");
  process.stdout.write(`using ${ensurePulumiCli()}\n`);

  const emulator = await startEmulator({ port: 0, seed: selfManagedSeed });
  let program: PulumiProgram | undefined;
  try {
    banner(`emulator listening on ${emulator.url} (default seed, self-managed and Ultimate; the demo acts as user root)`);
    if (demo.prepare) {
      process.stdout.write(`made by hand before the program existed (the program adopts it): ${demo.prepare.what}\n`);
      await demo.prepare.run(new PlatformClient({ url: emulator.url, token: emulator.tokens.root! }));
    }

    program = await PulumiProgram.create({
      secretsProvider: "passphrase", // as a user's stack keeps them
      example,
      stack: "demo",
      echo: true,
      config: { "platform:url": emulator.url },
      secrets: { "platform:token": emulator.tokens.root! },
    });

    banner(`pulumi up: create what examples/${example} declares`);
    await program.up();

    banner("pulumi preview --expect-no-changes: a second preview is clean");
    await program.preview("--expect-no-changes");

    if (demo.change) {
      banner(`${demo.change.what}; preview`);
      await program.setConfigs(demo.change.config);
      await program.preview("--diff");

      banner("pulumi up: apply the change");
      await program.up();
    }

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
