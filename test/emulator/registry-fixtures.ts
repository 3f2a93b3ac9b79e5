/**
 * Seeds and emulators for the container registry tests: the default seed
 * plus a Reporter of acme, with a movable clock.
 */
import { onTestFinished } from "vitest";
import { defaultSeed, startEmulator, type Emulator, type Seed } from "../../src/emulator";

export const START = Date.parse("2024-06-01T00:00:00.000Z");

/** The default seed with a `reporter` user (Reporter of acme), changed by `change`. */
export function registrySeed(change: (seed: any) => void = () => {}): Seed {
  const seed: any = structuredClone(defaultSeed);
  seed.users.push({ username: "reporter", name: "Rita Reporter", token: "glpat-reporter-token" });
  seed.groups.find((g: any) => g.path === "acme").members.reporter = 20;
  change(seed);
  return seed;
}

export interface ClockedEmulator {
  emulator: Emulator;
  /** Moves the emulator's clock forward. */
  advance(ms: number): void;
}

/**
 * A fresh emulator (its own state) with a clock that starts at START and moves only when told;
 * called in a test, and stopped when that test ends (files share this module in a worker, so a
 * module-level hook would stop only the first file's).
 */
export async function freshEmulator(seed: Seed = registrySeed()): Promise<ClockedEmulator> {
  let now = START;
  const emulator = await startEmulator({ seed, clock: () => now });
  onTestFinished(() => emulator.stop());
  return { emulator, advance: (ms) => (now += ms) };
}

export const HOUR = 3_600_000;
export const WEB = "/projects/acme%2Fweb";
/** acme/web's `api-server` repository in the default seed. */
export const API_SERVER = `${WEB}/registry/repositories/2`;
