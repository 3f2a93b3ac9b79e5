/**
 * Upstream: a container registry that a virtual registry pulls through.
 * It is created in one registry
 * (`registry`, which cannot change) and may also serve other registries of
 * the same group (`otherRegistries`, the registry-upstream associations),
 * each at a position.
 *
 * What the server does that shapes this module:
 * - The password is never returned: it is write-only and secret here, the
 *   last applied value is compared with the program, and a change is sent.
 * - A new URL clears the stored credentials unless the same request changes
 *   both username and password: when the URL changes and the credentials
 *   stay, they are sent again in a second PATCH, so they stay in place.
 * - PATCH answers with its status only: the outputs are built from what was
 *   sent and what was recorded (one request per change, no read-back).
 * - Positions are capped at the registry's last position and shift when
 *   others move; the recorded position is the one asked for, and a refresh
 *   shows where the upstream really is.
 * - Deleting the registry deletes the upstreams it does not share, so the
 *   delete here treats "already gone" (404) as done.
 */
import { createHash } from "node:crypto";
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { field } from "../api/fields";
import { ApiError } from "../client";
import { aliasOf, claimUnique, countDeclaration, declarationKey } from "../engine/declarations";
import { defineObjectResource, type EngineContext, type Live, outputValues } from "../engine/definition";
import { PartialCreateError } from "../engine/errors";
import { ofKind, PlatformResource, type ResourceArgs, type ResourceOutputs } from "../engine/resource";
import { requestBody } from "../engine/values";
import { isHttpUrl } from "../validation";
import { adoptExisting, ownerInput } from "./common";
import {
  registryUpstreamsPath,
  UPSTREAM_LINKS_PATH as LINKS_PATH,
  upstreamRequests,
  upstreamLinkRequests,
  upstreamLinkPath as linkPath,
  upstreamPath,
  type Upstream as UpstreamApi,
  type UpstreamLink as LinkApi,
  upstreamIdForm,
} from "../api/virtual-registries";
import { CONTAINER_REGISTRY_NEEDS, registryOwner, REGISTRY_GROUP } from "./virtual-registry";
import { type Collection, type EstateReading, type Findings, type Found, referenceTo } from "../engine/estate";
import type { Room } from "../api/needs";
import { parsedId } from "../api/id-form";

export const MAX_UPSTREAMS_PER_REGISTRY = 5;

/** What the hooks hand the engine: the upstream, all its associations, and the registry it was declared in. */
export type UpstreamLive = UpstreamApi & { registry_upstreams: LinkApi[]; primary_registry_id: number };

/** Where an upstream may point: an http(s) URL that is not on this host or a local network (the server blocks those). */
export const upstreamUrl = z
  .string()
  .max(255)
  .refine(isHttpUrl, { message: "must be an http(s) URL such as https://registry-1.docker.io" })
  .refine(
    (value) => {
      try {
        const host = new URL(value).hostname.replace(/^\[|\]$/g, "").toLowerCase();
        return !(
          host === "localhost" ||
          host.endsWith(".localhost") ||
          host === "0.0.0.0" ||
          host === "::1" ||
          /^(127\.|10\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host) ||
          /^f[cd][0-9a-f]{2}:/.test(host)
        );
      } catch {
        return true; // the first rule reports it
      }
    },
    { message: "must not point at localhost or a local network (the server blocks such URLs)" },
  );

const registryId = z.number().int().positive();
const position = z.number().int().min(1).max(20);

const schema = z.object({
  /** The registry the upstream is created in (its numeric id, e.g. `registry.registryId`). */
  registry: ownerInput(registryId),
  url: upstreamUrl,
  name: z.string().min(1).max(255),
  description: z.string().min(1).max(1024).optional(),
  /** How long cached images stay valid, in hours; 0 means always check the upstream. */
  cacheValidityHours: z.number().int().min(0).default(24),
  /** Set with `password`, or neither (anonymous access). */
  username: z.string().min(1).max(510).optional(),
  password: field(z.string().min(1).max(510).optional(), { secret: true, writeOnly: true }),
  /** Its place in `registry`, 1 first (the server caps it at the registry's number of upstreams). */
  position: field(position.optional(), {
    fromApi: (live) => {
      const { registry_upstreams: links = [], primary_registry_id: primary } = live as Partial<UpstreamLive>;
      return links.find((l) => l.registry_id === primary)?.position;
    },
    toApi: () => undefined, // an association's field, sent to the association endpoint
  }),
  /** Other registries of the same group this upstream also serves, each at an optional position. */
  otherRegistries: field(z.array(z.object({ registry: registryId, position: position.optional() }).strict()).max(20).optional(), {
    fromApi: otherLinks,
    toApi: () => undefined,
    sameValue: sameOtherRegistries,
  }),
  adoptExisting,
});

type UpstreamInputs = z.output<typeof schema>;
type OtherRegistry = { registry: number; position?: number | undefined };

export interface LinkOutput {
  registryId: number;
  registryUpstreamId: number;
  position: number;
}

/** What an update finds recorded in state besides the inputs. */
type Recorded = UpstreamInputs & { upstreamId?: number; groupId?: number; links?: LinkOutput[] };

const UPSTREAM_FIELDS = ["url", "name", "description", "cacheValidityHours", "username", "password"] as const;

function parseId(id: string): string {
  return parsedId("Upstream", upstreamIdForm, id);
}

const toLinks = (links: LinkApi[]): LinkOutput[] =>
  links.map((l) => ({ registryId: l.registry_id, registryUpstreamId: l.id, position: l.position })).sort((a, b) => a.registryId - b.registryId);
const fromLinks = (links: LinkOutput[]): LinkApi[] => links.map((l) => ({ id: l.registryUpstreamId, registry_id: l.registryId, position: l.position }));

function otherLinks(live: Record<string, unknown>): OtherRegistry[] {
  const { registry_upstreams: links = [], primary_registry_id: primary } = live as Partial<UpstreamLive>;
  return links
    .filter((l) => l.registry_id !== primary)
    .map((l) => ({ registry: l.registry_id, position: l.position }))
    .sort((a, b) => a.registry - b.registry);
}

/** The same associations, positions compared only where the program gives one. */
function sameOtherRegistries(declared: unknown, live: unknown): boolean {
  const wanted = [...(declared as OtherRegistry[])].sort((a, b) => a.registry - b.registry);
  const actual = live as OtherRegistry[];
  return (
    wanted.length === actual.length &&
    wanted.every((w, i) => w.registry === actual[i]!.registry && (w.position === undefined || w.position === actual[i]!.position))
  );
}

async function getUpstream(ctx: EngineContext, id: string | number, primary: number | undefined): Promise<UpstreamLive> {
  const { registry_upstream: _one, registry_upstreams: links = [], ...live } = await upstreamRequests.get(ctx.client, upstreamPath(id));
  return { ...live, registry_upstreams: links, primary_registry_id: primary ?? links[0]?.registry_id ?? 0 };
}

/** Associates the upstream with a registry and puts it at `wanted` (if given): one or two requests. */
async function associate(ctx: EngineContext, upstreamId: number, registry: number, wanted: number | undefined): Promise<LinkApi> {
  const created = await upstreamLinkRequests.post(ctx.client, LINKS_PATH, { registry_id: registry, upstream_id: upstreamId }, async () => {
    const live = await getUpstream(ctx, upstreamId, undefined);
    return live.registry_upstreams.find((l) => l.registry_id === registry);
  });
  return wanted !== undefined && wanted !== created.position ? moveLink(ctx, created, wanted) : created;
}

async function moveLink(ctx: EngineContext, link: LinkApi, wanted: number): Promise<LinkApi> {
  await ctx.client.patch(linkPath(link.id), { position: wanted });
  return { ...link, position: wanted };
}

/** Brings the other registries' associations to the declared ones: adds, removes and moves only what differs. */
async function reconcileOtherRegistries(ctx: EngineContext, upstreamId: number, primary: number, wanted: OtherRegistry[], links: LinkApi[]): Promise<LinkApi[]> {
  const result = links.filter((l) => l.registry_id === primary);
  for (const link of links) {
    if (link.registry_id === primary || wanted.some((w) => w.registry === link.registry_id)) continue;
    await ctx.client.delete(linkPath(link.id)).catch((error: unknown) => {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    });
  }
  for (const want of wanted) {
    const existing = links.find((l) => l.registry_id === want.registry);
    if (!existing) result.push(await associate(ctx, upstreamId, want.registry, want.position));
    else if (want.position !== undefined && want.position !== existing.position) result.push(await moveLink(ctx, existing, want.position));
    else result.push(existing);
  }
  return result;
}

/** A registry in a declaration platform-import writes: the imported registry's output, where the program has it. */
const registryReference = (registry: number) => referenceTo("VirtualRegistry", String(registry), "registryId", registry);

/**
 * The upstreams of the registries platform-import found in a group, each
 * declared once, under the lowest registry id of those it serves; the others
 * are its `otherRegistries`. Its password is write-only (the server shows the
 * username only): both or neither, so a username makes it a config entry.
 */
async function importedUpstreams(reading: EstateReading): Promise<Findings> {
  const primaryOf = new Map<number, number>();
  const collections: Collection[] = [];
  for (const registry of (reading.foundOf("VirtualRegistry") ?? []).map((found) => Number(found.importId)).sort((a, b) => a - b)) {
    const upstreams = await reading.tolerant(`upstreams of registry ${registry}`, () => upstreamRequests.list(reading.ctx.client, registryUpstreamsPath(registry)));
    if (!upstreams) continue;
    const ids = upstreams.map((upstream) => upstream.id).sort((a, b) => a - b);
    collections.push({ address: { registry: registryReference(registry) }, members: ids.map(String), name: `registry ${registry}` });
    for (const id of ids) if (!primaryOf.has(id)) primaryOf.set(id, registry);
  }
  const found: Found[] = [];
  for (const [upstreamId, registry] of [...primaryOf].sort((a, b) => a[0] - b[0])) {
    const importId = String(upstreamId);
    const live = await reading.read(importId, { registry });
    if (!live) continue;
    found.push({
      importId,
      name: String(live.name ?? "upstream"),
      live,
      address: { registry: registryReference(registry) },
      secrets: typeof live.username === "string" && live.username !== "" ? ["password"] : [],
      referring: (args) =>
        Array.isArray(args.otherRegistries)
          ? { ...args, otherRegistries: args.otherRegistries.map((other: { registry: number; position?: number }) => ({ ...other, registry: registryReference(other.registry) })) }
          : args,
    });
  }
  return { found, collections };
}

export const upstreamDefinition = defineObjectResource({
  name: "Upstream",
  words: { noun: "upstream" },
  imported: { word: "upstream", listed: "upstreams", on: ["top-level group"], through: ["VirtualRegistry"], find: importedUpstreams },
  idForm: upstreamIdForm,
  schema,
  outputs: {
    /** The upstream's numeric id. */
    upstreamId: { value: (live: UpstreamLive) => live.id, fromId: Number },
    groupId: (live: UpstreamLive) => live.group_id,
    /** The id of its association with `registry`. */
    registryUpstreamId: (live: UpstreamLive) => live.registry_upstreams.find((l) => l.registry_id === live.primary_registry_id)?.id,
    /** Every registry it serves, with the association's id and position. */
    links: (live: UpstreamLive) => toLinks(live.registry_upstreams),
  },
  // The needs are those of the registry's group, as for its registries. Names need not be unique; the server
  // refuses a second upstream with the same URL and credentials in a group, but never shows a password, so only two
  // anonymous ones are known to collide: looked for in the registry (the one an import would take over); a collision
  // with another registry's upstream, or one with credentials, is left to the server.
  // A registry that already holds five upstreams refuses another: the one it is created in,
  // and each of `otherRegistries`, read once per run (the same read as the anonymous upstreams' uniqueness).
  needs: (args, operation) => ({
    on: registryOwner("registry", args.registry),
    ...CONTAINER_REGISTRY_NEEDS,
    ...(operation === "read" ? { role: "Guest" as const } : {}),
    unique:
      args.username === undefined
        ? {
            ...upstreamsOf(args.registry),
            find: (upstreams) => {
              const same = (upstreams as UpstreamApi[]).find((upstream) => upstream.url === args.url && upstream.username === null);
              return same && { what: `an anonymous upstream of ${args.url} in container virtual registry ${args.registry}`, id: String(same.id) };
            },
          }
        : undefined,
    room: [
      roomIn("registry", args.registry),
      ...(args.otherRegistries ?? []).map((other, index) => roomIn(`otherRegistries[${index}]`, other.registry)),
    ],
  }),
  validate(args) {
    const failures: { property: string; reason: string }[] = [];
    if ((args.username === undefined) !== (args.password === undefined)) {
      const property = args.username === undefined ? "username" : "password";
      failures.push({ property, reason: `${property}: set username and password together, or neither for anonymous access` });
    }
    const others = (args.otherRegistries ?? []).map((o) => o.registry);
    if (others.includes(args.registry)) {
      failures.push({ property: "otherRegistries", reason: "otherRegistries: must not list `registry`, the registry the upstream is created in" });
    }
    if (new Set(others).size !== others.length) {
      failures.push({ property: "otherRegistries", reason: "otherRegistries: lists a registry twice" });
    }
    return failures;
  },

  async create(ctx, args) {
    const body = requestBody(this.fields, args);
    // A lost response is recovered by URL, name and username, so a retry never makes a second upstream.
    const posted = await upstreamRequests.post(ctx.client, registryUpstreamsPath(args.registry), body, () =>
      findInRegistry(ctx, args, (u) => u.url === args.url && u.name === args.name && u.username === (args.username ?? null)),
    );
    const { registry_upstream: primaryLink, registry_upstreams: _none, ...upstream } = posted;
    if (!primaryLink) throw new Error(`the server's answer to creating upstream ${upstream.id} has no registry_upstream; it cannot be placed in registry ${args.registry}.`);
    let links: LinkApi[] = [{ ...primaryLink, registry_id: args.registry }];
    try {
      if (args.position !== undefined && args.position !== primaryLink.position) links = [await moveLink(ctx, links[0]!, args.position)];
      if (args.otherRegistries?.length) links = await reconcileOtherRegistries(ctx, upstream.id, args.registry, args.otherRegistries, links);
    } catch (error) {
      // The upstream exists: record it with what really got applied, so the next `up` finishes the job.
      const live: UpstreamLive = { ...upstream, registry_upstreams: links, primary_registry_id: args.registry };
      throw new PartialCreateError(
        `the upstream was created but its registry positions could not all be set: ${(error as Error).message}`,
        String(upstream.id),
        {
          ...args,
          position: links.find((l) => l.registry_id === args.registry)?.position,
          otherRegistries: otherLinks(live),
          ...outputValues(upstreamDefinition.outputs, live, args),
        },
      );
    }
    return { id: String(upstream.id), live: { ...upstream, registry_upstreams: links, primary_registry_id: args.registry } };
  },

  async read(ctx, id, args) {
    return getUpstream(ctx, parseId(id), args.registry);
  },

  // An upstream that serves one registry was created in it; of several, the id does not say which.
  addressOfImport(_id: string, live: Live | undefined) {
    const links = (live as Partial<UpstreamLive> | undefined)?.registry_upstreams ?? [];
    return links.length === 1 ? { registry: links[0]!.registry_id } : {};
  },

  async update(ctx, id, args, changed, olds) {
    const recorded = olds as Recorded;
    // Adoption records nothing yet: read what there is first.
    const fetched = recorded.upstreamId === undefined || recorded.links === undefined ? await getUpstream(ctx, parseId(id), args.registry) : undefined;
    let links = fetched ? fetched.registry_upstreams : fromLinks(recorded.links ?? []);

    const fieldChanges = new Set(UPSTREAM_FIELDS.filter((name) => changed.has(name)));
    const urlChanged = fieldChanges.has("url");
    const hasCredentials = args.username !== undefined && args.password !== undefined;
    if (fieldChanges.size) {
      const body = requestBody(this.fields, args, fieldChanges);
      // The server takes the two credentials together.
      if (hasCredentials && (fieldChanges.has("username") || fieldChanges.has("password"))) Object.assign(body, { username: args.username, password: args.password });
      await ctx.client.patch(upstreamPath(parseId(id)), body);
      // A new URL dropped the stored credentials unless both of them changed in that request: put the declared ones back.
      if (urlChanged && hasCredentials && !(fieldChanges.has("username") && fieldChanges.has("password"))) {
        await ctx.client.patch(upstreamPath(id), { username: args.username, password: args.password });
      }
    }

    const primary = links.find((l) => l.registry_id === args.registry);
    if (changed.has("position") && args.position !== undefined && primary && primary.position !== args.position) {
      links = links.map((l) => (l === primary ? { ...l, position: args.position! } : l));
      await moveLink(ctx, primary, args.position);
    }
    if (changed.has("otherRegistries") && args.otherRegistries !== undefined) {
      links = await reconcileOtherRegistries(ctx, Number(id), args.registry, args.otherRegistries, links);
    }

    const base = fetched ?? { id: recorded.upstreamId!, group_id: recorded.groupId!, description: null, username: null };
    return {
      id: base.id,
      group_id: base.group_id,
      url: args.url,
      name: args.name,
      description: args.description ?? base.description,
      cache_validity_hours: args.cacheValidityHours,
      username: args.username ?? (urlChanged ? null : base.username),
      registry_upstreams: links,
      primary_registry_id: args.registry,
    };
  },

  async delete(ctx, id) {
    // 404 (the registry's delete already took it) counts as done: see the engine's delete.
    await ctx.client.delete(upstreamPath(parseId(id)));
  },

  async adopt(ctx, args) {
    // The registry's upstream with the declared URL (and username, when declared), else with the declared name.
    const byUrl = await findInRegistry(ctx, args, (u) => u.url === args.url && (args.username === undefined || u.username === args.username));
    const found = byUrl ?? (await findInRegistry(ctx, args, (u) => u.name === args.name));
    if (!found) return undefined;
    // The registry's list shows one association; get-one shows them all.
    return { id: String(found.id), live: await getUpstream(ctx, found.id, args.registry) };
  },
});

/** A registry's upstreams as the checks at preview read them, once per run (the list is not paginated: at most 5). */
function upstreamsOf(registry: number): { list: string; read: (ctx: EngineContext) => Promise<Live[]> } {
  return { list: `upstreams of container virtual registry ${registry}`, read: (ctx) => upstreamRequests.getAll(ctx.client, registryUpstreamsPath(registry)) };
}

/** A place in a registry's upstreams, for the upstream that `property` puts there. */
function roomIn(property: string, registry: number): Room {
  return { property, ...upstreamsOf(registry), max: MAX_UPSTREAMS_PER_REGISTRY, holder: `container virtual registry ${registry}`, items: "upstreams" };
}

/** The first of the registry's upstreams that matches (the list is not paginated: at most 5). */
function findInRegistry(ctx: EngineContext, args: UpstreamInputs, matches: (upstream: UpstreamApi) => boolean): Promise<UpstreamApi | undefined> {
  return upstreamRequests.getAll(ctx.client, registryUpstreamsPath(args.registry)).then((all) => all.find(matches));
}

export type UpstreamArgs = ResourceArgs<typeof schema>;

const tooMany = (name: string, property: string, where: string) =>
  `Upstream ${name}: ${property}: the program declares more than ${MAX_UPSTREAMS_PER_REGISTRY} upstreams in ${where}; ` +
  `a registry holds at most ${MAX_UPSTREAMS_PER_REGISTRY}, and an upstream linked with otherRegistries counts in each registry it serves.`;

/**
 * The five-upstreams-per-registry limit (real servers refuse a sixth
 * association with 400) counts every link a program
 * declares: the registry an upstream is created in and each of its
 * `otherRegistries`. While the program runs the declared values are counted
 * as they are (an Output by identity: `registry.registryId`); once the ids
 * are known (a preview of an existing stack, an `up`) every link is counted
 * again by id, which also catches lists built with `apply`.
 */
function countUpstreamLinks(name: string, args: UpstreamArgs): void {
  countDeclaration("upstreams-per-registry", declarationKey(args.registry), MAX_UPSTREAMS_PER_REGISTRY, () => tooMany(name, "registry", "one virtual registry"));
  const others = args.otherRegistries;
  if (Array.isArray(others)) {
    for (const [index, other] of (others as pulumi.Input<OtherRegistry>[]).entries()) {
      const key = other && typeof other === "object" && "registry" in other ? declarationKey(other.registry) : undefined;
      countDeclaration("upstreams-per-registry", key, MAX_UPSTREAMS_PER_REGISTRY, () => tooMany(name, `otherRegistries[${index}]`, "one virtual registry"));
    }
  }
  pulumi.all([args.registry, args.otherRegistries]).apply(([registry, resolved]) => {
    const links: [string, unknown][] = [["registry", registry], ...(resolved ?? []).map((o, index): [string, unknown] => [`otherRegistries[${index}]`, o?.registry])];
    for (const [property, id] of links) {
      if (typeof id !== "number") continue;
      countDeclaration("upstreams-per-registry-by-id", id, MAX_UPSTREAMS_PER_REGISTRY, () => tooMany(name, property, `virtual registry ${id}`));
    }
  });
}

/**
 * An upstream registry of a container virtual registry.
 *
 * ```ts
 * new Upstream("docker-hub", {
 *   registry: registry.registryId, name: "Docker Hub", url: "https://registry-1.docker.io",
 *   username: "puller", password: config.requireSecret("dockerHubToken"), position: 1,
 * });
 * ```
 */
export interface Upstream extends ResourceOutputs<typeof upstreamDefinition> {}
export class Upstream extends PlatformResource {
  static {
    ofKind(this, upstreamDefinition);
  }
  constructor(name: string, args: UpstreamArgs, opts?: pulumi.CustomResourceOptions) {
    const registryKey = declarationKey(args.registry);
    countUpstreamLinks(name, args);
    super(name, args, opts);
    // No two upstreams with the same URL and credentials in one top-level group. The values may
    // come from config secrets, so the rule runs once they are known; only a hash is kept.
    const groupKey = aliasOf(REGISTRY_GROUP, args.registry) ?? registryKey;
    if (groupKey !== undefined) {
      pulumi.all([args.url, args.username, args.password]).apply(([url, username, password]) => {
        const fingerprint = createHash("sha256").update(JSON.stringify([url, username ?? null, password ?? null])).digest("hex");
        claimUnique("upstream-credentials-per-group", groupKey, fingerprint, () => {
          return `Upstream ${name}: url: another upstream of the program in the same top-level group has the URL ${url} with the same credentials; the server allows each URL and credentials once per group.`;
        });
      });
    }
  }
}
