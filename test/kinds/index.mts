/**
 * What the tests shared by every kind need of each one, one module per
 * registered kind beside this one (named as its resource module,
 * `badge.ts`): its rows of the verify matrix (test/engine/verify-matrix.test.ts)
 * and its declarations in the secrets program (test/e2e/secrets-plan.ts), or
 * why it has none. Those tests read every module here, so a new kind adds its
 * own and edits neither; test/engine/kinds.test.ts fails for a registered kind
 * without one.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { TestServer } from "../support.ts";

export type Args = Record<string, unknown>;
export type Operation = "create" | "update" | "delete" | "replace";

/** The users of the default seed the matrix runs each row as: Guest, Developer, Maintainer and Owner of acme, a non-member, an administrator. */
export const USERS = ["guest", "dev", "maintainer", "alice", "outsider", "root"] as const;

/**
 * How a kind's rows of the verify matrix are made: inputs of a new object
 * (numbered, so rows never collide), the change of an update and of a
 * replacement, who sets up an existing object, and what it needs set up first.
 */
export interface MatrixFixture {
  create(n: number, setup: Args): Args;
  update?: Args;
  replace?: Args;
  /** Who makes the existing object of update, delete and replace rows (default alice, Owner of acme). */
  maker?: string;
  /** Out-of-band set-up a row needs (a schedule for a run), as the administrator; and its undoing. */
  setup?(n: number): Promise<Args>;
  teardown?(setup: Args): Promise<void>;
  /** The server's state a cause needs, and its undoing. */
  around?: { set(): void; reset(): void };
  /**
   * Users to whom the cause is a fact the server does not show (a feature flag, to all but administrators):
   * their previews cannot refuse for it (an unknown fact is not a refusal), so their rows check only that a
   * refusal at preview is the server's too.
   */
  unknownTo?: readonly string[];
  /** Operations without rows, and why. */
  without?: Partial<Record<Operation, string>>;
}

/** One declaration of the secrets program, before its secrets are planted. */
export interface SecretsDeclaration {
  name: string;
  args: Args;
  /** What the plan calls its fields (`GroupIntegration slack`); the kind's name by default. */
  label?: string;
  /** The fields it takes, of which the secret ones are planted (a declaration taking none is left out); every field of the kind by default. */
  fields?: readonly string[];
  /**
   * Where in a field's value its planted secret goes, for a field secret by
   * what it holds (a hook URL's password): the value made of the marker.
   */
  planted?: Record<string, (marker: string) => string>;
}

export interface KindTests {
  /** The kind, as registered (`definitions` in src/resources/index.ts). */
  kind: string;
  /** Its rows of the verify matrix (given the test's emulator), or why it has none. */
  matrix: ((server: TestServer) => MatrixFixture[]) | { without: string };
  /**
   * Its declarations in the secrets program, or why it has none: only a kind
   * with no secret field, input or output, may be left out.
   */
  secrets: {
    declarations: readonly SecretsDeclaration[];
    /** Secret fields that hold structures: where in them the secret strings go (values the program marks secret itself). */
    structured?: Record<string, (string | number)[][]>;
  } | { without: string };
}

const here = path.dirname(fileURLToPath(import.meta.url));

const modules = readdirSync(here).filter((file) => file.endsWith(".ts")).sort();
const loaded = await Promise.all(modules.map(async (file) => ((await import(pathToFileURL(path.join(here, file)).href)) as { default: KindTests }).default));

/** Every kind's module here, by kind. */
export const KIND_TESTS: ReadonlyMap<string, KindTests> = new Map(loaded.map((tests) => [tests.kind, tests]));
