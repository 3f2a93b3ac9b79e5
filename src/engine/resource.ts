/**
 * What every resource class does with its declaration: announce the computed
 * outputs, wrap secret inputs, and ask the engine to keep secret outputs secret.
 */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { type AnyResourceDefinition, type FieldTraits, type OutputsDeclaration, type OutputValue, outputTraits } from "./definition";
import { CONNECTION_PROPERTY, secretConnection, type ConnectionArg } from "./connections";
import { type Envelope, withEnvelope } from "./envelope";
import { mayTakeOver, withoutImportOption } from "./import";
import { serializedProvider } from "./shim";
import { declareOnePerOwner } from "./declarations";

/** A resource's arguments: the schema's input type, each property accepting a Pulumi input. */
export type ResourceArgs<S extends z.ZodObject> = { [K in keyof z.input<S>]: pulumi.Input<z.input<S>[K]> } & ConnectionArg;

/**
 * The members of a resource class, derived from its declaration: each input
 * as recorded (the schema's output type) and each computed output, as a
 * `pulumi.Output`. Both mapped types keep the documentation comment of the
 * schema's property or the output's key, so editors show it on the member.
 * A class gets them by declaration merging:
 * `export interface Badge extends ResourceOutputs<typeof badgeDefinition> {}`.
 */
export type ResourceOutputs<D extends AnyResourceDefinition> = RecordedInputs<z.output<D["schema"]>, D["outputs"]> & ComputedOutputs<D["outputs"]>;

// Named properties only: a schema with a catalogue of settings (an integration's) has an index signature.
type RecordedInputs<I, O> = { readonly [K in keyof Omit<I, keyof O> as string extends K ? never : K]-?: pulumi.Output<I[K]> };
type ComputedOutputs<O> = { readonly [K in keyof O]-?: pulumi.Output<OutputValue<O[K]>> };

/**
 * The props of a resource (before `__provider`): the arguments, secrets wrapped, every computed output
 * announced, and the engine's envelope (./envelope.ts). `secretOutputs` is the registration's
 * `additionalSecretOutputs`, which the outputs derived from a secret input join (announceDerivedSecrecy).
 */
export function resourceProps(definition: AnyResourceDefinition, args: object, opts?: pulumi.CustomResourceOptions, name?: string, secretOutputs: string[] = []): pulumi.Inputs {
  // The check `dynamic.Resource` makes: the host's own key is never a property.
  if ("__provider" in args) throw new Error(`${definition.name}: a resource must not define the __provider key`);
  const props: pulumi.Inputs = {};
  // Each announced property costs the SDK four promises, each with a stack trace (see `registering`); an
  // output derived from the id is defined after `super()` (deriveOutputsFromId), so it is not announced.
  for (const [name, output] of Object.entries(definition.outputs as OutputsDeclaration)) if (!outputTraits(output).fromId) props[name] = undefined;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    const traits = traitsOf(definition, name);
    props[name] = traits.secret ? pulumi.secret(value) : traits.secretParts ? traits.secretParts.mark(value) : value;
  }
  announceDerivedSecrecy(definition, args as Record<string, unknown>, props, secretOutputs);
  // The resource's own server (./connections.ts): its token and other credentials secret.
  if (props[CONNECTION_PROPERTY] !== undefined) props[CONNECTION_PROPERTY] = secretConnection(props[CONNECTION_PROPERTY]);
  const envelope: Envelope<pulumi.Output<string>, pulumi.Output<string[]>> = { importId: withoutImportOption(opts).importId, secretInputs: secretInputNames(definition, args as Record<string, unknown>) };
  // A takeover's warning goes under the resource, which the engine finds by its URN (./import.ts).
  if (name !== undefined && mayTakeOver(args, opts)) envelope.urn = pulumi.createUrn(name, resourceType(definition), opts?.parent);
  // Whether this run applies: check records an observed property as the update will leave it (./provider.ts).
  if (Object.values((definition.fields ?? {}) as Record<string, FieldTraits | undefined>).some((traits) => traits?.observed)) envelope.applying = !pulumi.runtime.isDryRun();
  return withEnvelope(props, envelope);
}

/**
 * Secrecy follows derivation: a computed output that carries an input the program gave as a secret
 * (`derivedFrom`, ./definition.ts) is added to `secretOutputs`, the `additionalSecretOutputs` of the
 * registration. The engine marks an output secret by itself only when the input of the same name was,
 * and the dynamic provider host cannot mark any (it answers `acceptSecrets=false`), so this list is the
 * only way; whether an input is secret is known only once its Output settles. The SDK reads the list
 * after it has serialized every property, so each such output's announced property (otherwise
 * `undefined`) becomes a value that settles, still undefined and never sent, once the secrecy of that
 * output's inputs is known and the list holds it: the registration waits for it, whatever the order in
 * which the SDK serializes. Plain values are never secret, and cost nothing.
 */
function announceDerivedSecrecy(definition: AnyResourceDefinition, args: Record<string, unknown>, props: pulumi.Inputs, secretOutputs: string[]): void {
  for (const [name, entry] of Object.entries(definition.outputs as OutputsDeclaration)) {
    const traits = outputTraits(entry);
    // An output secret anyway, derived from the id, or an input's own (the engine marks that one) needs nothing.
    if (traits.secret || traits.fromId || name in args) continue;
    const sources = (traits.derivedFrom ?? undeclaredSources(definition, args)).map((input) => args[input]).filter(mayHoldSecret);
    if (sources.length === 0) continue;
    const secrecy = Promise.all(sources.map((value) => pulumi.isSecret(pulumi.output(value)))).then((secret) => {
      if (secret.some(Boolean) && !secretOutputs.includes(name)) secretOutputs.push(name);
      return undefined;
    });
    props[name] = pulumi.output(secrecy);
  }
}

/**
 * The names of the inputs the program gave as secrets (a secret by its own trait is one anyway), for the
 * envelope: the provider gets every value plain and learns from this list which to mask (./provider.ts).
 * Undefined when no input may hold a secret: plain values cost nothing.
 */
function secretInputNames(definition: AnyResourceDefinition, args: Record<string, unknown>): pulumi.Output<string[]> | undefined {
  const candidates = undeclaredSources(definition, args).filter((input) => mayHoldSecret(args[input]));
  if (candidates.length === 0) return undefined;
  const secrecy = Promise.all(candidates.map((input) => pulumi.isSecret(pulumi.output(args[input]))));
  return pulumi.output(secrecy.then((secret) => candidates.filter((_, index) => secret[index])));
}

/** What an output declaring no `derivedFrom` is taken to carry: every declared input but the connection and the secret ones by trait. */
function undeclaredSources(definition: AnyResourceDefinition, args: Record<string, unknown>): string[] {
  return Object.keys(args).filter((input) => input !== CONNECTION_PROPERTY && !traitsOf(definition, input).secret && !traitsOf(definition, input).secretParts);
}

/** Whether a value may hold a secret: an Output or a promise, or an object or array holding one (looked into as deep as a program's data goes). */
function mayHoldSecret(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== "object") return false;
  if (pulumi.Output.isInstance(value) || value instanceof Promise) return true;
  return depth < 64 && Object.values(value).some((inner) => mayHoldSecret(inner, depth + 1));
}

/**
 * Resource options with the secret properties and outputs listed in `additionalSecretOutputs`, the diffs a
 * narration names in words hidden (`hiddenInDiffs`), and without `import`, which the engine cannot do for a
 * dynamic resource: the provider does it (./import.ts).
 */
export function resourceOptions(definition: AnyResourceDefinition, givenOpts: pulumi.CustomResourceOptions | undefined, args?: object): pulumi.CustomResourceOptions {
  const opts = withoutImportOption(givenOpts).options;
  // Only the properties the program declares (the outputs hold no others): the engine keeps this list in the
  // state of every resource, and a catalogue of secret settings (an integration's) made it a kilobyte.
  const declared = (name: string) => args === undefined || (args as Record<string, unknown>)[name] !== undefined;
  // A property that holds secret values is visible in the inputs but secret as a whole in the outputs.
  const secretInputs = Object.keys(definition.schema.shape).filter((name) => (traitsOf(definition, name).secret || traitsOf(definition, name).secretParts) && declared(name));
  const secretOutputs = Object.entries(definition.outputs as OutputsDeclaration).filter(([, output]) => outputTraits(output).secret).map(([name]) => name);
  const additionalSecretOutputs = [...(opts?.additionalSecretOutputs ?? []), ...secretInputs, ...secretOutputs, ...[CONNECTION_PROPERTY].filter(declared)];
  const hideDiffs = definition.hiddenInDiffs ? [...(opts?.hideDiffs ?? []), ...definition.hiddenInDiffs] : opts?.hideDiffs;
  return { ...opts, additionalSecretOutputs, ...(hideDiffs ? { hideDiffs } : {}) };
}

/** The type token of a resource kind: the dynamic provider host's, with our kind's name. */
function resourceType(definition: AnyResourceDefinition): string {
  return `pulumi-nodejs:dynamic/platform:${definition.name}`;
}

function traitsOf(definition: AnyResourceDefinition, name: string): FieldTraits {
  return (definition.fields as Record<string, FieldTraits | undefined> | undefined)?.[name] ?? {};
}

/**
 * Sets the outputs declared `fromId` as functions of the resource's `id`, which
 * a preview keeps known across in-place updates. Called by each resource class
 * after `super()`.
 */
export function deriveOutputsFromId(resource: pulumi.CustomResource, definition: AnyResourceDefinition): void {
  for (const [name, output] of Object.entries(definition.outputs as OutputsDeclaration)) {
    const fromId = outputTraits(output).fromId;
    if (fromId) Object.defineProperty(resource, name, { value: resource.id.apply((id) => fromId(id)), enumerable: true });
  }
}

/** Where a resource class keeps its kind's declaration: on the class, off its type, so the package's API shows the class alone. */
const DECLARATION = Symbol("the kind's declaration");

/**
 * Makes a resource class the class of its kind, from its static block
 * (`static { ofKind(this, badgeDefinition); }`): the registered kinds
 * (src/resources/index.ts) are the declarations of the classes that
 * src/resources/kinds.ts exports.
 */
export function ofKind(resourceClass: abstract new (...args: never[]) => PlatformResource, definition: AnyResourceDefinition): void {
  Object.defineProperty(resourceClass, DECLARATION, { value: definition });
}

/** The declaration of the kind `value` is the class of (its own, never one a subclass inherits), else undefined. */
export function declarationOf(value: unknown): AnyResourceDefinition | undefined {
  return typeof value === "function" && Object.hasOwn(value, DECLARATION) ? (value as unknown as Record<symbol, AnyResourceDefinition>)[DECLARATION] : undefined;
}

/**
 * The base of every resource class: the provider text of its kind, the props
 * and options its declaration implies, the type token
 * `pulumi-nodejs:dynamic/platform:<name>`, and the outputs derived from its id.
 * A class adds only its constructor (and any program-wide checks before
 * `super`); its members come from `ResourceOutputs`.
 *
 * It registers a dynamic resource as `pulumi.dynamic.Resource` does (same type
 * token, `__provider` in the props, served by the same host), but with our
 * own small provider text (./shim.ts) instead of the SDK's closure
 * serialization of an object.
 */
export abstract class PlatformResource extends pulumi.CustomResource {
  protected constructor(name: string, args: object, opts?: pulumi.CustomResourceOptions) {
    // The class's own declaration, which its static block gave (ofKind): a class names it once.
    const definition = declarationOf(new.target);
    if (!definition) throw new Error(`${new.target.name} names no kind: its static block calls ofKind(this, <its declaration>)`);
    if (definition.onePerOwner) {
      const { owner, what, rule } = definition.onePerOwner;
      const declared = args as Record<string, unknown>;
      declareOnePerOwner({ kind: definition.name, name, owner, value: declared[owner], connection: declared[CONNECTION_PROPERTY] }, what, rule);
    }
    const options = resourceOptions(definition, opts, args);
    // The outputs that carry a secret input join the options' list once that is known (announceDerivedSecrecy).
    const props = { ...resourceProps(definition, args, opts, name, options.additionalSecretOutputs), __provider: serializedProvider(definition.name) };
    const restore = registering();
    try {
      super(resourceType(definition), name, props, options);
    } catch (error) {
      restore();
      // Made while no frames were kept (see withoutPromiseStacks): the stack from the class, so it still says where.
      if (error instanceof Error && !error.stack?.includes("\n    at ")) Error.captureStackTrace(error, PlatformResource);
      throw error;
    } finally {
      restore();
    }
    deriveOutputsFromId(this, definition);
  }
}

/** The two changes to the SDK's bookkeeping while a resource class registers; returns what undoes them (idempotent). */
function registering(): () => void {
  const restorePosition = positionAtProgram();
  const restoreStacks = withoutPromiseStacks();
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    restoreStacks();
    restorePosition();
  };
}

/**
 * The SDK wraps every promise it makes in `debuggablePromise`, which captures
 * a stack trace (`new Error().stack`) for its promise-leak report; a resource
 * makes four per property while it registers (@pulumi/pulumi 3.259
 * runtime/rpc.js transferProperties). Each capture goes through the
 * source-map support the language host installs, frame by frame: at 2,000
 * badges of nine properties that was about 2 s of the program's CPU in a
 * preview, the main part of its time beyond floor A's. Those stacks are
 * printed only when `PULUMI_DEBUG_PROMISE_LEAKS` is set (runtime/debuggable.js),
 * so, unless it is, no frames are kept while a class registers. The source
 * position the SDK records sets its own limit (`Resource.stackTrace`), so it is
 * unchanged.
 */
function withoutPromiseStacks(): () => void {
  if (process.env.PULUMI_DEBUG_PROMISE_LEAKS) return () => {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  return () => {
    Error.stackTraceLimit = limit;
  };
}

/**
 * The SDK records where a resource is declared (`sourcePosition` and the
 * `stackTrace` under it, both kept in the state of every resource) by skipping
 * its own constructors and one resource class, as for `new Bucket(...)` in a
 * program (@pulumi/pulumi 3.259 resource.js: `Resource.stackTrace(4)` in the
 * constructor). Our classes are one level deeper (Badge, then
 * PlatformResource), so the position was our class's file. While a class
 * registers, the count skips two more frames (PlatformResource's and this
 * wrapper's): the position is the program's line, and the state holds no
 * frame of ours. Without that static (another SDK), nothing changes.
 */
function positionAtProgram(): () => void {
  const sdk = pulumi.Resource as unknown as { stackTrace?: (skip: number) => unknown };
  const original = sdk.stackTrace;
  if (typeof original !== "function") return () => {};
  sdk.stackTrace = (skip: number) => original.call(pulumi.Resource, skip + 2);
  return () => {
    sdk.stackTrace = original;
  };
}
