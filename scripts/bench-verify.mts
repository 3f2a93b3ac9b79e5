/**
 * `npx node scripts/bench-verify.mts`: what verification at preview costs a
 * real preview. Runs `pulumi preview` of an example (default `platform-team`,
 * `BENCH_EXAMPLE` to change it) against the emulator, with
 * `platform:verifyAtPreview` on and off, `BENCH_RUNS` times each (default 3),
 * and prints the requests each preview sent (from the emulator's log) and its
 * wall time. Prints only: timings vary with the machine.
 */
import { closeAllPools } from "pulumi-platform";
import { startEmulator } from "pulumi-platform/emulator";
import { PulumiProgram } from "./pulumi-workspace.mts";

const EXAMPLE = process.env.BENCH_EXAMPLE ?? "platform-team";
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const emulator = await startEmulator({ port: 0 });
const program = await PulumiProgram.create({
  example: EXAMPLE,
  transpileOnly: true,
  config: { "platform:url": emulator.url },
  secrets: { "platform:token": emulator.tokens.root! },
});
try {
  for (const verify of ["true", "false"]) {
    await program.setConfig("platform:verifyAtPreview", verify);
    for (let run = 0; run < RUNS; run++) {
      const before = emulator.requestLog.length;
      const started = performance.now();
      await program.preview();
      const seconds = (performance.now() - started) / 1000;
      const requests = emulator.requestLog.slice(before).map((entry) => `${entry.method} ${entry.path.split("?")[0]}`);
      console.log(`${EXAMPLE} preview, verifyAtPreview ${verify}: ${requests.length} requests, ${seconds.toFixed(2)} s`);
      if (run === 0) for (const request of requests) console.log(`  ${request}`);
    }
  }
} finally {
  program.dispose();
  await closeAllPools();
  await emulator.stop();
}
