/**
 * What the engine carries for a resource besides its declared properties, in
 * one typed envelope, and the one place that writes it into the dynamic
 * provider's inputs and reads it back (the inputs stay plain JSON values, as
 * the engine stores them).
 *
 * The resource class (./resource.ts) puts in the id of an `import` option,
 * the resource's URN when it may take an object over (its warning goes
 * there), whether the run applies, and the names of the inputs given as
 * secrets; check (./provider.ts) passes on the import id and those names, adds
 * the observed values it read and the takeover it found, and drops the rest. What check returns is what diff, create and update get and
 * what the state keeps as the resource's inputs.
 *
 * On the wire: the takeover as the input `takeover`, and the path of an owner
 * the program names by id as the input `ownerPath`, which the preview lists
 * with a step's inputs for the reviewer (../review/changes.ts reads them); the
 * rest under `__engine`, an input the CLI neither shows nor compares (it
 * leaves out every input whose name starts with `__`).
 */

type Args = Record<string, unknown>;

/** A takeover as the preview shows it. */
export interface Takeover {
  /** The object taken over, by the resource's id. */
  id: string;
  /** Each field the `up` changes, with the value it has now: a secret's `[secret]`, a write-only one's `[not shown by the server]`. */
  overwrites: Record<string, unknown>;
  /** A settings resource's create: it takes over the settings that exist by nature, with no `import` or `adoptExisting`. */
  byNature?: true;
}

/** The engine's data for one resource; `Urn` is the program's `Output<string>` in the resource class. */
export interface Envelope<Urn = string, Names = readonly string[]> {
  /** The id of the object the `import` option names (./import.ts): kept in the state, so a pending create can tell it. */
  importId?: string;
  /** The resource's URN, where a takeover's warning is attached: from the program to check only. */
  urn?: Urn;
  /** The program's run applies (`pulumi up`): from the program to check only. */
  applying?: boolean;
  /**
   * The names (never the values) of the properties the program gave as secrets: the provider receives every
   * input plain (the host accepts no secrets), so it treats these as secret wherever a property's own `secret`
   * trait applies. From the program to check, and kept in the state for the later operations.
   */
  secretInputs?: Names;
  /** What check read of the observed properties, for diff and the update: kept in the state. */
  observed?: Args;
  /**
   * What check found to take over, and what the `up` overwrites there: shown in the preview and kept in the
   * state (a settings resource's create has one `byNature`).
   */
  takeover?: Takeover;
  /**
   * The full path of the group or project the program names by numeric id, as the preview's checks read it:
   * shown in the preview, and kept in the state's outputs too, so that a reviewer reads the owner by its path
   * whatever the program names it by.
   */
  ownerPath?: string;
  /**
   * The full paths of the groups and projects other inputs name by numeric id
   * (a share's invited group: the inputs whose field `names` one), by input,
   * as the preview's checks read them; shown and kept as `ownerPath` is.
   */
  namedPaths?: Readonly<Record<string, string>>;
}

/** The visible input that holds the takeover; the review does not list it as a field. */
export const TAKEOVER_KEY = "takeover";

/** The visible input (and output) that holds the owner's path; no field either. */
export const OWNER_PATH_KEY = "ownerPath";

/** The visible input (and output) that holds the paths of the groups and projects other inputs name by id; no field either. */
export const NAMED_PATHS_KEY = "namedPaths";

/** The envelope's inputs the preview shows: no declared property, and no field a reviewer reads. */
export const SHOWN_ENGINE_KEYS: readonly string[] = [TAKEOVER_KEY, OWNER_PATH_KEY, NAMED_PATHS_KEY];

const ENGINE_KEY = "__engine";

/**
 * The keys under which earlier versions kept what the envelope holds, one
 * reserved input each. They are read, never written: the state those versions
 * wrote keeps them in its inputs until the next `up` rewrites them, and a
 * create they left pending names its import by `__import`.
 */
const EARLIER_KEYS = { importId: "__import", observed: "__observed" } as const;

/**
 * The output a refresh adds when a secret value on the server is no longer the
 * one last applied: the paths of those values (`variables.DEPLOY_TOKEN.value`),
 * never a value. The preview shows every secret as `[secret]`, so without it a
 * secret changed by hand would look like no change to the drift check
 * (../review/changes.ts reads it).
 */
export const SECRETS_CHANGED_KEY = "__secretsChanged";

/**
 * The output a refresh adds for the secret values the server never shows for
 * this object (a hidden CI/CD variable's value): their paths. The refresh keeps
 * each as last applied and cannot compare it, so the review names it as not
 * compared rather than as matching (../review/changes.ts reads it).
 */
export const SECRETS_UNREAD_KEY = "__secretsUnread";

/** Every key of the inputs that is no declared property: the host's `__provider`, the envelope's, the earlier ones. */
const ENGINE_KEYS = ["__provider", ENGINE_KEY, ...SHOWN_ENGINE_KEYS, SECRETS_CHANGED_KEY, SECRETS_UNREAD_KEY, ...Object.values(EARLIER_KEYS)];

/** The inputs without the envelope and the host's `__provider`: the declared properties (and the checked inputs' additions). */
export function withoutEngineKeys(values: Args): Args {
  // Callers never change what they get: values without those keys are returned as they are, not copied.
  if (!ENGINE_KEYS.some((key) => Object.hasOwn(values, key))) return values;
  const declared: Args = {};
  for (const key in values) if (!ENGINE_KEYS.includes(key)) declared[key] = values[key];
  return declared;
}

/** The envelope the inputs carry (or the earlier versions' keys); empty when they carry none. */
export function envelopeOf(values: Args): Envelope {
  const carried = isRecord(values[ENGINE_KEY]) ? values[ENGINE_KEY] : {};
  const importId = carried.importId ?? values[EARLIER_KEYS.importId];
  const observed = carried.observed ?? values[EARLIER_KEYS.observed];
  const takeover = values[TAKEOVER_KEY];
  const ownerPath = values[OWNER_PATH_KEY];
  const namedPaths = values[NAMED_PATHS_KEY];
  return {
    ...(typeof importId === "string" && importId !== "" ? { importId } : {}),
    ...(typeof carried.urn === "string" ? { urn: carried.urn } : {}),
    ...(typeof carried.applying === "boolean" ? { applying: carried.applying } : {}),
    ...(isNameList(carried.secretInputs) && carried.secretInputs.length > 0 ? { secretInputs: carried.secretInputs } : {}),
    ...(isRecord(observed) ? { observed } : {}),
    ...(isTakeover(takeover) ? { takeover } : {}),
    ...(typeof ownerPath === "string" && ownerPath !== "" ? { ownerPath } : {}),
    ...(isPathRecord(namedPaths) ? { namedPaths } : {}),
  };
}

/** Paths by input name: a record of non-empty strings. */
const isPathRecord = (value: unknown): value is Record<string, string> =>
  isRecord(value) && Object.keys(value).length > 0 && Object.values(value).every((path) => typeof path === "string" && path !== "");

/** The declared properties with the envelope written in (its empty members left out). */
export function withEnvelope<Urn, Names>(declared: Args, envelope: Envelope<Urn, Names>): Args {
  const { takeover, ownerPath, namedPaths, ...hidden } = envelope;
  const carried = Object.fromEntries(Object.entries(hidden).filter(([, value]) => value !== undefined));
  return {
    ...declared,
    ...(Object.keys(carried).length > 0 ? { [ENGINE_KEY]: carried } : {}),
    ...(takeover !== undefined ? { [TAKEOVER_KEY]: takeover } : {}),
    ...(ownerPath !== undefined ? { [OWNER_PATH_KEY]: ownerPath } : {}),
    ...(namedPaths !== undefined ? { [NAMED_PATHS_KEY]: namedPaths } : {}),
  };
}

/** The inputs as diff and the update act on them: the declared properties, each observed one with the value check read. */
export function actedOn(values: Args): Args {
  const { observed } = envelopeOf(values);
  return observed ? { ...withoutEngineKeys(values), ...observed } : withoutEngineKeys(values);
}

function isRecord(value: unknown): value is Args {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isNameList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((name) => typeof name === "string");
}

/** A takeover as check records it; kept as recorded whatever else it holds. */
function isTakeover(value: unknown): value is Takeover {
  return isRecord(value) && typeof value.id === "string";
}
