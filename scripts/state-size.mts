/**
 * Bytes per resource in `pulumi stack export`, as the CLI prints it: the
 * engine rewrites the whole state after every step, so each byte a resource
 * keeps is paid again for every later step of a large stack (issue 16).
 *
 * A resource's bytes are those of its object in the CLI's output (four spaces
 * of indentation per level, `<`, `>` and `&` escaped as `\u003c` and so on).
 * With `installedLayout`, the source positions the engine records are first
 * written as in a user's project, where `@pulumi/pulumi` and this package sit
 * in the program's own `node_modules` (`project:///node_modules/...`): the
 * tests' programs reach them through a link into this checkout, which makes
 * the numbers depend on where the checkout is.
 *
 *     node scripts/state-size.mts export.json [more.json ...]   # a table by resource kind
 */
import { readFileSync } from "node:fs";

export interface ResourceBytes {
  urn: string;
  type: string;
  bytes: number;
}

/** Each resource of a `pulumi stack export` text with its size in that text. */
export function stateBytesByResource(exportText: string, { installedLayout = false } = {}): ResourceBytes[] {
  const state = JSON.parse(exportText) as { deployment: { resources?: Record<string, unknown>[] } };
  return (state.deployment.resources ?? []).map((resource) => {
    const text = cliJson(installedLayout ? withInstalledPaths(resource) : resource, "            ");
    return { urn: String(resource.urn), type: String(resource.type), bytes: Buffer.byteLength(text) + 1 };
  });
}

/** Bytes per resource, by resource type: count, smallest, largest, mean. */
export function stateBytesByType(resources: ResourceBytes[]): Record<string, { count: number; min: number; max: number; mean: number }> {
  const byType: Record<string, number[]> = {};
  for (const { type, bytes } of resources) (byType[type] ??= []).push(bytes);
  return Object.fromEntries(
    Object.entries(byType)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, sizes]) => [type, { count: sizes.length, min: Math.min(...sizes), max: Math.max(...sizes), mean: Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length) }]),
  );
}

/** JSON as the CLI writes it (Go's encoder: four-space indentation, HTML characters escaped), starting at `indent`. */
function cliJson(value: unknown, indent: string): string {
  const text = JSON.stringify(value, null, 4).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return indent + text.split("\n").join(`\n${indent}`);
}

/** The resource with each recorded source position under `node_modules` written as from the program's own. */
function withInstalledPaths(resource: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(resource).replace(/project:\/\/\/[^"#]*?\/node_modules\//g, "project:///node_modules/")) as Record<string, unknown>;
}

if (import.meta.main) {
  const all = process.argv.slice(2).flatMap((file) => stateBytesByResource(readFileSync(file, "utf8"), { installedLayout: true }));
  console.log("| resource type | count | min | max | mean |\n|---|---:|---:|---:|---:|");
  for (const [type, { count, min, max, mean }] of Object.entries(stateBytesByType(all))) console.log(`| ${type} | ${count} | ${min} | ${max} | ${mean} |`);
}
