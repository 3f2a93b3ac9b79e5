/**
 * Pulumi's `file://` backend (gocloud's fileblob) keeps beside each file it
 * writes a `.attrs` file of metadata, which it rewrites in place (truncate,
 * then write) just before it renames the new state file over the old one. A
 * `pulumi` killed between the two leaves that metadata file empty, and every
 * command on the stack, `pulumi cancel` included, then fails with `failed to
 * load checkpoint: EOF`. The backend reads a missing metadata file as default
 * metadata, so one that is not JSON is removed; the state file itself was
 * never touched (it is replaced by a rename).
 */
import { lstatSync, readdirSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { ReadLimitExceeded, readTextWithin } from "./bounded-read";

/** Bounds of the walk through the backend's `.pulumi` directory. */
const MAX_DEPTH = 6;
const MAX_ENTRIES = 100_000;
/** A metadata file is a few hundred bytes; a larger one is not what a kill cuts. */
const MAX_METADATA_BYTES = 64 * 1024;

/** The directory a `file://` backend URL names, as the CLI resolves it; undefined for another backend. */
export function fileBackendDirectory(backendUrl: string, cwd = process.cwd()): string | undefined {
  if (!backendUrl.startsWith("file://")) return undefined;
  let location = backendUrl.slice("file://".length).split("?")[0]!;
  if (location === "~") location = homedir();
  else if (location.startsWith("~/")) location = path.join(homedir(), location.slice(2));
  return path.resolve(cwd, location);
}

/** The metadata files under `<directory>/.pulumi` that are empty or not JSON: what a kill mid-write leaves. */
export function damagedMetadataFiles(directory: string): string[] {
  const damaged: string[] = [];
  let seen = 0;
  const walk = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (++seen > MAX_ENTRIES) return;
      const file = path.join(dir, name);
      const stat = lstatSync(file, { throwIfNoEntry: false });
      if (!stat) continue;
      if (stat.isDirectory() && depth < MAX_DEPTH) walk(file, depth + 1);
      else if (stat.isFile() && name.endsWith(".attrs") && isDamaged(file)) damaged.push(file);
    }
  };
  walk(path.join(directory, ".pulumi"), 0);
  return damaged.sort();
}

/** A metadata file that is not JSON; one past MAX_METADATA_BYTES (counted as read, not as `stat` says) is no backend's, and left alone. */
function isDamaged(file: string): boolean {
  let text: string;
  try {
    text = readTextWithin(file, MAX_METADATA_BYTES, file);
  } catch (error) {
    if (error instanceof ReadLimitExceeded) return false;
    throw error;
  }
  return !isJson(text);
}

/** Removes each damaged metadata file under the backend directory; returns what it removed, relative to it. */
export function repairMetadataFiles(directory: string): string[] {
  const damaged = damagedMetadataFiles(directory);
  for (const file of damaged) rmSync(file, { force: true });
  return damaged.map((file) => path.relative(directory, file));
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
