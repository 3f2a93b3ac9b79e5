/**
 * The set-up the end-to-end files share that do not follow the example
 * scenario (./scenario.ts): an emulator on loopback, an API client acting as
 * its administrator, and a Pulumi program (an example, or a program of the
 * test's own) whose stack talks to that emulator with the administrator's
 * token. Everything it starts, `stopProgramUnderTest` stops.
 */
import { closeAllPools, PlatformClient } from "pulumi-platform";
import { startEmulator, type Emulator, type EmulatorOptions } from "pulumi-platform/emulator";
import { ensurePulumiCli, PulumiProgram, type ProgramOptions } from "../../scripts/pulumi-workspace.mts";

export interface ProgramUnderTest {
  emulator: Emulator;
  /** Acts as the seed's administrator (root). */
  api: PlatformClient;
  program: PulumiProgram;
}

export interface ProgramUnderTestOptions extends Omit<ProgramOptions, "config" | "secrets"> {
  emulator?: EmulatorOptions;
  /** Stack config besides `platform:url`. */
  config?: Record<string, string>;
  /** Secret stack config besides `platform:token`. */
  secrets?: Record<string, string>;
  /** Out-of-band set-up before the program exists (what it should find on the server). */
  prepare?(emulator: Emulator, api: PlatformClient): Promise<void>;
}

export async function startProgramUnderTest(options: ProgramUnderTestOptions): Promise<ProgramUnderTest> {
  const { emulator: emulatorOptions, config, secrets, prepare, ...programOptions } = options;
  ensurePulumiCli();
  const emulator = await startEmulator({ port: 0, ...emulatorOptions });
  const token = emulator.tokens.root!;
  const api = new PlatformClient({ url: emulator.url, token, retryBaseDelayMs: 10 });
  await prepare?.(emulator, api);
  const program = await PulumiProgram.create({
    transpileOnly: true,
    ...programOptions,
    config: { "platform:url": emulator.url, ...config },
    secrets: { "platform:token": token, ...secrets },
  });
  return { emulator, api, program };
}

/** Stops what `startProgramUnderTest` started (whatever of it was started). */
export async function stopProgramUnderTest(started: Partial<ProgramUnderTest>): Promise<void> {
  started.program?.dispose();
  await closeAllPools();
  await started.emulator?.stop();
}
