/**
 * The program of the secrets test (../../secrets.e2e.test.ts). It is not an
 * example: it declares whatever the test wrote into `declarations.json` beside
 * it, so the test decides from the code's own declarations which secret fields
 * there are and plants a distinct value in each.
 *
 * A planted secret reaches the program in one of two ways, as in real programs:
 * - `{ "config": key }`: read with `config.requireSecret(key)` (a secret the
 *   stack config holds encrypted, which the engine knows to be secret);
 * - `{ "runtime": value }`: a plain string the program obtained at run time
 *   (from a vault, say), which only the resource class marks secret;
 * - `{ "runtime": value, "wrapped": true }`: the same, wrapped with
 *   `pulumi.secret` by the program, for a property whose values are as
 *   secret as the program gives them (a schedule variable's value).
 * An argument `{ "output": [resource, output] }` is another resource's output.
 */
import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as platform from "pulumi-platform";

type Source = { config: string } | { runtime: string; wrapped?: boolean };

export interface Declaration {
  /** A registered kind: the package exports its class. */
  kind: keyof typeof platform.providers;
  name: string;
  args: Record<string, unknown>;
  /** Where each secret goes: a property path into `args` (`["variables", 0, "value"]`) and its source. */
  secrets: { path: (string | number)[]; from: Source }[];
}

const config = new pulumi.Config();
const declarations = JSON.parse(readFileSync("declarations.json", "utf8")) as Declaration[];
const declared = new Map<string, pulumi.CustomResource>();

function resolve(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolve);
  if (value && typeof value === "object") {
    const { output } = value as { output?: [string, string] };
    if (output) return (declared.get(output[0]) as unknown as Record<string, pulumi.Output<unknown>>)[output[1]];
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolve(inner)]));
  }
  return value;
}

function plant(args: Record<string, unknown>, path: (string | number)[], from: Source): void {
  let target = args as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) target = target[step] as Record<string | number, unknown>;
  target[path.at(-1)!] = "config" in from ? config.requireSecret(from.config) : from.wrapped ? pulumi.secret(from.runtime) : from.runtime;
}

for (const { kind, name, args, secrets } of declarations) {
  const resolved = resolve(args) as Record<string, unknown>;
  for (const { path, from } of secrets) plant(resolved, path, from);
  const Resource = platform[kind] as unknown as new (name: string, args: unknown) => pulumi.CustomResource;
  declared.set(name, new Resource(name, resolved));
}
