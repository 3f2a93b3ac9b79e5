/**
 * Finding the estate and reading each object of a kind the package manages,
 * as the resource itself reads it (its `read` or `locate`), through the
 * package's client: pages of 100, its rate-limit gate, and only GETs. How a
 * kind is found on an owner is the kind's own (`imported` on its declaration,
 * ../engine/estate.ts); this module walks the owners, passes over what the
 * server refuses, and makes the declarations.
 *
 * The groups under the scope come from `GET /groups/:id/descendant_groups`
 * (else `/groups/:id/subgroups`, level by level), the projects from
 * `GET /groups/:id/projects?include_subgroups=true&with_shared=false`, the
 * documented calls clients use for it. A server that answers either with 404
 * is said in the summary, and the groups and projects named on the command
 * line are read all the same.
 */
import { ApiError, type PlatformClient, roleNeeded, tierNeeded } from "../client";
import type { AnyResourceDefinition, EngineContext, FieldTraits } from "../engine/definition";
import { topLevelNeeded, type OwnerFacts } from "../api/needs";
import { readsOf } from "../engine/run-caches";
import { tierStanding, tokenUser } from "../engine/verify";
import { type Collection, type EstateOwner, type EstateReading, type Findings, type Found, type FoundOn, type ImportedKind, type ImportedSet, importKey, isReference, referenceTo } from "../engine/estate";
import { groupRequests, groupPath, listedGroup } from "../api/groups";
import { projectRequests, projectPath } from "../api/projects";
import { definitions, type ResourceKind } from "../resources";
import { inputsFromLive } from "./inputs";
import { importOrder } from "./order";
import type { Target } from "./terraform";
import type { Declaration, ImportValue, ModuleOwner, SecretEntry, Skipped } from "./values";

export interface Scope {
  group?: string;
  projects: readonly string[];
  instance: boolean;
  exclusive: boolean;
}

export interface Estate {
  declarations: Declaration[];
  skipped: Skipped[];
  /** The secrets the program reads from config, each by the resource and property it sets. */
  secrets: SecretEntry[];
  /** The values of those secrets the server shows, by `<resource key> <property>` (never written into a file: `--stack` sets them in its config). */
  secretValues: Map<string, string>;
}

export interface ReadOptions {
  /** Requests of the import under way at once (the client's gate bounds them too). */
  concurrency?: number;
  progress?: (line: string) => void;
}

/** Where a kind's reading stops: the refusals that say the token may not read it, or the server has no such thing. */
function refusal(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.status === 401 || error.status === 403) return `the token may not read it (${error.status})`;
  if (error.status === 404) return "the server answers 404 (not available here: tier, feature flag or offering, or not visible to the token)";
  // A read the server refuses outright: what the offering lacks (SAML identities on a self-managed instance answer 400).
  if (error.status === 400) return "the server refuses to list it (400: not available on this server)";
  return undefined;
}

/** Runs `work` over `items`, at most `limit` at once, results in the items' order. */
async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

interface GroupFound {
  id: number;
  fullPath: string;
  topLevel: boolean;
}
interface ProjectFound {
  id: number;
  fullPath: string;
  /** The project as the list (or the read) of it showed it. */
  listed?: Record<string, unknown>;
}

export async function readEstate(client: PlatformClient, scope: Scope, options: ReadOptions = {}): Promise<Estate> {
  const ctx: EngineContext = { client };
  const progress = options.progress ?? (() => undefined);
  const limit = options.concurrency ?? 8;
  const estate: Estate = { declarations: [], skipped: [], secrets: [], secretValues: new Map() };
  const groups = new Map<number, GroupFound>();
  const projects = new Map<number, ProjectFound>();

  if (scope.group !== undefined) {
    const root = await groupRequests.get(client, groupPath(scope.group), { with_projects: false });
    groups.set(root.id, { id: root.id, fullPath: root.full_path, topLevel: root.parent_id === null });
    for (const found of await descendantGroups(client, root.id, estate.skipped, root.full_path)) groups.set(found.id, found);
    for (const found of await groupProjects(client, root.id, estate.skipped, root.full_path)) projects.set(found.id, found);
  }
  for (const reference of scope.projects) {
    const project = await projectRequests.get(client, projectPath(reference));
    projects.set(project.id, { id: project.id, fullPath: project.path_with_namespace, listed: project });
  }

  const sortedGroups = [...groups.values()].sort((a, b) => a.fullPath.localeCompare(b.fullPath, "en"));
  const sortedProjects = [...projects.values()].sort((a, b) => a.fullPath.localeCompare(b.fullPath, "en"));
  let done = 0;
  const total = sortedGroups.length + sortedProjects.length + (scope.instance ? 1 : 0);
  const step = (what: string) => progress(`read ${what} (${++done}/${total})`);

  const reader = new Reader(ctx, estate, scope.exclusive);
  const perOwner = await mapLimit<GroupFound | ProjectFound | "instance", Declaration[]>(
    [...sortedGroups, ...sortedProjects, ...(scope.instance ? (["instance"] as const) : [])],
    limit,
    async (owner) => {
      if (owner === "instance") {
        const found = await reader.owner(INSTANCE);
        step("the instance");
        return found;
      }
      const group = "topLevel" in owner;
      const found = await reader.owner({ kind: group ? "group" : "project", ...owner });
      step(`${group ? "group" : "project"} ${JSON.stringify(owner.fullPath)}`);
      return found;
    },
  );
  estate.declarations = perOwner.flat();
  return estate;
}

/**
 * The objects a Terraform state names (./terraform.ts), each read from the
 * server and declared as a run over the estate would declare it. An object the
 * server no longer has (or hides from the token) is skipped, saying so.
 */
export async function readTargets(client: PlatformClient, targets: readonly Target[], options: ReadOptions = {}): Promise<Estate> {
  const ctx: EngineContext = { client };
  const estate: Estate = { declarations: [], skipped: [], secrets: [], secretValues: new Map() };
  const reader = new Reader(ctx, estate, false);
  const owners = new Map<string, Promise<ModuleOwner>>();
  // How many of the state's resources name each key in each owner: a key that does not tell objects apart (a SAML link's name) may name several.
  const sameKey = (target: Target) => JSON.stringify([target.kind, target.owner?.kind, target.owner?.ref, target.key]);
  const resourcesOf = new Map<string, number>();
  for (const target of targets) resourcesOf.set(sameKey(target), (resourcesOf.get(sameKey(target)) ?? 0) + 1);
  const ownerOfTarget = (kind: "group" | "project", reference: string) => {
    const key = `${kind} ${reference}`;
    if (!owners.has(key)) {
      owners.set(
        key,
        kind === "group"
          ? groupRequests.get(client, groupPath(reference), { with_projects: false }).then((group) => ({ kind, id: group.id, fullPath: group.full_path }))
          : projectRequests.get(client, projectPath(reference)).then((project) => ({ kind, id: project.id, fullPath: project.path_with_namespace })),
      );
    }
    return owners.get(key)!;
  };
  let done = 0;
  const perTarget = await mapLimit(targets, options.concurrency ?? 8, async (target) => {
    const found: Declaration[] = [];
    try {
      await reader.target(found, target, ownerOfTarget, resourcesOf.get(sameKey(target))!);
    } catch (error) {
      if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 403 && error.status !== 401)) throw error;
      estate.skipped.push({ where: "the Terraform state", what: describeTarget(target), why: `the server answers ${error.status}: the object is gone (the state is out of date), or the token may not see it` });
    }
    options.progress?.(`read ${describeTarget(target)} (${++done}/${targets.length})`);
    return found;
  });
  // A state may name one object twice (two resources of one object): declared once.
  const seen = new Set<string>();
  estate.declarations = perTarget.flat().filter((declaration) => !seen.has(declaration.key) && seen.add(declaration.key));
  return estate;
}

/** `badge 5 of group "12"`, in the kind's own words. */
function describeTarget(target: Target): string {
  const key = target.key === undefined ? "" : ` ${typeof target.key === "string" ? JSON.stringify(target.key) : target.key}`;
  const owner = target.owner === undefined ? "" : ` of ${target.owner.kind} ${JSON.stringify(target.owner.ref)}`;
  return `${KINDS.get(target.kind)!.words.noun}${key}${owner}`;
}

async function descendantGroups(client: PlatformClient, id: number, skipped: Skipped[], where: string): Promise<GroupFound[]> {
  const asFound = (group: { id: number; full_path: string; parent_id: number | null }) => ({ id: group.id, fullPath: group.full_path, topLevel: group.parent_id === null });
  try {
    return (await client.list<unknown>(`${groupPath(id)}/descendant_groups`, { all_available: true })).map((item) => asFound(listedGroup.parse(item)));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
  }
  // A server without descendant_groups: the subgroups, level by level.
  const found: GroupFound[] = [];
  let level = [id];
  try {
    while (level.length > 0) {
      const next: number[] = [];
      for (const parent of level) {
        for (const item of await client.list<unknown>(`${groupPath(parent)}/subgroups`, { all_available: true })) {
          const group = listedGroup.parse(item);
          found.push(asFound(group));
          next.push(group.id);
        }
      }
      level = next;
    }
    return found;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    skipped.push({ where, what: "subgroups", why: "the server does not list a group's subgroups (descendant_groups and subgroups answer 404); give each with --group in a run of its own" });
    return [];
  }
}

async function groupProjects(client: PlatformClient, id: number, skipped: Skipped[], where: string): Promise<ProjectFound[]> {
  try {
    const listed = await client.list<{ id: number; path_with_namespace: string }>(`${groupPath(id)}/projects`, { include_subgroups: true, with_shared: false });
    return listed.map((project) => ({ id: project.id, fullPath: project.path_with_namespace, listed: project }));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    skipped.push({ where, what: "projects", why: "the server does not list a group's projects (GET /groups/:id/projects answers 404); name each with --project" });
    return [];
  }
}

const INSTANCE: EstateOwner = { kind: "instance", id: 0, fullPath: "" };

const KINDS = new Map(importOrder(definitions).map((kind): [string, AnyResourceDefinition] => [kind, definitions[kind as ResourceKind]]));

/** The kinds found on owners, in the import's order (an upstream after the registries it is found through). */
const FINDERS = [...KINDS].flatMap(([kind, definition]) => ("find" in definition.imported ? [{ kind, definition, imported: definition.imported }] : []));

/** The only-these sets, each declared for a collection its members' kind read whole. */
const SETS = [...KINDS].flatMap(([kind, definition]) => ("setOf" in definition.imported ? [{ kind, definition, imported: definition.imported }] : []));

/** What an owner is, for a kind's `on`. */
const placesOf = (owner: EstateOwner): FoundOn[] => (owner.kind === "group" ? (owner.topLevel ? ["group", "top-level group"] : ["group"]) : [owner.kind]);

const whereOf = (owner: EstateOwner) => owner.fullPath || "the instance";

class Reader {
  constructor(
    private readonly ctx: EngineContext,
    private readonly estate: Estate,
    private readonly exclusive: boolean,
  ) {}

  /** Runs a read; a refusal skips what it reads for this owner, saying why. */
  private async tolerate<T>(where: string, what: string, read: () => Promise<T>): Promise<T | undefined> {
    try {
      return await read();
    } catch (error) {
      const why = refusal(error);
      if (why === undefined) throw error;
      this.estate.skipped.push({ where, what, why });
      return undefined;
    }
  }

  /** How one kind's finder reads `owner`; `findings`: what the kinds before it found there. */
  private reading(kind: string, owner: EstateOwner, findings: ReadonlyMap<string, Findings>): EstateReading {
    const definition = KINDS.get(kind)!;
    return {
      ctx: this.ctx,
      owner,
      foundOf: (other) => {
        if (!("find" in definition.imported) || !definition.imported.through?.includes(other)) throw new Error(`${kind} reads what ${other} found, which its imported.through does not name`);
        return findings.get(other)?.found;
      },
      tolerant: (what, read) => this.tolerate(whereOf(owner), what, read),
      read: (importId, address) => definition.read(this.ctx, importId, address),
      locate: (address) => {
        if (definition.kind !== "settings") throw new Error(`${kind} is not a settings resource: it has no object to locate`);
        return definition.locate(this.ctx, address);
      },
      unmetNeeds: (traits) => this.unmetNeeds(traits, owner),
    };
  }

  /**
   * Why a field with needs of its own stays out of the owner's declaration:
   * its need unmet as the preview's checks read it (the token's user, the
   * group's level, the top-level group's plan or the instance's licence, each
   * read once per run) and in their words, or a need the import cannot tell:
   * the offering, which no read shows, and a tier hidden from the token's user.
   */
  private async unmetNeeds(traits: FieldTraits, owner: EstateOwner): Promise<string | undefined> {
    const subject = owner.kind === "instance" ? "the instance" : `${owner.kind} ${owner.fullPath}`;
    if (traits.offering) return `it needs the ${traits.offering} offering, which the import cannot read`;
    const reads = readsOf(this.ctx.client);
    const user = await tokenUser(this.ctx, reads);
    if (traits.administrator && !user.isAdmin) return roleNeeded("administrator", "the instance", { username: user.username, has: "a regular user", purpose: "this setting" });
    if (traits.topLevelOnly && owner.kind === "group" && owner.fullPath.includes("/")) return topLevelNeeded(subject);
    if (!traits.tier || owner.kind === "instance") return undefined;
    const facts: OwnerFacts = { kind: owner.kind, id: owner.id, fullPath: owner.fullPath, apiPath: owner.kind === "group" ? groupPath(owner.id) : projectPath(owner.id) };
    const standing = await tierStanding(this.ctx, reads, facts, user, traits.tier);
    if (standing.shortfall) return tierNeeded(traits.tier, subject, { purpose: "this setting", shortfall: standing.shortfall });
    if (!standing.known) return `${tierNeeded(traits.tier, subject)}, which the token's user (${user.username}) may not read: the plan is shown to the top-level group's Owners and to administrators`;
    return undefined;
  }

  /** Every kind found on the owner, then (`--exclusive`) an only-these set of each collection read whole. */
  async owner(owner: EstateOwner): Promise<Declaration[]> {
    const found: Declaration[] = [];
    const findings = new Map<string, Findings>();
    const places = placesOf(owner);
    for (const { kind, imported } of FINDERS) {
      if (!imported.on.some((place) => places.includes(place))) continue;
      const findingsOfKind = await this.tolerate(whereOf(owner), imported.listed, () => imported.find(this.reading(kind, owner, findings)));
      if (!findingsOfKind) continue;
      findings.set(kind, findingsOfKind);
      this.take(found, kind, owner, findingsOfKind);
    }
    if (this.exclusive) {
      for (const { kind, imported } of SETS) for (const collection of findings.get(imported.setOf)?.collections ?? []) await this.exclusiveSet(found, kind, imported, owner, collection);
    }
    return found;
  }

  /** One object a Terraform state names, read as a run over its owner reads it; `resources`: how many of the state's resources name its key. */
  async target(found: Declaration[], target: Target, resolveOwner: (kind: "group" | "project", reference: string) => Promise<ModuleOwner>, resources: number): Promise<void> {
    const imported = KINDS.get(target.kind)!.imported as ImportedKind;
    const owner = target.owner === undefined ? INSTANCE : await resolveOwner(target.owner.kind, target.owner.ref);
    const reading = this.reading(target.kind, owner, new Map());
    if (target.key !== undefined && !imported.findOne) throw new Error(`${target.kind} cannot read one object by its key: declare its findOne`);
    const findings = target.key !== undefined ? await imported.findOne!(reading, target.key, { resources, ...(target.said ? { said: target.said } : {}) }) : await this.tolerate(whereOf(owner), imported.listed, () => imported.find(reading));
    if (findings) this.take(found, target.kind, owner, findings);
  }

  private take(found: Declaration[], kind: string, owner: EstateOwner, findings: Findings): void {
    for (const skipped of findings.skipped ?? []) this.estate.skipped.push({ where: whereOf(owner), ...skipped });
    for (const one of findings.found) this.declare(found, kind, owner, one);
  }

  /** The declaration of one object found: its inputs as the server holds them, its write-only secrets as config entries. */
  private declare(found: Declaration[], kind: string, owner: EstateOwner, one: Found): void {
    const key = importKey(kind, one.importId);
    const secrets = new Map<string, ImportValue>((one.secrets ?? []).map((property) => [property, this.secret(key, property, one.secretValues?.[property])]));
    const inputs = inputsFromLive(KINDS.get(kind)!, one.live, one.address, { secrets, leaveOut: one.leaveOut });
    if (inputs.refused) {
      this.estate.skipped.push({ where: whereOf(owner), what: `${kind} ${one.importId}`, why: inputs.refused });
      return;
    }
    const args = one.referring ? one.referring(inputs.args) : inputs.args;
    found.push({ kind, key, importId: one.importId, owner: { kind: owner.kind, id: owner.id, fullPath: owner.fullPath }, baseName: one.name, args, notes: [...inputs.notes, ...(one.notes ?? [])] });
  }

  /** A secret a declaration must carry: a config entry, named after the resource when the program is written. */
  private secret(key: string, property: string, value: string | undefined) {
    this.estate.secrets.push({ key, property });
    if (value !== undefined) this.estate.secretValues.set(`${key} ${property}`, value);
    return { secretConfig: property };
  }

  /** An only-these set of one collection, keeping each of its objects this run declared, by the members' output. */
  private async exclusiveSet(found: Declaration[], kind: string, set: ImportedSet, owner: EstateOwner, collection: Collection): Promise<void> {
    const declared = new Set(found.map((declaration) => declaration.key));
    const keep = collection.members.filter((importId) => declared.has(importKey(set.setOf, importId))).map((importId) => referenceTo(set.setOf, importId, set.keeps, importId));
    const definition = KINDS.get(kind)!;
    // The set's id is its collection's path, as its own create gives it (no request).
    const plain = Object.fromEntries(Object.entries(collection.address).map(([name, value]) => [name, isReference(value) ? value.value : value]));
    const importId = definition.kind === "object" && definition.importByCreating ? await definition.importByCreating(this.ctx, { ...plain, keep: [] }) : undefined;
    if (importId === undefined) return;
    this.declare(found, kind, owner, { importId, name: collection.name ?? "", live: {}, address: { ...collection.address, keep } });
  }
}
