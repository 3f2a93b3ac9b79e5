/**
 * The implementation that the provider text in the state (./engine/shim.ts) loads at call time
 * (`require("pulumi-platform/runtime")`). Not meant to be used directly.
 */
import "./node-version"; // first: says what to do on a Node.js older than 22
import type * as pulumi from "@pulumi/pulumi";
import type { AnyResourceDefinition } from "./engine/definition";
import { buildProvider } from "./engine/provider";
import { ExplainedError } from "./engine/errors";
import { definitions } from "./resources";

const built = new Map<string, Required<pulumi.dynamic.ResourceProvider>>();

export function provider(kind: string): Required<pulumi.dynamic.ResourceProvider> {
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
