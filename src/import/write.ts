/**
 * Writing the program without losing anyone's edits. The manifest
 * (`platform-import.json` in the out dir) keeps the names given and the
 * SHA-256 of each file as written. A file that is on disk and differs both
 * from what this run writes and from what the last run wrote was edited (or
 * is not ours): the run refuses, naming each such file, or with `--beside`
 * writes its new text next to it as `<file>.imported`. The template's files
 * (package.json, .gitlab-ci.yml, ...) are written where absent and are the
 * project's from then on: its next steps edit them, and no run compares them.
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readTextWithin } from "../bounded-read";
import { type ConfigKeys, NAME_FORM, type Names } from "./program";

export const MANIFEST_FILE = "platform-import.json";

export interface Manifest {
  version: 1;
  /** The names given, by what each object is on the server (never a server value but ids and slugs). */
  names: Names;
  /** The config key of each secret, by its resource's key and property; absent in a manifest of a run that gave none. */
  configKeys?: ConfigKeys;
  /** The SHA-256 of each file as last written, by its path in the out dir. */
  files: Record<string, string>;
}

export const digestOf = (text: string): string => createHash("sha256").update(text).digest("hex");

/** The most read of a file in the out dir (a module, the manifest): far more than any run writes. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Whether `file` (a path inside the out dir) is there, as a regular file reached through directories
 * only. Anything else in its place is refused, naming it: a symbolic link (the file or a directory on
 * the way), which a write would follow out of the out dir and a removal would delete elsewhere; a FIFO
 * or a device, whose read never ends. The out dir may be a checkout of anyone's branch. With
 * `linkIsPresent` (a template file, which is never read and only written where absent), a link at the
 * end is taken as present, so it is kept as it is, neither followed nor replaced.
 */
function isPresent(dir: string, file: string, linkIsPresent = false): boolean {
  const parts = file.split("/");
  for (let depth = 1; depth <= parts.length; depth++) {
    const relative = parts.slice(0, depth).join("/");
    let stats;
    try {
      stats = lstatSync(path.join(dir, relative));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
    const last = depth === parts.length;
    if (last && linkIsPresent && stats.isSymbolicLink()) return true;
    if (stats.isSymbolicLink()) throw new Error(`refusing ${JSON.stringify(relative)} in the out dir: a symbolic link, which platform-import neither follows nor replaces; move it away`);
    if (last ? !stats.isFile() : !stats.isDirectory()) throw new Error(`refusing ${JSON.stringify(relative)} in the out dir: not a ${last ? "regular file" : "directory"}; move it away`);
  }
  return true;
}

/** A file of the out dir that `isPresent` found, read up to MAX_FILE_BYTES. */
const textOf = (dir: string, file: string): string => readTextWithin(path.join(dir, file), MAX_FILE_BYTES, `${file} in the out dir`);

/** The manifest of an earlier run, or an empty one; a file that is not one is refused. */
export function readManifest(dir: string): Manifest {
  const file = path.join(dir, MANIFEST_FILE);
  if (!isPresent(dir, MANIFEST_FILE)) return { version: 1, names: {}, files: {} };
  const text = textOf(dir, MANIFEST_FILE);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not the manifest of an earlier platform-import run (not JSON); move it away to start afresh`);
  }
  const manifest = parsed as Partial<Manifest>;
  const isTextRecord = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === "string");
  // A name becomes a file name and an identifier: one of another form is no name this command gave.
  const names = manifest.names as Record<string, string> | undefined;
  // Each name and each config key is one object's: two given one would be one resource twice, or one secret sent to both.
  const distinct = (values: string[]) => new Set(values).size === values.length;
  const given = isTextRecord(names) && Object.values(names!).every((name) => NAME_FORM.test(name)) && distinct(Object.values(names!));
  const keys =
    manifest.configKeys === undefined ||
    (isTextRecord(manifest.configKeys) && Object.values(manifest.configKeys).every((key) => /^[A-Za-z][A-Za-z0-9]*$/.test(key)) && distinct(Object.values(manifest.configKeys)));
  if (manifest.version !== 1 || !given || !keys || !isTextRecord(manifest.files)) {
    throw new Error(`${file} is not the manifest of an earlier platform-import run; move it away to start afresh`);
  }
  return manifest as Manifest;
}

export interface WriteResult {
  written: string[];
  unchanged: string[];
  /** The template's files that were there already: the project's own. */
  kept: string[];
  removed: string[];
  /** Files someone edited: refused, or written beside. */
  edited: string[];
  beside: string[];
}

/** Whether a path of the program stays inside the out dir: relative, no `..`, no empty segment. */
function isInside(file: string): boolean {
  return !path.isAbsolute(file) && file.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..") && !file.includes("\\");
}

/** What a run writes: its files, the template's files (`starters`, written where absent), the names and config keys in force. */
export interface ProgramFiles {
  files: ReadonlyMap<string, string>;
  starters: ReadonlyMap<string, string>;
  names: Names;
  configKeys: ConfigKeys;
}

/**
 * Writes the program into `dir` with the manifest. Without `beside`, an edited
 * file stops the run before anything is written (the result lists them).
 */
export function writeProgram(dir: string, program: ProgramFiles, manifest: Manifest, beside: boolean): WriteResult {
  const { files, starters, names, configKeys } = program;
  const result: WriteResult = { written: [], unchanged: [], kept: [], removed: [], edited: [], beside: [] };
  const plan: { file: string; text: string; action: "write" | "same" | "beside" }[] = [];
  for (const [file, text] of starters) {
    if (!isInside(file)) throw new Error(`refusing to write ${JSON.stringify(file)}: not a path inside the out dir`);
    if (isPresent(dir, file, true)) result.kept.push(file);
    else plan.push({ file, text, action: "write" });
  }
  for (const [file, text] of files) {
    if (!isInside(file)) throw new Error(`refusing to write ${JSON.stringify(file)}: not a path inside the out dir`);
    if (!isPresent(dir, file)) {
      plan.push({ file, text, action: "write" });
      continue;
    }
    const onDisk = digestOf(textOf(dir, file));
    if (onDisk === digestOf(text)) plan.push({ file, text, action: "same" });
    else if (manifest.files[file] === onDisk) plan.push({ file, text, action: "write" });
    else {
      result.edited.push(file);
      // Refused now, before anything is written, if what is there in its place is not a file of the out dir's.
      isPresent(dir, `${file}.imported`);
      plan.push({ file, text, action: "beside" });
    }
  }
  // Modules of owners no longer in scope: removed when they are as written, kept (and named) when edited.
  // The template's files are never gone: an earlier run that compared them listed them here too.
  const gone = Object.keys(manifest.files).filter((file) => !files.has(file) && !starters.has(file) && isInside(file) && isPresent(dir, file));
  const removable = gone.filter((file) => digestOf(textOf(dir, file)) === manifest.files[file]);
  for (const file of gone) if (!removable.includes(file)) result.edited.push(file);
  if (result.edited.length > 0 && !beside) return result;

  const digests: Record<string, string> = {};
  for (const { file, text, action } of plan) {
    const target = path.join(dir, file);
    mkdirSync(path.dirname(target), { recursive: true });
    if (action === "beside") {
      writeFileSync(`${target}.imported`, text);
      result.beside.push(`${file}.imported`);
      // The edited file stays the one on record: the next run still knows it as edited.
      if (manifest.files[file] !== undefined) digests[file] = manifest.files[file]!;
      continue;
    }
    if (action === "write") {
      writeFileSync(target, text);
      result.written.push(file);
    } else result.unchanged.push(file);
    if (!starters.has(file)) digests[file] = digestOf(text);
  }
  for (const file of removable) {
    rmSync(path.join(dir, file));
    result.removed.push(file);
  }
  const sorted = (record: Record<string, string>) => Object.fromEntries(Object.entries(record).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  writeFileSync(path.join(dir, MANIFEST_FILE), `${JSON.stringify({ version: 1, names: sorted(names), configKeys: sorted(configKeys), files: sorted(digests) }, null, 2)}\n`);
  result.written.sort();
  return result;
}
