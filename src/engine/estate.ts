/**
 * How platform-import (../import) finds the objects of a kind on a server and
 * declares them, and which objects of a GitLab Terraform provider's state are
 * of the kind: parts of the kind's declaration (`imported`, `terraform` in
 * ./definition.ts), so that the importer holds no fact of any one kind and a
 * new kind is imported by its own module. The kind reads through its API
 * module's calls, as its resource does; the importer supplies the owners, the
 * tolerance of refusals, and the program text.
 */
import type { FieldTraits } from "../api/fields";
import type { EngineContext, Live } from "../api/needs";

/** A group, a project, or the instance, as the importer found it. */
export interface EstateOwner {
  kind: "group" | "project" | "instance";
  /** The server's numeric id (0 for the instance). */
  id: number;
  /** The full path as the server holds it now (`acme/web`); empty for the instance. */
  fullPath: string;
  /** For a group: it has no parent (what registries, policies and SAML identities belong to). */
  topLevel?: boolean;
  /** The owner as the importer's list of it showed it (a project of the group's projects), where it was listed. */
  listed?: Live;
}

/** The inputs that name an owner as the program declares it: `{ group: 12 }`, `{ project: 7 }`, none for the instance. */
export const ownerAddress = (owner: EstateOwner): Record<string, unknown> => (owner.kind === "instance" ? {} : { [owner.kind]: owner.id });

/** Where a kind's objects are found. */
export type FoundOn = "group" | "top-level group" | "project" | "instance";

/** Another imported object's output, where the program names that object: `registry.registryId`. */
export interface Reference {
  /** The declaration referred to, by its key (`importKey`). */
  readonly reference: string;
  readonly output: string;
  /** The value the server holds, used when the object referred to is not in the program. */
  readonly value: unknown;
}

/** What an imported object is on the server, whatever its names: its kind and the id its import takes (`Badge groups/12/badges/5`). */
export const importKey = (kind: string, importId: string) => `${kind} ${importId}`;

/** The output `output` of the object of `kind` imported by `importId`, else `value`. */
export const referenceTo = (kind: string, importId: string, output: string, value: unknown): Reference => ({ reference: importKey(kind, importId), output, value });

export const isReference = (value: unknown): value is Reference =>
  typeof value === "object" && value !== null && typeof (value as Reference).reference === "string" && typeof (value as Reference).output === "string";

/** One object of the kind, as its resource reads it. */
export interface Found {
  /** The `import` option's id. */
  importId: string;
  /** The readable part of its name, from the object's own name (`coverage`, `Nightly build`); may be empty. */
  name: string;
  /** The object as the resource's `read` (or `locate`) gives it. */
  live: Live;
  /** The inputs that address it (its owner, its key in the owner), as the program names them. */
  address: Record<string, unknown>;
  /** Secrets a declaration must carry, each a config entry: write-only ones the server never shows, or values the program's text must not hold (a CI/CD variable's). */
  secrets?: readonly string[];
  /**
   * The values of `secrets` the server shows (a CI/CD variable's value), by
   * property: platform-import's `--stack` sets each in that stack's config,
   * encrypted by it, and writes them nowhere else.
   */
  secretValues?: Readonly<Record<string, string>>;
  /** Properties never declared from the live object (identity, deprecated aliases, gated settings), each with why. */
  leaveOut?: ReadonlyMap<string, string>;
  /** Facts for the comment above the declaration: fixed wording, property names only, never server text. */
  notes?: readonly string[];
  /** The declared inputs, with values that name other imported objects made references to them (`otherRegistries`). */
  referring?(args: Record<string, unknown>): Record<string, unknown>;
}

/** A collection read whole: what an only-these set of it (`--exclusive`) declares. */
export interface Collection {
  /** The set's inputs besides `keep`: its owner, and what it leaves alone (`ignore`). */
  address: Record<string, unknown>;
  /** The import ids of the collection's objects. */
  members: readonly string[];
  /** The readable part of the set's name, where an owner has several (`registry 4`). */
  name?: string;
}

/** What was not imported, and why. */
export interface NotDeclared {
  what: string;
  why: string;
}

export interface Findings {
  found: readonly Found[];
  /** Objects the kind leaves out, each said. */
  skipped?: readonly NotDeclared[];
  collections?: readonly Collection[];
}

/** What a kind's finder is given: the owner, and the importer's ways of reading. */
export interface EstateReading {
  ctx: EngineContext;
  owner: EstateOwner;
  /**
   * What a kind the reading one is found `through` found of the same owner
   * (read before it): undefined when that kind was not read or the server
   * refused its list. An upstream is found through the registries.
   */
  foundOf(kind: string): readonly Found[] | undefined;
  /** The object as the kind's resource reads it (its `read`), by the id its import takes; undefined when it is not there. */
  read(importId: string, address: Record<string, unknown>): Promise<Live | undefined>;
  /** For a settings kind: the object whose settings it manages, as its `locate` finds it. */
  locate(address: Record<string, unknown>): Promise<{ id: string; live: Live }>;
  /** Reads a list; on a refusal (the token may not read it, the server has none) it is skipped as `what`, said, and undefined. */
  tolerant<T>(what: string, read: () => Promise<T[]>): Promise<T[] | undefined>;
  /**
   * Why a field that needs more than the kind itself (its traits: a tier, an
   * administrator, a top-level group, an offering) is not declared on this
   * owner: the need unmet as the preview's checks read it, or a need the reads
   * cannot tell; undefined when the field may be declared.
   */
  unmetNeeds(traits: FieldTraits): Promise<string | undefined>;
}

/** What a Terraform state says of the object a resource of it names, beyond its owner and key. */
export interface StateSays {
  /** How many of the state's resources name the same key in the same owner (objects a key alone does not tell apart). */
  resources: number;
  /** What the kind's `target` kept of the resource's attributes to tell such objects apart. */
  said?: Record<string, unknown>;
}

/** How platform-import finds a kind's objects. */
export interface ImportedKind {
  /** The word of the names it gives (`acme-badge-coverage`): letters, digits and hyphens. */
  word: string;
  /** What the summary calls the kind's list when the server refuses it (`badges`). */
  listed: string;
  on: readonly FoundOn[];
  /** Its object is the owner it is found on (a subgroup, a project, a top-level group's settings): declared first in the owner's module, before what the owner holds. */
  isOwner?: true;
  /**
   * The kinds it is found through (an upstream through the registries): what
   * they found on the owner is its `foundOf`, and its declarations may refer
   * to theirs, so they are read and declared before it.
   */
  through?: readonly string[];
  /** The owner's objects of the kind. */
  find(reading: EstateReading): Promise<Findings>;
  /** The one object a Terraform state names by its key in the owner; without it, the kind's objects of the owner (settings). */
  findOne?(reading: EstateReading, key: string | number, state: StateSays): Promise<Findings>;
}

/** An only-these set, imported beside the collection its member kind finds (`--exclusive`); its names take the members' word (`only-these-badges`). */
export interface ImportedSet {
  /** The kind of its members. */
  setOf: string;
  /** The members' output its `keep` names. */
  keeps: string;
}

/** A kind platform-import does not declare, and why. */
export interface NotImported {
  notImported: string;
}

export type ImportFacts = ImportedKind | ImportedSet | NotImported;

/** What a Terraform state's resource instance names: the owner, and the object's key in the owner (none for settings). */
export interface TerraformTarget {
  owner?: { kind: "group" | "project"; ref: string };
  key?: string | number;
  /** Attributes that tell apart objects of one key in the owner (`StateSays`). */
  said?: Record<string, unknown>;
}

/** A resource type of the GitLab Terraform provider (version 16 and later) whose instances are objects of the kind. */
export interface TerraformType {
  /** The type, or a pattern of types (`gitlab_group_integration_<slug>`). */
  type: string | RegExp;
  /**
   * What an instance names, from its `id` in the form the provider's import
   * takes (and its attributes); `{ skipped }` for an instance platform-import
   * leaves out, saying why; undefined for an id not of the form.
   */
  target(id: string, attributes: Record<string, unknown>, type: string): TerraformTarget | { skipped: string } | undefined;
}

/** Splits `a:b` at the first colon, the provider's composite ids; the second part may hold colons (a SAML group name). */
export function idPair(id: string): [string, string] | undefined {
  const at = id.indexOf(":");
  return at <= 0 || at === id.length - 1 ? undefined : [id.slice(0, at), id.slice(at + 1)];
}

/** A whole number written in an id, else undefined. */
export const wholeNumber = (text: string | undefined): number | undefined => (text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined);
