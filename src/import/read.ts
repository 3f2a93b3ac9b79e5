/**
 * Finding the estate and reading each object of a kind the package manages,
 * as the resource itself reads it (its `read` or `locate`), through the
 * package's client: pages of 100, its rate-limit gate, and only GETs.
 *
 * The groups under the scope come from `GET /groups/:id/descendant_groups`
 * (else `/groups/:id/subgroups`, level by level), the projects from
 * `GET /groups/:id/projects?include_subgroups=true&with_shared=false`, the
 * documented calls clients use for it. A server that answers either with 404
 * is said in the summary, and the groups and projects named on the command
 * line are read all the same.
 */
import { ApiError, type PlatformClient } from "../client";
import type { AnyResourceDefinition, EngineContext, Live } from "../engine/definition";
import { badgeIdOf, ownBadges } from "../api/badges";
import { groupCalls, groupPath, listedGroup } from "../api/groups";
import { groupIntegrationPath, groupIntegrationsPath, integrationSummaryCalls } from "../api/integrations";
import { samlGroupLinkCalls, samlGroupLinkId, samlGroupLinksPath, samlIdentitiesPath, samlIdentityCalls } from "../api/saml";
import { pipelineScheduleId, pipelineSchedulesPath, scheduleSummaryCalls } from "../api/pipeline-schedules";
import { groupRegistriesPath, registryUpstreamsPath, upstreamCalls, virtualRegistryCalls } from "../api/virtual-registries";
import { clientKeyCalls, clientKeyId, clientKeysPath } from "../api/error-tracking";
import { epicCalls, epicChildrenPath, epicLinkId, groupEpicsPath } from "../api/epics";
import { projectCalls, projectPath } from "../api/projects";
import { ownerOf } from "../api/owner";
import { definitions } from "../resources";
import { settingRequirements } from "../resources/group-settings";
import { INTEGRATION_SLUGS, requiredSettings } from "../resources/group-integration-catalogue";
import { inputsFromLive, type InputsOptions } from "./inputs";
import type { Target } from "./terraform";
import { type Declaration, type ImportValue, isReference, type ModuleOwner, referenceTo, type SecretEntry, type Skipped } from "./values";

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
}

export async function readEstate(client: PlatformClient, scope: Scope, options: ReadOptions = {}): Promise<Estate> {
  const ctx: EngineContext = { client };
  const progress = options.progress ?? (() => undefined);
  const limit = options.concurrency ?? 8;
  const estate: Estate = { declarations: [], skipped: [], secrets: [] };
  const groups = new Map<number, GroupFound>();
  const projects = new Map<number, ProjectFound>();

  if (scope.group !== undefined) {
    const root = await groupCalls.get(client, groupPath(scope.group), { with_projects: false });
    groups.set(root.id, { id: root.id, fullPath: root.full_path, topLevel: root.parent_id === null });
    for (const found of await descendantGroups(client, root.id, estate.skipped, root.full_path)) groups.set(found.id, found);
    for (const found of await groupProjects(client, root.id, estate.skipped, root.full_path)) projects.set(found.id, found);
  }
  for (const reference of scope.projects) {
    const project = await projectCalls.get(client, projectPath(reference));
    projects.set(project.id, { id: project.id, fullPath: project.path_with_namespace });
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
        const found = await reader.instance();
        step("the instance");
        return found;
      }
      const found = "topLevel" in owner ? await reader.group(owner) : await reader.project(owner);
      step(`${"topLevel" in owner ? "group" : "project"} ${JSON.stringify(owner.fullPath)}`);
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
  const estate: Estate = { declarations: [], skipped: [], secrets: [] };
  const reader = new Reader(ctx, estate, false);
  const owners = new Map<string, Promise<ModuleOwner>>();
  const ownerOfTarget = (kind: "group" | "project", reference: string) => {
    const key = `${kind} ${reference}`;
    if (!owners.has(key)) {
      owners.set(
        key,
        kind === "group"
          ? groupCalls.get(client, groupPath(reference), { with_projects: false }).then((group) => ({ kind, id: group.id, fullPath: group.full_path }))
          : projectCalls.get(client, projectPath(reference)).then((project) => ({ kind, id: project.id, fullPath: project.path_with_namespace })),
      );
    }
    return owners.get(key)!;
  };
  let done = 0;
  const perTarget = await mapLimit(targets, options.concurrency ?? 8, async (target) => {
    const found: Declaration[] = [];
    try {
      await reader.target(found, target, ownerOfTarget);
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

function describeTarget(target: Target): string {
  switch (target.kind) {
    case "group-badge":
      return `badge ${target.badge} of group ${JSON.stringify(target.group)}`;
    case "project-badge":
      return `badge ${target.badge} of project ${JSON.stringify(target.project)}`;
    case "schedule":
      return `pipeline schedule ${target.schedule} of project ${JSON.stringify(target.project)}`;
    case "saml-link":
      return `SAML group link ${JSON.stringify(target.name)} of group ${JSON.stringify(target.group)}`;
    case "integration":
      return `integration ${target.slug} of group ${JSON.stringify(target.group)}`;
    case "group-settings":
      return `settings of group ${JSON.stringify(target.group)}`;
    case "instance":
      return "the instance's settings";
  }
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
    return listed.map((project) => ({ id: project.id, fullPath: project.path_with_namespace }));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    skipped.push({ where, what: "projects", why: "the server does not list a group's projects (GET /groups/:id/projects answers 404); name each with --project" });
    return [];
  }
}

/** The group settings the import leaves to the program's author: identity, deprecated names, and settings that need more than the Owner role. */
function groupSettingsLeftOut(): Map<string, string> {
  const leftOut = new Map<string, string>([
    ["name", "the group's identity; rename it in the program if you mean to"],
    ["path", "the group's identity; a new path moves the group"],
    ["emailsDisabled", "the deprecated name of emailsEnabled"],
    ["defaultBranchProtection", "the deprecated name of defaultBranchProtectionDefaults"],
    ["duoFeaturesEnabled", "another name of assistantFeaturesEnabled"],
    ["lockDuoFeaturesEnabled", "another name of lockAssistantFeaturesEnabled"],
    ["duoAvailability", "another name of assistantAvailability"],
  ]);
  for (const name of Object.keys(definitions.GroupSettings.schema.shape)) {
    const needs = settingRequirements(name);
    if (needs.length > 0 && !leftOut.has(name)) leftOut.set(name, `it needs ${needs.join(", ")}, which the import does not verify`);
  }
  return leftOut;
}

class Reader {
  constructor(
    private readonly ctx: EngineContext,
    private readonly estate: Estate,
    private readonly exclusive: boolean,
  ) {}

  /** Reads one kind's list; a refusal skips the kind for this owner, saying why. */
  private async listed<T>(where: string, what: string, read: () => Promise<T[]>): Promise<T[] | undefined> {
    try {
      return await read();
    } catch (error) {
      const why = refusal(error);
      if (why === undefined) throw error;
      this.estate.skipped.push({ where, what, why });
      return undefined;
    }
  }

  private declare(
    found: Declaration[],
    kind: keyof typeof definitions,
    owner: ModuleOwner,
    importId: string,
    baseName: string,
    live: Live,
    base: Record<string, ImportValue>,
    options: InputsOptions = {},
    keySuffix = importId,
  ): Declaration | undefined {
    const definition: AnyResourceDefinition = definitions[kind];
    const key = `${kind} ${keySuffix}`;
    const inputs = inputsFromLive(definition, live, base, options);
    const where = owner.fullPath || "the instance";
    if (inputs.refused) {
      this.estate.skipped.push({ where, what: `${kind} ${importId}`, why: inputs.refused });
      return undefined;
    }
    const declaration: Declaration = { kind, key, importId, owner, baseName, args: inputs.args, notes: inputs.notes };
    found.push(declaration);
    return declaration;
  }

  /** A secret a declaration must carry: a config entry, named after the resource when the program is written. */
  private secret(key: string, property: string) {
    this.estate.secrets.push({ key, property });
    return { secretConfig: property };
  }

  async group(group: GroupFound): Promise<Declaration[]> {
    const found: Declaration[] = [];
    const owner: ModuleOwner = { kind: "group", id: group.id, fullPath: group.fullPath };
    const where = group.fullPath;
    const { client } = this.ctx;

    // Badges: the group's own.
    const badges = await this.listed(where, "badges", () => ownBadges(client, ownerOf({ group: group.id })));
    const badgeDeclarations = (badges ?? []).flatMap((badge) => this.declare(found, "Badge", owner, badgeIdOf(ownerOf({ group: group.id }), badge.id), badge.name || "badge", badge, { group: group.id }) ?? []);

    // Integrations: the active ones of the slugs the package manages.
    const integrations = await this.listed(where, "integrations", () => integrationSummaryCalls.list(client, groupIntegrationsPath(group.id)));
    const integrationDeclarations: Declaration[] = [];
    const inherited: string[] = [];
    for (const summary of (integrations ?? []).filter((one) => one.active).sort((a, b) => a.slug.localeCompare(b.slug, "en"))) {
      // An integration whose settings come from an ancestor's is that ancestor's to declare: the run over it imports it.
      if (summary.inherited === true) {
        inherited.push(summary.slug);
        this.estate.skipped.push({ where, what: `integration ${summary.slug}`, why: "it inherits an ancestor group's settings; that group's integration is the one imported" });
        continue;
      }
      const declared = await this.integration(found, owner, summary.slug);
      if (declared) integrationDeclarations.push(declared);
    }

    // SAML group links (Premium; the Owner role).
    const links = await this.listed(where, "SAML group links", () => samlGroupLinkCalls.list(client, samlGroupLinksPath(group.id)));
    const linkDeclarations = (links ?? [])
      .sort((a, b) => a.name.localeCompare(b.name, "en") || (a.provider ?? "").localeCompare(b.provider ?? "", "en"))
      .flatMap((link) => this.declare(found, "SamlGroupLink", owner, samlGroupLinkId(group.id, link.name, link.provider ?? undefined), link.name, link, { group: group.id }) ?? []);

    // Container virtual registries, their upstreams and the cleanup policy, and members' SAML identities: top-level groups only.
    if (group.topLevel) {
      await this.registries(found, owner, where);
      await this.samlIdentities(found, owner);
    }

    await this.groupSettings(found, owner);
    await this.epicLinks(found, owner);

    if (this.exclusive) {
      if (badges) await this.exclusiveSet(found, "ExclusiveBadges", owner, { group: group.id }, badgeDeclarations, "badgeId");
      // The inherited ones stay: the set ignores them, so it never disables what an ancestor manages.
      if (integrations) await this.exclusiveSet(found, "ExclusiveGroupIntegrations", owner, { group: group.id, ...(inherited.length > 0 ? { ignore: inherited } : {}) }, integrationDeclarations, "id");
      if (links) await this.exclusiveSet(found, "ExclusiveSamlGroupLinks", owner, { group: group.id }, linkDeclarations, "id");
    }
    return found;
  }

  /** One object a Terraform state names. */
  async target(found: Declaration[], target: Target, resolveOwner: (kind: "group" | "project", reference: string) => Promise<ModuleOwner>): Promise<void> {
    switch (target.kind) {
      case "group-badge":
      case "project-badge": {
        const kind = target.kind === "group-badge" ? "group" : "project";
        const owner = await resolveOwner(kind, target.kind === "group-badge" ? target.group : target.project);
        const base = { [kind]: owner.id };
        const importId = badgeIdOf(ownerOf(base), target.badge);
        const live = await definitions.Badge.read(this.ctx, importId, base as never);
        if (live) this.declare(found, "Badge", owner, importId, live.name || "badge", live, base);
        else this.estate.skipped.push({ where: owner.fullPath, what: `badge ${target.badge}`, why: "not the owner's own badge" });
        return;
      }
      case "schedule":
        await this.schedule(found, await resolveOwner("project", target.project), target.schedule);
        return;
      case "saml-link": {
        const owner = await resolveOwner("group", target.group);
        const importId = samlGroupLinkId(owner.id, target.name, undefined);
        const live = await definitions.SamlGroupLink.read(this.ctx, importId, { group: owner.id } as never);
        if (live) this.declare(found, "SamlGroupLink", owner, importId, target.name, live, { group: owner.id });
        return;
      }
      case "integration":
        await this.integration(found, await resolveOwner("group", target.group), target.slug);
        return;
      case "group-settings":
        await this.groupSettings(found, await resolveOwner("group", target.group));
        return;
      case "instance":
        found.push(...(await this.instance()));
        return;
    }
  }

  /** A group's integration of `slug`, when active: its required write-only secrets as config entries. */
  async integration(found: Declaration[], owner: ModuleOwner, slug: string): Promise<Declaration | undefined> {
    const where = owner.fullPath;
    if (!(INTEGRATION_SLUGS as string[]).includes(slug)) {
      this.estate.skipped.push({ where, what: `integration ${slug}`, why: "the package does not manage this integration on groups" });
      return undefined;
    }
    const importId = groupIntegrationPath(owner.id, slug).slice(1);
    const live = await definitions.GroupIntegration.read(this.ctx, importId, { group: owner.id, slug } as never);
    if (!live) return undefined;
    const key = `GroupIntegration ${importId}`;
    const secrets = new Map<string, ImportValue>();
    for (const name of requiredSettings(slug)) {
      if ((definitions.GroupIntegration.fields as Record<string, { writeOnly?: boolean } | undefined>)[name]?.writeOnly) secrets.set(name, this.secret(key, name));
    }
    return this.declare(found, "GroupIntegration", owner, importId, slug, live, { group: owner.id, slug }, { secrets });
  }

  /** A group's settings, less what the import leaves to the program's author. */
  async groupSettings(found: Declaration[], owner: ModuleOwner): Promise<void> {
    const settings = await this.listed(owner.fullPath, "group settings", async () => [await definitions.GroupSettings.locate(this.ctx, { group: owner.id } as never)]);
    for (const located of settings ?? []) this.declare(found, "GroupSettings", owner, located.id, "", located.live, { group: owner.id }, { leaveOut: groupSettingsLeftOut() });
  }

  /**
   * The links of the group's own epics to their children (Premium): one per
   * child, declared under the parent's group, whichever group the child is in.
   * The position anchors are left out: undeclared, they are not compared.
   */
  private async epicLinks(found: Declaration[], owner: ModuleOwner): Promise<void> {
    const where = owner.fullPath;
    const epics = await this.listed(where, "epics", () => epicCalls.list(this.ctx.client, groupEpicsPath(owner.id), { include_descendant_groups: false }));
    for (const parent of (epics ?? []).sort((a, b) => a.iid - b.iid)) {
      const children = await this.listed(where, `children of epic &${parent.iid}`, () => epicCalls.list(this.ctx.client, epicChildrenPath(owner.id, parent.iid)));
      for (const child of (children ?? []).sort((a, b) => a.id - b.id)) {
        const base = { group: owner.id, epicIid: parent.iid, childEpicId: child.id };
        this.declare(found, "EpicLink", owner, epicLinkId(owner.id, parent.iid, child.id), child.title, child, base);
      }
    }
  }

  /** A project's pipeline schedule; its variables stay unmanaged, said in a comment. */
  async schedule(found: Declaration[], owner: ModuleOwner, scheduleId: number): Promise<Declaration | undefined> {
    const importId = pipelineScheduleId(owner.id, scheduleId);
    const live = await definitions.PipelineSchedule.read(this.ctx, importId, { project: owner.id } as never);
    if (!live) return undefined;
    const declared = this.declare(found, "PipelineSchedule", owner, importId, String(live.description ?? ""), live, { project: owner.id });
    const variables = (live as { variables?: unknown[] }).variables ?? [];
    if (declared && variables.length > 0) {
      declared.notes.push(`variables are left unmanaged (${variables.length} on the server): their values may be secrets, which the import never writes; declare them to manage them.`);
    }
    return declared;
  }

  /** The members' SAML identities of a top-level group (hosted offering, Premium): each member's extern UID. */
  private async samlIdentities(found: Declaration[], owner: ModuleOwner): Promise<void> {
    const identities = await this.listed(owner.fullPath, "SAML identities", () => samlIdentityCalls.list(this.ctx.client, samlIdentitiesPath(owner.id)));
    for (const identity of (identities ?? []).sort((a, b) => a.user_id - b.user_id)) {
      const base = { group: owner.id, user: identity.user_id };
      const importId = await definitions.SamlIdentity.importByCreating!(this.ctx, base as never);
      this.declare(found, "SamlIdentity", owner, importId, `user-${identity.user_id}`, identity, base);
    }
  }

  private async registries(found: Declaration[], owner: ModuleOwner, where: string): Promise<void> {
    const { client } = this.ctx;
    const registries = await this.listed(where, "container virtual registries", () => virtualRegistryCalls.list(client, groupRegistriesPath(owner.id)));
    const registryKey = (id: number) => `VirtualRegistry ${id}`;
    const upstreamsOf = new Map<number, number[]>();
    const primaryOf = new Map<number, number>();
    for (const registry of (registries ?? []).sort((a, b) => a.id - b.id)) {
      this.declare(found, "VirtualRegistry", owner, String(registry.id), registry.name, registry, { group: owner.id });
      const upstreams = await this.listed(where, `upstreams of registry ${registry.id}`, () => upstreamCalls.list(client, registryUpstreamsPath(registry.id)));
      if (!upstreams) continue;
      upstreamsOf.set(registry.id, upstreams.map((upstream) => upstream.id).sort((a, b) => a - b));
      // An upstream serving several registries is declared once, under the lowest registry id.
      for (const upstream of upstreams) if (!primaryOf.has(upstream.id)) primaryOf.set(upstream.id, registry.id);
    }
    const upstreamDeclarations = new Map<number, Declaration>();
    for (const [upstreamId, registry] of [...primaryOf].sort((a, b) => a[0] - b[0])) {
      const importId = String(upstreamId);
      const live = await definitions.Upstream.read(this.ctx, importId, { registry } as never);
      if (!live) continue;
      const key = `Upstream ${importId}`;
      const secrets = new Map<string, ImportValue>();
      // The password is write-only: the server shows the username only. Both or neither.
      if (typeof live.username === "string" && live.username !== "") secrets.set("password", this.secret(key, "password"));
      const declared = this.declare(found, "Upstream", owner, importId, String(live.name ?? "upstream"), live, { registry: referenceTo(registryKey(registry), "registryId", registry) }, { secrets });
      if (!declared) continue;
      const others = declared.args.otherRegistries;
      if (Array.isArray(others)) {
        declared.args.otherRegistries = others.map((other: { registry: number; position?: number }) => ({ ...other, registry: referenceTo(registryKey(other.registry), "registryId", other.registry) }));
      }
      upstreamDeclarations.set(upstreamId, declared);
    }
    if (this.exclusive) {
      for (const [registry, ids] of upstreamsOf) {
        const kept = ids.flatMap((id) => upstreamDeclarations.get(id) ?? []);
        await this.exclusiveSet(found, "ExclusiveUpstreams", owner, { registry: referenceTo(registryKey(registry), "registryId", registry) }, kept, "upstreamId", `registry ${registry}`);
      }
    }

    const policy = await this.listed(where, "cleanup policy", async () => {
      const live = await definitions.CleanupPolicy.read(this.ctx, String(owner.id), { group: owner.id } as never);
      return live ? [live] : [];
    });
    for (const live of policy ?? []) this.declare(found, "CleanupPolicy", owner, String(owner.id), "", live, { group: owner.id });
  }

  async project(project: ProjectFound): Promise<Declaration[]> {
    const found: Declaration[] = [];
    const owner: ModuleOwner = { kind: "project", id: project.id, fullPath: project.fullPath };
    const where = project.fullPath;
    const { client } = this.ctx;
    const projectOwner = ownerOf({ project: project.id });

    const badges = await this.listed(where, "badges", () => ownBadges(client, projectOwner));
    const badgeDeclarations = (badges ?? []).flatMap((badge) => this.declare(found, "Badge", owner, badgeIdOf(projectOwner, badge.id), badge.name || "badge", badge, { project: project.id }) ?? []);

    const schedules = await this.listed(where, "pipeline schedules", () => scheduleSummaryCalls.list(client, pipelineSchedulesPath(project.id)));
    const scheduleDeclarations: Declaration[] = [];
    for (const summary of (schedules ?? []).sort((a, b) => a.id - b.id)) {
      const declared = await this.schedule(found, owner, summary.id);
      if (declared) scheduleDeclarations.push(declared);
    }

    const visibility = await this.listed(where, "container registry visibility", async () => [await definitions.ContainerRegistryVisibility.locate(this.ctx, { project: project.id } as never)]);
    for (const located of visibility ?? []) {
      if (located.live.container_registry_access_level === undefined) {
        this.estate.skipped.push({ where, what: "container registry visibility", why: "the server shows no container registry access level" });
        continue;
      }
      this.declare(found, "ContainerRegistryVisibility", owner, located.id, "", located.live, { project: project.id });
    }

    const keys = await this.listed(where, "error tracking client keys", () => clientKeyCalls.list(client, clientKeysPath(project.id)));
    for (const key of (keys ?? []).sort((a, b) => a.id - b.id)) {
      this.declare(found, "ErrorTrackingClientKey", owner, clientKeyId(project.id, key.id), `key-${key.id}`, key, { project: project.id });
    }

    if (this.exclusive) {
      if (badges) await this.exclusiveSet(found, "ExclusiveBadges", owner, { project: project.id }, badgeDeclarations, "badgeId");
      if (schedules) await this.exclusiveSet(found, "ExclusivePipelineSchedules", owner, { project: project.id }, scheduleDeclarations, "scheduleId");
    }
    return found;
  }

  async instance(): Promise<Declaration[]> {
    const found: Declaration[] = [];
    const owner: ModuleOwner = { kind: "instance", id: 0, fullPath: "" };
    const settings = await this.listed("the instance", "application settings", async () => [await definitions.ApplicationSettings.locate(this.ctx, {} as never)]);
    for (const located of settings ?? []) this.declare(found, "ApplicationSettings", owner, located.id, "", located.live, {});
    return found;
  }

  /** An only-these set of one owner's collection, keeping each declared object by its output. */
  private async exclusiveSet(
    found: Declaration[],
    kind: "ExclusiveBadges" | "ExclusiveGroupIntegrations" | "ExclusiveSamlGroupLinks" | "ExclusivePipelineSchedules" | "ExclusiveUpstreams",
    owner: ModuleOwner,
    base: Record<string, ImportValue>,
    kept: Declaration[],
    output: string,
    suffix = "",
  ): Promise<void> {
    const keep = kept.map((declaration) => referenceTo(declaration.key, output, declaration.importId));
    const definition: AnyResourceDefinition = definitions[kind];
    // The set's id is its collection's path, as its own create gives it (no request).
    const plain = Object.fromEntries(Object.entries(base).map(([name, value]) => [name, plainValue(value)]));
    const importId = definition.kind === "object" && definition.importByCreating ? await definition.importByCreating(this.ctx, { ...plain, keep: [] }) : undefined;
    if (importId === undefined) return;
    this.declare(found, kind, owner, importId, suffix, {}, { ...base, keep });
  }
}

/** The value a reference stands for: what the resource's own code reads from it. */
const plainValue = (value: ImportValue): unknown => (isReference(value) ? value.value : value);

