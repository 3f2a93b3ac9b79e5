/**
 * The interfaces the engine's modules share: what the generic engine builds
 * from a declaration (./properties.ts) and what each kind's life cycle
 * (./objects.ts, ./settings.ts) gives the provider. Declared here, apart from
 * the modules that build and use them, so those import one another one way.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AnyResourceDefinition, EngineContext, FieldTraits, Live } from "./definition";

type Args = Record<string, unknown>;

/** What the life cycles use of the generic engine (built by ./properties.ts). */
export interface EngineParts {
  definition: AnyResourceDefinition;
  propertyNames: readonly string[];
  /** The same names, to look one up. */
  propertySet: ReadonlySet<string>;
  /** Properties that are fields of the API object (not owners or provider options). */
  apiProperties: readonly string[];
  traits(name: string): FieldTraits;
  liveValueOf(name: string, field: FieldTraits, live: Live): unknown;
  changedProperties(olds: Args, news: Args): string[];
  differingFromLive(args: Args, live: Live, names?: readonly string[]): string[];
  outputsFor(args: Args, live: Live): Args;
  fingerprintOutput(args: Args): Args;
  /** `outputsFor` with `fingerprintOutput` joined in: what create and update record. */
  recordedOutputs(args: Args, live: Live): Args;
}

/** The engine parts, and what only the provider needs besides. */
export interface PropertyParts extends EngineParts {
  /** Properties whose declared value names local content (files): see the `fingerprint` trait. */
  fingerprinted: readonly string[];
  /** Properties with the `secret` trait, in declaration order. */
  secretProperties: readonly string[];
}

/** What the engine does for each operation of a kind; the kinds differ in how objects come, change and go. */
export interface Lifecycle {
  create(ctx: EngineContext, args: Args): Promise<pulumi.dynamic.CreateResult>;
  /** create with the `import` option (./import.ts): the object `importId` names, taken over. */
  importing(ctx: EngineContext, args: Args, importId: string): Promise<pulumi.dynamic.CreateResult>;
  /** The outputs to record after bringing the object from `olds` to `args`. */
  update(ctx: EngineContext, id: string, olds: Args, args: Args): Promise<Args>;
  delete(ctx: EngineContext, id: string, props: Args): Promise<void>;
  /** Properties that change though the program no longer declares them (a settings resource's released fields). */
  released(olds: Args, declared: Args): string[];
  /** Which changed properties need a new object, and whether the old one must go first. */
  replacing(changed: readonly string[], olds: Args, news: Args): { replaces: string[]; deleteBeforeReplace: boolean };
}
