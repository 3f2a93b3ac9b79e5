/**
 * The implementation that the provider text in the state (./engine/shim.ts) loads at call time
 * (`require("pulumi-platform/runtime")`). Not meant to be used directly.
 */
import "./node-version"; // first: says what to do on a Node.js older than 22
import { fstatSync } from "node:fs";
import type * as pulumi from "@pulumi/pulumi";
import type { AnyResourceDefinition } from "./engine/definition";
import { buildProvider } from "./engine/provider";
import { ExplainedError } from "./engine/errors";
import { parentsUnchanged, watchEngine } from "./engine/engine-end";
import { definitions } from "./resources";

const built = new Map<string, Required<pulumi.dynamic.ResourceProvider>>();

export function provider(kind: string): Required<pulumi.dynamic.ResourceProvider> {
  watchEngineOnce();
  let implementation = built.get(kind);
  if (!implementation) {
    const definition = (definitions as Record<string, AnyResourceDefinition | undefined>)[kind];
    if (!definition) {
      throw new ExplainedError(`This version of pulumi-platform has no resource "${kind}"; the stack was written by another version.`);
    }
    implementation = buildProvider(definition);
    built.set(kind, implementation);
  }
  return implementation;
}

let watching = false;

/**
 * In the dynamic provider host started by the Pulumi CLI (its standard input
 * a pipe from the `pulumi` process), stop writing when the engine has ended
 * (./engine/engine-end.ts). Elsewhere (a test that loads this module) nothing is watched.
 */
function watchEngineOnce(): void {
  if (watching) return;
  watching = true;
  const host = /[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(process.argv[1] ?? "");
  let pipe = false;
  try {
    pipe = fstatSync(0).isFIFO();
  } catch {
    // no standard input at all
  }
  if (host && pipe) watchEngine({ input: process.stdin, engineAlive: parentsUnchanged(), exit: () => process.exit(0), graceMs: 30_000 });
}
