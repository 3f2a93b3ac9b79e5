/**
 * What an imported declaration holds, before it becomes program text: plain
 * values as the server holds them, and two kinds of value that are not data
 * of the server: a reference to another imported object's output (a
 * `Reference`, which the kinds make: ../engine/estate.ts), and a secret the
 * program reads from the stack's config (never a value).
 */
import type { EstateOwner } from "../engine/estate";

/**
 * A write-only secret the server never shows: `config.requireSecret(key)`,
 * the key made from the resource's fixed name and this property, so a rename
 * on the server never changes it.
 */
export interface SecretFromConfig {
  readonly secretConfig: string;
}

/** A secret a declaration reads from config: its resource (the manifest key) and property. */
export interface SecretEntry {
  key: string;
  property: string;
}

export type ImportValue = unknown;

export const isSecretFromConfig = (value: unknown): value is SecretFromConfig =>
  typeof value === "object" && value !== null && typeof (value as SecretFromConfig).secretConfig === "string";

/** The owner of a module of the program: a group, a project, or the instance, as the importer found it. */
export type ModuleOwner = Pick<EstateOwner, "kind" | "id" | "fullPath">;

/** One object to declare: its resource kind, the id it is imported by, and its inputs. */
export interface Declaration {
  kind: string;
  /** The manifest's key: what the object is on the server, independent of its names (`Badge groups/12/badges/5`). */
  key: string;
  /** The `import` option's id. */
  importId: string;
  owner: ModuleOwner;
  /** The readable part of its name, from the object's own name (`coverage`, `Nightly build`). */
  baseName: string;
  /** The inputs, in the schema's order. */
  args: Record<string, ImportValue>;
  /** Facts for the comment above it: fixed wording with property names only, never server text. */
  notes: string[];
}

/** What was not imported, and why: a kind the token may not read, an object the package does not manage. */
export interface Skipped {
  /** The owner as a path, or "the instance". */
  where: string;
  what: string;
  why: string;
}
