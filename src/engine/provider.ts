/**
 * The generic engine: one dynamic ResourceProvider built from a resource
 * declaration. Preview writes nothing: check sends only the shared reads of
 * the verification (./verify.ts), diff none; create, read, update and delete
 * send only what the declaration's hooks send.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import equal from "fast-deep-equal";
import { client, configureConnection, connectionProblem, verifyAtPreview } from "./process-connections";
import { withResourceConnections } from "./connections";
import type { AnyResourceDefinition, EngineContext, Live } from "./definition";
import { objectLifecycle } from "./objects";
import { PRIOR_VALUE_OUTPUTS, settingsLifecycle } from "./settings";
import { ExplainedError, PartialCreateError } from "./errors";
import { hiddenFromToken } from "./gone";
import { previewAdoption, previewImport, previewSettings, warnTakeover } from "./import";
import { actedOn, type Envelope, envelopeOf, NAMED_PATHS_KEY, OWNER_PATH_KEY, SECRETS_CHANGED_KEY, SECRETS_UNREAD_KEY, type Takeover, withEnvelope, withoutEngineKeys } from "./envelope";
import { shownOnce } from "./shown-once";
import { duringOperation } from "./engine-end";
import { noteProgramRunning, storedConfigIncomplete } from "./stored-config";
import { type Attempt, explain, isObjectNotFound, isOwnerMissing } from "./explain";
import { noteSecretValues } from "./seen-secrets";
import { propertyParts } from "./properties";
import type { Lifecycle, PropertyParts } from "./types";
import { differingPaths, holdsUnknown, isUnknown } from "./values";
import { isCheckedStep, isExistingResource, noteCheckedStep, noteExistingResource, rememberChecked, startRun, takeChecked } from "./run-caches";
import { ownerPathAtPreview, refusedStep, sharingReads, verify, verifyObject } from "./verify";
import { describeIssue } from "../validation";
import { type DeclaredSchema, declaredSchema } from "./declared-schema";

type Args = Record<string, unknown>;

/** What the operations share: the property parts, the life cycle of the declaration's kind, and how failures read. */
interface Engine extends PropertyParts {
  /** The input schema refusing properties it does not declare, parsing only those declared (./declared-schema.ts). */
  strictSchema: DeclaredSchema;
  /** The same, dropping what it does not declare (the schema's own behaviour): create's and update's parse. */
  inputSchema: DeclaredSchema;
  /** Create, import, update and delete as the kind does them: ./objects.ts or ./settings.ts. */
  lifecycle: Lifecycle;
  /** Properties with the `observed` trait: read from the server at check, never declared. */
  observedProperties: readonly string[];
  explained(error: unknown, attempt: Attempt): Error;
}

/** The provider of one resource kind: the engine's, with each resource's own `connection` in force (./connections.ts). */
export function buildProvider(definition: AnyResourceDefinition): Required<pulumi.dynamic.ResourceProvider> {
  return withResourceConnections(engineProvider(definition));
}

function engineProvider(definition: AnyResourceDefinition): Required<pulumi.dynamic.ResourceProvider> {
  const baseEngine = engineFor(definition);
  const { lifecycle } = baseEngine;
  // The properties the program gave as secrets are secret in this resource's operations (withSecretInputs).
  const engineOf = (...inputs: (Args | undefined)[]) => withSecretInputs(baseEngine, inputs.flatMap((values) => secretInputsOf(values ?? {})));
  return {
    async configure(request) {
      configureConnection(request.config);
      startRun();
    },

    async check(olds, news) {
      noteProgramRunning(); // the current config is in force (./stored-config.ts)
      const given = envelopeOf(news);
      const engine = engineOf(news);
      const checked = checkInputs(engine, olds, news);
      if (checked.failures?.length) return checked;
      const verified = await verifiedAtPreview(engine, olds, news, checked);
      if (verified.failures?.length) return verified;
      const observed = await withObserved(engine, verified.inputs as Args, given.applying === true, withoutEngineKeys(olds));
      if ("failure" in observed) return { inputs: news, failures: [{ property: "", reason: observed.failure }] };
      const takeover = await takeoverPreviewed(engine, olds, news, observed.inputs);
      if (takeover && "failure" in takeover) return { inputs: news, failures: [{ property: "", reason: takeover.failure }] };
      const ownerPath = await ownerPathPreviewed(engine, olds, observed.inputs);
      const namedPaths = await namedPathsPreviewed(engine, olds, observed.inputs);
      // Passed on to create: the import id (./import.ts); to diff and the update: what was observed.
      const envelope: Envelope = { importId: given.importId, observed: observed.acted, takeover, ownerPath, namedPaths, secretInputs: given.secretInputs };
      // diff verifies what only it sees, for the steps of this run (verifiedStep).
      noteCheckedStep(definition.name, observed.inputs);
      return { inputs: withEnvelope(observed.inputs, envelope) };
    },

    async diff(id, olds, news) {
      // Not a sign of a running program: `pulumi refresh` calls diff after each read to show what changed,
      // so a later read's 401 in the same process would be taken for the current token's.
      const engine = engineOf(olds, news);
      const recorded = recordedState(definition, olds);
      const result = diffInputs(engine, recorded, news);
      await verifiedStep(engine, id, recorded, news, result);
      return result;
    },

    async create(inputs) {
      const engine = engineOf(inputs);
      const args = parse(engine, inputs);
      try {
        const { importId } = envelopeOf(inputs);
        const created = await duringOperation("create", () => (importId === undefined ? lifecycle.create(context(), args) : lifecycle.importing(context(), args, importId)));
        return { ...created, outs: { ...created.outs, ...ownerPathOutput(inputs) } };
      } catch (error) {
        if (error instanceof PartialCreateError) recordPartialCreate(engine, error, args, inputs);
        throw engine.explained(error, { operation: "create", action: "create it", args });
      }
    },

    async read(id, props) {
      const engine = engineOf(props);
      const args = recordedState(definition, props ?? {});
      const attempt: Attempt = { operation: "read", action: `read ${id}`, args };
      let live: Live | undefined;
      try {
        incompleteStoredConfig(definition.name, attempt);
        live = await definition.read(context(), id, args as never);
      } catch (error) {
        if (!isObjectNotFound(definition, error)) throw shownOnce(engine.explained(error, attempt));
        await confirmGone(engine, id, args, attempt, error);
        return { id: "" };
      }
      if (live) return refreshed(engine, id, args, live, props ?? {});
      await confirmGone(engine, id, args, attempt);
      return { id: "" };
    },

    async update(id, recordedOlds, news) {
      const engine = engineOf(recordedOlds, news);
      const olds = recordedState(definition, recordedOlds);
      const args = parse(engine, news);
      try {
        return { outs: { ...(await duringOperation(`update ${id}`, () => lifecycle.update(context(), id, olds, args))), ...ownerPathOutput(news) } };
      } catch (error) {
        throw engine.explained(error, { operation: "update", action: `update ${id}`, args, recorded: withoutEngineKeys(olds) });
      }
    },

    async delete(id, props) {
      const engine = engineOf(props);
      const args = recordedState(definition, props);
      try {
        incompleteStoredConfig(definition.name, { operation: "delete", action: `delete ${id}`, args });
        await duringOperation(`delete ${id}`, () => lifecycle.delete(context(), id, args));
      } catch (error) {
        const attempt: Attempt = { operation: "delete", action: `delete ${id}`, args };
        if (!(isObjectNotFound(definition, error) || isOwnerMissing(definition, error))) throw shownOnce(engine.explained(error, attempt));
        await confirmGone(engine, id, args, attempt, error);
      }
    },
  };
}

/** A refresh or destroy configured from a stored copy of the stack config that lacks a setting: said as what to do, not as the config's advice. */
function incompleteStoredConfig(resource: string, attempt: Attempt): void {
  const said = connectionProblem() === undefined ? undefined : storedConfigIncomplete(attempt.operation);
  if (said) throw new ExplainedError(`${resource}: could not ${attempt.action}: ${said}`);
}

/**
 * A 404 (or a read that found nothing) drops the object from the stack only
 * when the token could have seen it (./gone.ts); otherwise the step fails and
 * the object stays.
 */
async function confirmGone(engine: Engine, id: string, args: Args, attempt: Attempt, error?: unknown): Promise<void> {
  const { definition } = engine;
  const needs = definition.needs?.(args as never, "read");
  if (!needs) return;
  const hidden = await hiddenFromToken(context(), needs, `${definition.name} ${id}`, error);
  if (hidden) throw shownOnce(engine.explained(new ExplainedError(`${definition.name}: could not ${attempt.action}: ${hidden}`), attempt));
}

function engineFor(definition: AnyResourceDefinition): Engine {
  const parts = propertyParts(definition);
  return {
    ...parts,
    strictSchema: declaredSchema(definition.schema, "strict"),
    inputSchema: declaredSchema(definition.schema, "strip"),
    lifecycle: definition.kind === "settings" ? settingsLifecycle(parts, definition) : objectLifecycle(parts, definition),
    observedProperties: parts.propertyNames.filter((name) => parts.traits(name).observed !== undefined),
    explained: (error, attempt) => explain(definition, parts.secretProperties, error, attempt, secretValuesOf(parts)),
  };
}

/**
 * The engine with the properties the program gave as secrets (the envelope's `secretInputs`, names only)
 * treated as secret by trait: named only in a takeover and its warning, masked in every message (with the
 * recorded value of the field, the server's before the update), and compared by the engine itself in diff.
 */
function withSecretInputs(engine: Engine, names: readonly string[]): Engine {
  const added = [...new Set(names)].filter((name) => engine.propertySet.has(name) && !engine.traits(name).secret && !engine.traits(name).secretParts);
  if (added.length === 0) return engine;
  const secretProperties = [...engine.secretProperties, ...added];
  const traits = (name: string) => (added.includes(name) ? { ...engine.traits(name), secret: true } : engine.traits(name));
  return { ...engine, traits, secretProperties, explained: (error, attempt) => explain(engine.definition, secretProperties, error, attempt, secretValuesOf(engine)) };
}

/** The properties the program gave as secrets, their values noted as seen (./redaction.ts). */
function secretInputsOf(values: Args): readonly string[] {
  const names = envelopeOf(values).secretInputs ?? [];
  for (const name of names) if (name in values) noteSecretValues(values[name]);
  return names;
}

/** The properties with the `secretParts` trait, and how to find their secret values. */
function secretValuesOf(parts: PropertyParts): Record<string, (value: unknown) => string[]> {
  return Object.fromEntries(parts.propertyNames.flatMap((name) => {
    const valuesOf = parts.traits(name).secretParts?.valuesOf;
    return valuesOf ? [[name, valuesOf]] : [];
  }));
}

/** The recorded state without engine keys, brought to today's form (`migrate`). */
function recordedState(definition: AnyResourceDefinition, props: Args): Args {
  const state = withoutEngineKeys(props);
  return definition.migrate ? definition.migrate(state) : state;
}

/**
 * The checked inputs as create and update take them: parsed again (defaults,
 * transforms), undeclared keys dropped; or, when they are what check returned
 * in this process, the value check parsed (see `takeChecked` in ./run-caches.ts).
 */
function parse(engine: Engine, inputs: Args): Args {
  const declared = withoutEngineKeys(inputs);
  const parsed = takeChecked(engine.definition.name, declared) ?? (engine.inputSchema.for(declared).parse(declared) as Args);
  const { observed } = envelopeOf(inputs);
  return observed ? { ...parsed, ...observed } : parsed;
}

function context(): EngineContext {
  return { client: client() };
}

/**
 * check: the connection settings, the schema (strict: a property nobody
 * declared is refused, naming the nearest declared one), the declaration's own
 * rules, and the fingerprints of the declared files, which join the checked
 * inputs.
 *
 * Every failure names its property in its reason (`cron: must be ...`) and
 * leaves `property` empty: the CLI prints a failure with a property as
 * "property cron value {...} has a problem: <reason>", which would name it
 * twice, show a nested path's value as nothing, and print a secret's value.
 */
function checkInputs(engine: Engine, olds: Args, news: Args): pulumi.dynamic.CheckResult {
  const { definition, fingerprinted, fingerprintOutput, strictSchema } = engine;
  const problem = connectionProblem();
  if (problem) return { inputs: news, failures: [{ property: "", reason: problem }] };
  const inputs = withoutAnnouncedOutputs(definition, withoutEngineKeys(news));
  const unknownPaths = Object.keys(inputs).filter((name) => isUnknown(inputs[name]));
  // A property that holds an unknown inside it (a list entry naming another resource's output) is judged at apply too.
  const judgedAtApply = Object.keys(inputs).filter((name) => holdsUnknown(inputs[name]));
  // The inputs in the issues tell a property left out from one of the wrong type (see describeIssue).
  const result = strictSchema.for(inputs).safeParse(inputs, { reportInput: true });
  if (!result.success) {
    const failures = result.error.issues
      .filter((issue: z.core.$ZodIssue) => !judgedAtApply.includes(String(issue.path[0])))
      .map((issue: z.core.$ZodIssue) => ({ property: "", reason: describeIssue(issue, issue.path.length === 0 ? engine.propertyNames : []) }));
    return failures.length ? { inputs: news, failures } : { inputs: news };
  }
  const parsed = result.data as Args;
  const declaredObserved = engine.observedProperties.filter((name) => inputs[name] !== undefined);
  if (declaredObserved.length) {
    return { inputs: news, failures: declaredObserved.map((name) => ({ property: "", reason: `${name}: is read from the server at preview; a program cannot set it` })) };
  }
  const step = { recorded: withoutEngineKeys(olds), importing: envelopeOf(news).importId !== undefined };
  const failures = judgedAtApply.length ? [] : (definition.validate?.(parsed as never, step) ?? []);
  if (failures.length) return { inputs: news, failures: failures.map(namedInReason) };
  let fingerprints: Args;
  try {
    fingerprints = fingerprintOutput(parsed);
  } catch (error) {
    const property = fingerprinted.find((name) => parsed[name] !== undefined) ?? "";
    return { inputs: news, failures: [{ property: "", reason: `${property}: ${(error as Error).message}` }] };
  }
  const narrated = unknownPaths.length ? {} : (definition.narration?.of(withoutEngineKeys(olds), parsed as never) ?? {});
  const checkedArgs = stripUndefined({ ...parsed, ...fingerprints, ...narrated });
  if (unknownPaths.length === 0) rememberChecked(engine.definition.name, checkedArgs, parsed);
  return { inputs: checkedArgs };
}

/**
 * check's last step, once the inputs are valid: what the server would refuse
 * (./verify.ts), when every input it needs is known. A new object (or one
 * moving to another owner) is verified in full; an existing one being changed
 * only for the role, since its owner, tier and flags were there when it was
 * created, and it is no duplicate of itself; an unchanged one not at all.
 * (check is never called for a resource being deleted.)
 */
async function verifiedAtPreview(engine: Engine, olds: Args, news: Args, checked: pulumi.dynamic.CheckResult): Promise<pulumi.dynamic.CheckResult> {
  const { definition, lifecycle } = engine;
  const args = checked.inputs as Args;
  if (!definition.needs) return checked;
  const declared = withoutEngineKeys(news);
  const unknown = Object.keys(declared).filter((name) => holdsUnknown(declared[name]));
  const recorded = withoutEngineKeys(olds);
  const resource = definition.name;
  if (Object.keys(recorded).length > 0) noteExistingResource(resource, declared);
  else if (isExistingResource(resource, declared)) return checked; // a replacement's second check (./run-caches.ts)
  const isNew = Object.keys(recorded).length === 0;
  const changed = isNew ? [] : engine.changedProperties(recorded, args);
  if (!isNew && changed.length === 0) return checked;
  // A replacement's new object is a create, under its (maybe new) owner; its old one is diff's (verifiedStep).
  const replacing = !isNew && lifecycle.replacing(changed, recorded, args).replaces.length > 0;
  const needs = definition.needs(args as never, isNew || replacing ? "create" : "update");
  if (needs.noRequest) return checked;
  const ownerProperty = "property" in needs.on ? needs.on.property : undefined;
  if (ownerProperty && unknown.includes(ownerProperty)) return checked;
  const ownerMoved = ownerProperty !== undefined && !isNew && recorded[ownerProperty] !== args[ownerProperty];
  const creating = isNew || replacing || ownerMoved;
  // An update that names nothing it will do (an exclusive set with nothing to remove) sends nothing.
  if (!creating && definition.narration && !definition.narration.names.some((name) => args[name] !== undefined)) return checked;
  const adopting = args.adoptExisting === true || envelopeOf(news).importId !== undefined;
  // Replaced in place of itself (same owner), the old object is no collision: it goes, first or after.
  const skipUniqueness = adopting || unknown.length > 0 || (replacing && !ownerMoved);
  const failures = await verify({ resource, needs, ctx: context(), creating, changed, skipUniqueness, ...(replacing ? { replacing: recorded } : {}) });
  return failures.length ? { inputs: news, failures } : checked;
}

/**
 * diff's part of the verification at preview, for what only diff sees: the
 * object's id (a fact of the object, such as a schedule's owner) and the
 * replacement. An update is verified for the needs of the object
 * (`needs(args, "update")`: its ownership); a replacement for the delete of
 * the old object, under its old owner (`needs(recorded, "delete")`); the
 * new object's create was check's. Only for the steps of the program's run:
 * a refresh's diff verifies nothing. An unmet need fails the step, naming
 * the object and the need.
 */
async function verifiedStep(engine: Engine, id: string, recorded: Args, news: Args, result: pulumi.dynamic.DiffResult): Promise<void> {
  const { definition } = engine;
  if (!definition.needs || result.changes === false || !isCheckedStep(definition.name, withoutEngineKeys(news))) return;
  const replacing = (result.replaces?.length ?? 0) > 0;
  if (!replacing && definition.kind === "object" && !definition.update) return;
  const [args, operation, action] = replacing ? [recorded, "delete" as const, `delete ${id}, which the replacement removes`] : [withoutEngineKeys(news), "update" as const, `update ${id}`];
  const needs = definition.needs(args as never, operation, id);
  const failures = await verifyObject({ resource: definition.name, needs, ctx: context(), id });
  if (failures.length) throw shownOnce(engine.explained(new ExplainedError(refusedStep(definition.name, action, failures)), { operation, action, args }));
}

/**
 * check's step for observed properties (the `observed` trait): what the server
 * would make of the inputs now (given the recorded inputs: a value the last
 * run recorded may stand), read once every input is known and added to
 * the checked inputs, so the preview shows it. When the program's run applies
 * (the envelope says so), the inputs record the value the property will have
 * after the update (`afterApply`), and the value read goes to diff and the
 * update in the envelope (`acted`), which the CLI does not show: the next
 * preview then compares with what is left, not with what was done. A refused
 * read fails the check with the server's answer explained.
 */
async function withObserved(engine: Engine, args: Args, applying: boolean, recorded: Args): Promise<{ inputs: Args; acted?: Args } | { failure: string }> {
  if (engine.observedProperties.length === 0 || Object.values(args).some(isUnknown)) return { inputs: args };
  const observed: Args = {};
  try {
    for (const name of engine.observedProperties) observed[name] = await engine.traits(name).observed!.read(context(), args, recorded);
  } catch (error) {
    return { failure: engine.explained(error, { operation: "read", action: "read what it would do now", args }).message };
  }
  const shown = applying ? Object.fromEntries(engine.observedProperties.map((name) => [name, engine.traits(name).observed!.afterApply ?? observed[name]])) : observed;
  const inputs = { ...args, ...shown };
  rememberChecked(engine.definition.name, inputs, engine.inputSchema.for(inputs).parse(inputs) as Args);
  return applying ? { inputs, acted: observed } : { inputs };
}

/**
 * check's step for a resource not yet in the state that takes an object
 * over (`import`, or `adoptExisting` finding one): the object read now
 * (./import.ts), a missing import refused, and the takeover added to the
 * envelope and warned under the resource; for a settings resource's create,
 * the settings it overwrites, read now; unless `platform:verifyAtPreview` is
 * false.
 */
async function takeoverPreviewed(engine: Engine, olds: Args, news: Args, args: Args): Promise<Takeover | { failure: string } | undefined> {
  // A resource in the state keeps the takeover its create recorded: dropping it would show as a change of
  // every later update (the CLI compares recorded and new inputs), though nothing is taken over again.
  if (Object.keys(withoutEngineKeys(olds)).length > 0) return envelopeOf(olds).takeover;
  const { importId: id, urn } = envelopeOf(news);
  if (!verifyAtPreview()) return undefined;
  if (id === undefined && args.adoptExisting !== true) {
    // A settings resource takes over the settings that exist by nature: what its create overwrites is shown, with no warning.
    const known = !Object.values(withoutEngineKeys(news)).some(isUnknown);
    return engine.definition.kind === "settings" && known ? previewSettings(engine, sharingReads(context()), args) : undefined;
  }
  // An import compares what it can while inputs are unknown (previewImport); an adoption needs them all to look.
  if (id === undefined && Object.values(withoutEngineKeys(news)).some(isUnknown)) return undefined;
  const found = id !== undefined ? await previewImport(engine, context(), id, args) : await previewAdoption(engine, context(), args);
  if (!found || "failure" in found) return found;
  const takeover = "takeover" in found ? found.takeover : found;
  // A warning only for a takeover that overwrites something: the CLI prints a resource's diagnostic on a row of its
  // own, again on its step's row and again under Diagnostics, so one that overwrites nothing keeps the one row of
  // its step, and shows as a takeover in its `takeover` input (`--diff`, `--json`, platform-review's note).
  if (Object.keys(takeover.overwrites).length > 0) {
    await warnTakeover(engine.definition.name, id !== undefined ? "import" : "adoptExisting", takeover, args, urn, "address" in found ? found.address : undefined);
  }
  return takeover;
}

/** A declaration's failure as check reports it: the property in the reason only (see checkInputs). */
function namedInReason({ property, reason }: { property: string; reason: string }): { property: string; reason: string } {
  return { property: "", reason: property === "" || reason.startsWith(property) ? reason : `${property}: ${reason}` };
}

/**
 * The inputs without the computed outputs a resource class announces (it
 * passes each as `undefined`, which may reach check as null; an observed
 * property is one of them), and without the fingerprints and narration check
 * adds itself: none is a property the program declared.
 */
function withoutAnnouncedOutputs(definition: AnyResourceDefinition, inputs: Args): Args {
  const added = (name: string) => name === "fingerprints" || definition.narration?.names.includes(name) === true;
  const announced = (name: string) => name in definition.outputs && (!(name in definition.schema.shape) || definition.fields?.[name]?.observed !== undefined);
  return Object.fromEntries(Object.entries(inputs).filter(([name, value]) => !(added(name) || (value == null && announced(name)))));
}

/**
 * diff: the declared properties that changed (and those a settings resource
 * lets go of), and which of them need a new object.
 *
 * The dynamic provider host sends no detailed diff, so the CLI shows the old
 * and new inputs compared; but it compares them as its events carry them, with
 * every secret masked as `[secret]`, and two masked values look the same: a
 * changed secret made an "update" that named no property. So when a property
 * holding a secret changed, the result says "changes unknown", and the engine
 * compares the old and new inputs itself, with the real values, and records
 * which properties differ (a detailed diff): the preview shows
 * `~ webhook: [secret] => [secret]`, or `variables.TOKEN.value` for one
 * schedule variable (Pulumi 3.259, step_generator.go diffResource). It names
 * every input that differs, which is the same set whenever the recorded inputs
 * are the last applied or refreshed ones.
 */
function diffInputs(engine: Engine, olds: Args, news: Args): pulumi.dynamic.DiffResult {
  const { lifecycle, traits } = engine;
  const declared = actedOn(news);
  const changed = engine.changedProperties(olds, declared);
  for (const name of lifecycle.released(olds, declared)) if (!changed.includes(name)) changed.push(name);
  const { replaces, deleteBeforeReplace } = lifecycle.replacing(changed, olds, declared);
  const secretChanged = changed.some((name) => traits(name).secret === true || traits(name).secretParts !== undefined);
  return { changes: secretChanged ? undefined : changed.length > 0, replaces, deleteBeforeReplace };
}

function recordPartialCreate(engine: Engine, error: PartialCreateError, args: Args, inputs: Args): void {
  // A partial create that carries the live object records it as the state would be.
  if (error.live) error.properties = engine.recordedOutputs(args, error.live);
  Object.assign(error.properties, ownerPathOutput(inputs));
  // The dynamic provider host records these properties as they are: without the serialized
  // provider, the next `up`, `refresh` or `destroy` of the resource could not load its code.
  error.properties.__provider = inputs.__provider;
}

/** The owner's path (and the other paths) as check read them, recorded among the outputs: a refresh keeps them, and a delete's preview shows them. */
function ownerPathOutput(inputs: Args): Args {
  const { ownerPath, namedPaths } = envelopeOf(inputs);
  return { ...(ownerPath === undefined ? {} : { [OWNER_PATH_KEY]: ownerPath }), ...(namedPaths === undefined ? {} : { [NAMED_PATHS_KEY]: namedPaths }) };
}

/** A group or project named by its numeric id (the API reads a text of digits as an id too). */
const isIdReference = (ref: unknown): ref is string | number => typeof ref === "number" || (typeof ref === "string" && /^\d+$/.test(ref));

/**
 * check's step for an owner the program names by numeric id: its full path,
 * from the run's one read of that owner (./verify.ts), so the preview shows
 * whose object it is by path. An object in the state that this run leaves as
 * it is keeps the path recorded, and costs no read.
 */
async function ownerPathPreviewed(engine: Engine, olds: Args, args: Args): Promise<string | undefined> {
  const on = engine.definition.needs?.(args as never, "read").on;
  if (!on || (on.kind !== "group" && on.kind !== "project") || !isIdReference(on.ref)) return undefined;
  const recorded = withoutEngineKeys(olds);
  const unchanged = Object.keys(recorded).length > 0 && engine.changedProperties(recorded, args).length === 0 && engine.lifecycle.released(recorded, args).length === 0;
  if (unchanged) return envelopeOf(olds).ownerPath;
  return ownerPathAtPreview(context(), on.kind, on.ref);
}

/**
 * check's step for the groups and projects other inputs name by numeric id
 * (a field's `names` trait: a share's invited group): their full paths, from
 * the run's one read of each, as for the owner. A value unchanged since the
 * state was recorded keeps the path recorded, and costs no read.
 */
async function namedPathsPreviewed(engine: Engine, olds: Args, args: Args): Promise<Record<string, string> | undefined> {
  const recorded = withoutEngineKeys(olds);
  const kept = envelopeOf(olds).namedPaths ?? {};
  const paths: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) {
    const names = engine.propertySet.has(name) ? engine.traits(name).names : undefined;
    if (names === undefined || !isIdReference(value)) continue;
    const path = String(recorded[name]) === String(value) && kept[name] !== undefined ? kept[name] : await ownerPathAtPreview(context(), names, value);
    if (path !== undefined) paths[name] = path;
  }
  return Object.keys(paths).length > 0 ? paths : undefined;
}

/** Outputs recorded at apply time that a refresh keeps: prior values, fingerprints of the files applied. */
const KEPT_ON_REFRESH = [...PRIOR_VALUE_OUTPUTS, "fingerprints"];

/**
 * What `check` adds to the inputs besides the properties: the fingerprints of the declared files, and the paths of
 * an owner and the other groups named by id. The refreshed inputs keep those applied, or the next preview would show them as a change.
 */
const CHECKED_INPUTS_KEPT = ["fingerprints", OWNER_PATH_KEY, NAMED_PATHS_KEY];

/** read: the live object as state, and the inputs it implies, so the next diff compares with what is there. */
function refreshed(engine: Engine, id: string, args: Args, live: Live, props: Args): pulumi.dynamic.ReadResult {
  const kept: Args = { ...ownerPathOutput(props) };
  for (const key of KEPT_ON_REFRESH) if (key in args) kept[key] = args[key];
  const outs = { ...engine.outputsFor(args, live), ...kept };
  const inputs: Args = {};
  for (const name in outs) {
    if (engine.propertySet.has(name)) inputs[name] = engine.traits(name).secretParts?.refreshedInput(outs[name], args) ?? outs[name];
  }
  for (const key of CHECKED_INPUTS_KEPT) if (kept[key] !== undefined) inputs[key] = kept[key];
  const secretsChanged = changedSecretPaths(engine, args, outs);
  const unread = engine.definition.unreadSecrets?.(live) ?? [];
  const refreshedProps = { ...outs, ...(secretsChanged.length > 0 ? { [SECRETS_CHANGED_KEY]: secretsChanged } : {}), ...(unread.length > 0 ? { [SECRETS_UNREAD_KEY]: unread } : {}) };
  return { id, props: refreshedProps, inputs };
}

/**
 * The paths of the secret values a refresh found other than last applied
 * (`recorded`): of each property or output kept secret (a write-only one is
 * never read back) and each property with secret parts, down through objects.
 */
function changedSecretPaths(engine: Engine, recorded: Args, outs: Args): string[] {
  const { definition, propertySet, traits } = engine;
  const holdsSecrets = (name: string) => {
    if (propertySet.has(name)) return (traits(name).secret === true && !traits(name).writeOnly) || traits(name).secretParts !== undefined;
    const output = definition.outputs[name];
    return output !== undefined && typeof output !== "function" && output.secret === true;
  };
  const paths: string[] = [];
  for (const name of Object.keys(outs).filter(holdsSecrets)) {
    if (name in recorded) paths.push(...differingPaths(recorded[name], outs[name], name, equal));
  }
  return paths.sort();
}

function stripUndefined(args: Args): Args {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined));
}
