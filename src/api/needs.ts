/**
 * What an object, a data function or an action needs of the server and of
 * the token's user, declared once as values (`Needs`), and the words every
 * layer derives from them: a refused request explained (../engine/explain.ts), a
 * function's or an action's refusal (../calls/core.ts), the preview's
 * checks (../engine/verify.ts, which also judges the values) and the docs' table of
 * needs (checked by test/docs.test.ts). One cause, one wording, wherever it
 * is said.
 */
import { flagOff, roleNeeded, tierNeeded, type PlatformClient, type Role, type RoleNeed, type Tier } from "../client";
import type { NamedOwner } from "./owner";

import { onGroup, onProject } from "./owner";

export { onGroup, onProject, ownerNamedBy } from "./owner";
export { ROLE_LEVELS, roleInWords, tierInWords } from "../client";
export type { Role, RoleNeed, Tier } from "../client";

/** An object as the API returned it. */
export type Live = Record<string, unknown>;

/** What a read made for the engine (a need's check at preview, a resource's request) goes through. */
export interface EngineContext {
  client: PlatformClient;
}

/** What the engine is doing when a request fails. */
export type Operation = "create" | "read" | "update" | "delete";

/** A need the server may refuse with another status than 403 (see `Needs.refusedWith`). */
export type Gate = "tier" | "featureFlag" | "role";

/** What one resource, function or action needs, for one operation. */
export interface Needs {
  /** Where the object lives (or what the call reads): a group or project and the input naming it, an object of a group, the instance. */
  on: Owner;
  /** The operation sends no request (an exclusive set's delete, a trigger's refresh): it needs nothing. */
  noRequest?: true;
  /** The subject in words when it is more than its owner: `epic &3 of group acme`, `the default branch of project acme/web`. */
  subject?: string;
  /** The least role the token's user needs on the owner; `administrator` for instance-wide objects. Verified at preview. */
  role?: Role | "administrator";
  /**
   * The need in words, where they must say more than `role` (push access, or
   * what a branch's protection allows; a token's api scope), or where no role
   * value says it (a membership of any role). Refusals say it; the preview
   * verifies only `role`.
   */
  phrase?: string;
  /** The least licence tier of the owner's top-level group (hosted) or of the instance. */
  tier?: Tier;
  /** The offering it exists on, when not every one has it (instance-wide settings: self-managed and Dedicated). */
  offering?: "self-managed";
  /** A feature flag that must be on for the owner's top-level group (set so, or on by its default). */
  featureFlag?: string;
  /**
   * The statuses other than 403 with which the API refuses when the tier or the
   * flag is missing (the container registry API answers 401 when its flag is
   * off and 404 when the tier is too low), and which missing thing each may mean.
   */
  refusedWith?: Partial<Record<401 | 404, Gate[]>>;
  /**
   * Preview only. What needs the tier, when it is inputs' values and not the resource itself (more than one
   * assignee): an update is verified for the tier when any of `properties` changed, and the failure names the
   * first that did (a create's, the first of them).
   */
  tierFor?: { properties: readonly string[]; what: string };
  /** Preview only. Needs of single inputs (a group's tier-gated settings), each verified when its input is declared new or changed. */
  inputGates?: InputGate[];
  /** Preview only. An object the create would collide with (a second one the server refuses, or a duplicate). */
  unique?: Uniqueness;
  /** Preview only. Lists the new object joins that hold a limited number (a virtual registry's five upstreams): a full one is refused. */
  room?: Room[];
  /** Preview only. The object must be the token's user's own (a pipeline schedule), unless it has `orRole`: read per object. */
  ownership?: Ownership;
  /** Preview only. An existing object the call acts on (the schedule a run plays), named by an input: read once per object and run. */
  target?: Target;
  /** Preview only. The branches and tags the inputs name, which must exist in the owner project's repository: each looked up once per run. */
  refs?: RefNeed[];
  /** Preview only. Rules of the server's that only reads can judge (who may create a top-level group, a parent's creation level): see `Rule`. */
  rules?: Rule[];
}

/**
 * A rule of the server's that the preview judges by reading: what the server
 * would refuse, in words, or undefined when the rule is met or the reads do
 * not tell (an unknown fact is no refusal). Reads go through `ctx`, whose GETs
 * are answered once per run.
 */
export interface Rule {
  /**
   * The input the rule is about: judged on a create, and on an update that
   * changes it. Without it, a rule of the existing object (who may change or
   * delete it), judged on each step on it, given its id.
   */
  property?: string;
  judge(ctx: EngineContext, facts: RuleFacts): Promise<string | undefined>;
}

/** What a rule is judged with. */
export interface RuleFacts {
  /** The verified user: the token's, or the apply identity's. */
  username: string;
  /** Its numeric id, where a rule reads its role. */
  userId: number;
  isAdmin: boolean;
  /** The existing object's id, for a rule of the object. */
  id?: string;
  /** A replacement's create: the recorded inputs of the object it replaces (gone first, or after, as the kind's `deleteBeforeReplace` says). */
  replacing?: Readonly<Record<string, unknown>>;
  /** How the user falls short of `role` on a group (`roleNeeded`'s sentence, for `purpose`); undefined when they do not, or the server does not tell. */
  roleShortfall(group: string | number, role: Role, purpose: string): Promise<string | undefined>;
}

/** A branch or tag an input names (a schedule's `ref`, a merge request's branches). */
export interface RefNeed {
  /** The input naming it. */
  property: string;
  /** As declared: a short name (`main`) or a full ref (`refs/heads/main`, `refs/tags/v1.0`). */
  name: string;
  /** `branch`: a branch of that name; `branch or tag`: exactly one branch or tag of a short name (the server refuses one that is both as ambiguous). */
  kind: "branch" | "branch or tag";
}

/** An object a call acts on: one the server answers 404 for is refused at preview. */
export interface Target {
  /** The input naming it. */
  property: string;
  /** The object in words: `pipeline schedule 12 of project acme/web`. */
  what: string;
  read(ctx: EngineContext): Promise<unknown>;
}

/**
 * Whose the object is, where the API lets only its owner change it: the
 * owner is a fact of the object, read once per object and run (by its id),
 * and only when the role does not do without it.
 */
export interface Ownership {
  /** The object in words: `the schedule`. */
  what: string;
  /** The username of the object's owner; null when nobody owns it. */
  ownerOf(ctx: EngineContext, id: string): Promise<string | null>;
  /** The role on the owner that does without ownership (a Maintainer taking ownership); none: only the owner may. */
  orRole?: Role;
}

/** Where an object lives, as its needs name it. */
export type Owner = NamedOwner | GroupObjectOwner | { kind: "instance" } | { kind: "described"; what: string };

/**
 * An owner named by an object of a group (a container virtual registry, by
 * its id): the group is the owner, found by reading the object.
 */
export interface GroupObjectOwner {
  kind: "group object";
  property: string;
  ref: number;
  /** The object in messages: `container virtual registry 12`. */
  what: string;
  /** Its API path: it is read once per run (by every resource it owns). */
  path: string;
  /** Reads it (through its area's checked calls): its group's numeric id. */
  groupOf(ctx: EngineContext): Promise<number>;
  /**
   * The needs that gate the read itself, by the status the server refuses it
   * with when one is missing (as `Needs.refusedWith`). A read that succeeds
   * shows them met, so they are not read again.
   */
  refusedWith?: Needs["refusedWith"];
}

/** What one input needs of the server when it is set: a tier, an administrator, a top-level group (derived from its traits, ./fields.ts). */
export interface InputGate {
  property: string;
  tier?: Tier;
  administrator?: boolean;
  topLevel?: boolean;
}

/** One kind of object listed once per owner, and how to find the one a new object would collide with. */
export interface Uniqueness {
  /** Names the list in the run's cache (`badges`): one read per owner and list. */
  list: string;
  read(ctx: EngineContext, owner: OwnerFacts): Promise<Live[]>;
  /** The colliding object: what it is, in words, and the id the `import` option takes for it. */
  find(objects: Live[], owner: OwnerFacts): { what: string; id: string } | undefined;
}

/**
 * A list with a limit that the new object takes a place in: the server
 * refuses it when the list is already full. Only what is on the server is
 * counted; the program's own new objects are counted where the program runs
 * (../engine/declarations.ts), and the two together are left to the server.
 */
export interface Room {
  /** The input that puts the object in this list (`registry`, `otherRegistries[1]`). */
  property: string;
  /** Names the list in the run's cache, as `Uniqueness.list`: a uniqueness list of the same name is the same read. */
  list: string;
  read(ctx: EngineContext, owner: OwnerFacts): Promise<Live[]>;
  /** The most the list holds. */
  max: number;
  /** What holds the list and what it holds, in words: `container virtual registry 12`, `upstreams`. */
  holder: string;
  items: string;
}

/** An owner as the server showed it. */
export interface OwnerFacts {
  kind: "group" | "project";
  id: number;
  fullPath: string;
  /** `/groups/12` or `/projects/7`. */
  apiPath: string;
  /** A project's answer carries the caller's access level (`permissions`); a group's does not. */
  accessLevel?: number;
  /** A project's default branch, as its answer names it (none for an empty repository). */
  defaultBranch?: string;
}

// ---------------------------------------------------------------------------
// Words (roles and tiers: ../client/roles.ts)

/** An owner in words: `project acme/web`, `group acme`, `the instance`, `the group of container virtual registry 12`. */
export function ownerInWords(owner: Owner): string {
  switch (owner.kind) {
    case "instance":
      return "the instance";
    case "described":
      return owner.what;
    case "group object":
      return `the group of ${owner.what}`;
    default:
      return `${owner.kind} ${owner.ref}`;
  }
}

/** The one wording of a setting only top-level groups have, set on a subgroup (`group acme/web`). */
export const topLevelNeeded = (subgroup: string): string => `only top-level groups have this setting, and ${subgroup} is a subgroup`;

/**
 * The one wording of an API the offering in use does not have: the server
 * does not know its route (a 404 that names nothing).
 */
export const offeringNeeded = (offering: NonNullable<Needs["offering"]>): string =>
  `this API exists only on ${offering} and Dedicated instances, not on the hosted offering; check that platform:url is one of them`;

/**
 * The one wording of a status the API answers alike for several missing
 * needs (`Needs.refusedWith`): each need it may mean, then the `otherwise`
 * causes (a refused token, an object that does not exist). Undefined when the
 * needs name no gate for the status.
 */
export function refusedFor(needs: Needs, status: 401 | 404, otherwise: readonly string[]): string | undefined {
  const gates = needs.refusedWith?.[status] ?? [];
  if (gates.length === 0) return undefined;
  const subject = needs.subject ?? ownerInWords(needs.on);
  const causes = gates.map((gate) =>
    gate === "tier"
      ? `${tierNeeded(needs.tier!, subject)} and is below it`
      : gate === "role"
        ? `${roleNeeded(needs.role!, subject)} and lacks it`
        : flagOff(needs.featureFlag!, `for ${subject}`),
  );
  return `either ${[...causes, ...otherwise].join(", or ")} (this API answers ${status} to each)`;
}

/** What refusals say of a need: the subject in words, and the role (or the phrase that says more), tier and flag they name. */
export interface NeedsInWords {
  subject: string;
  role?: RoleNeed;
  tier?: Tier;
  featureFlag?: string;
}

export function needsInWords(needs: Needs): NeedsInWords {
  const role: RoleNeed | undefined = needs.phrase !== undefined ? { phrase: needs.phrase } : needs.role;
  return {
    subject: needs.subject ?? ownerInWords(needs.on),
    ...(role ? { role } : {}),
    ...(needs.tier ? { tier: needs.tier } : {}),
    ...(needs.featureFlag ? { featureFlag: needs.featureFlag } : {}),
  };
}

/** The needs of a call on the project its `project` argument names: `role` on it, and what else it needs (a tier, a phrase). */
export const projectNeeds =
  (role?: Role, more: Omit<Needs, "on" | "role"> = {}) =>
  (args: { project: string | number }): Needs => ({ on: onProject(args.project), ...(role ? { role } : {}), ...more });

/** The needs of a call on the group its `group` argument names: `role` on it, and what else it needs (a tier, a phrase). */
export const groupNeeds =
  (role?: Role, more: Omit<Needs, "on" | "role"> = {}) =>
  (args: { group: string | number }): Needs => ({ on: onGroup(args.group), ...(role ? { role } : {}), ...more });
