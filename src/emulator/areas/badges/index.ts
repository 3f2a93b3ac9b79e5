/**
 * Project and group badges. Both sources share one implementation: the real
 * server defines the same routes for a group and a project, so they answer alike.
 *
 * Behaviour taken from the real server's source:
 * - Reads need read access to the source; create, update, delete and render
 *   need `admin_project` (Maintainer+) or `admin_group` (Owner).
 * - The project list holds the project's badges and the badges of its group
 *   and all ancestor groups (kind `group`), in creation order (Badge's
 *   default scope orders by created_at); a group list holds only its own.
 * - Get one, update and delete look only at the source's own badges: through
 *   a project path a group badge is 404 `{"message":"404 Not found"}`.
 * - URLs are validated as http(s) URLs, placeholders allowed; an invalid
 *   one is 400 `{"message":{"link_url":["must be a valid URL"]}}`.
 * - Rendering uses the project itself, or for a group the group's project
 *   chosen by `projectForGroupBadges`; a group badge seen through a
 *   project's list is rendered with that project. No project: raw URLs.
 *
 * The `badges` seed section (below) gives projects and groups their badges
 * from the start.
 */
import { canReadProject, hasGroupAccess, hasProjectAccess } from "../../access";
import { forbidden, recordNotFound, validationError } from "../../errors";
import { findGroup, findProject } from "../../lookup";
import { created, noContent, ok, paginate, requireUser, route, type RequestContext, type RouteDefinition } from "../../router";
import { z } from "zod";
import { areaSeed, keyedSection, type EmulatorArea } from "../../area";
import { SeedError } from "../../seed-error";
import { AccessLevel, defineStore, type EmulatorState, type Group, type Project, type User } from "../../state";

export type BadgeKind = "project" | "group";

export interface BadgeRecord {
  id: number;
  kind: BadgeKind;
  /** Id of the project or group the badge belongs to. */
  sourceId: number;
  name: string | null;
  linkUrl: string;
  imageUrl: string;
  createdAt: string;
}

export const badgeStore = defineStore("badges", (): { badges: BadgeRecord[] } => ({ badges: [] }));
const BADGE_SEQUENCE = "badges";

// ---------------------------------------------------------------------------
// Seed: "badges": { "projects": { "acme/web": [{ "name": "coverage", "linkUrl": "...", "imageUrl": "..." }] },
//                   "groups": { "acme": [...] } }
// Badges are created in the order given (groups' first), so their ids and
// `createdAt` follow it; URLs are checked as the POST checks them.

const seedBadgeUrl = z
  .string({ error: "must be an http(s) URL (placeholders allowed)" })
  .refine((url) => isValidBadgeUrl(url), "must be an http(s) URL (placeholders allowed)");
const seedBadge = z.object({ name: z.string().optional(), linkUrl: seedBadgeUrl, imageUrl: seedBadgeUrl }, { error: "must be an object" });

export const badgesSeedSchema = z.strictObject(
  {
    projects: keyedSection("project full path", z.array(seedBadge)).default({}),
    groups: keyedSection("group full path", z.array(seedBadge)).default({}),
  },
  { error: 'must be an object: { "projects": {...}, "groups": {...} }' },
);

function applyBadgesSeed(state: EmulatorState, section: z.infer<typeof badgesSeedSchema> | undefined): void {
  if (section === undefined) return;
  const sources = [
    ["group", section.groups, (path: string) => state.groupByFullPath(path)],
    ["project", section.projects, (path: string) => state.projectByFullPath(path)],
  ] as const;
  const { badges } = badgeStore.of(state);
  for (const [kind, entries, find] of sources) {
    for (const [fullPath, list] of Object.entries(entries)) {
      const source = find(fullPath);
      if (!source) throw new SeedError(`badges.${kind}s["${fullPath}"]: unknown ${kind} ${fullPath}`);
      for (const seed of list) {
        const id = state.nextId(BADGE_SEQUENCE);
        // Seeded state is the same on every start: times follow the source's creation, one second per badge.
        const createdAt = new Date(Date.parse(source.createdAt) + id * 1000).toISOString();
        badges.push({ id, kind, sourceId: source.id, name: seed.name ?? null, linkUrl: seed.linkUrl.trim(), imageUrl: seed.imageUrl.trim(), createdAt });
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Placeholders

/** Placeholders replaced in both URLs; the API documentation's names and the real server's aliases. */
const PLACEHOLDER_NAMES = [
  "project_path",
  "project_title",
  "project_name",
  "project_id",
  "project_namespace",
  "group_name",
  "service_server",
  "gitlab_server",
  "service_pages_domain",
  "gitlab_pages_domain",
  "default_branch",
  "commit_sha",
  "latest_tag",
] as const;
type PlaceholderName = (typeof PLACEHOLDER_NAMES)[number];
type PlaceholderValues = Record<PlaceholderName, string>;
const PLACEHOLDER_PATTERN = new RegExp(`%\\{(${PLACEHOLDER_NAMES.join("|")})\\}`, "g");

/**
 * Placeholder values for a project. Two follow the API documentation where the real
 * source differs: `%{group_name}` is the top-level group's name (the real
 * Badge model uses the direct parent's full path) and `%{project_namespace}`
 * is the full path of the project's group (the real model uses the project's
 * own namespace, i.e. the project's full path). A value that does not exist
 * (no commit, no tag) renders as "", as on the real server.
 */
function placeholderValues(state: EmulatorState, project: Project): PlaceholderValues {
  const namespace = state.namespaceOf(project);
  return {
    project_path: state.projectFullPath(project),
    project_title: project.name,
    project_name: project.path,
    project_id: String(project.id),
    project_namespace: state.groupFullPath(namespace),
    group_name: state.topLevelGroup(namespace).name,
    service_server: state.instance.host,
    gitlab_server: state.instance.host,
    service_pages_domain: state.instance.pagesDomain,
    gitlab_pages_domain: state.instance.pagesDomain,
    default_branch: project.defaultBranch,
    commit_sha: project.lastCommitSha ?? "",
    latest_tag: project.latestTag ?? "",
  };
}

/** Replaces known placeholders; unknown `%{...}` stay as they are. Without a project, the raw URL. */
export function renderBadgeUrl(url: string, values: PlaceholderValues | undefined): string {
  if (!values) return url;
  return url.replace(PLACEHOLDER_PATTERN, (_match, name: PlaceholderName) => values[name]);
}

/** An http(s) URL with a host, once placeholders are filled with a neutral word. */
export function isValidBadgeUrl(url: string): boolean {
  const probe = url.trim().replace(PLACEHOLDER_PATTERN, "placeholder");
  if (probe === "") return false;
  try {
    const parsed = new URL(probe);
    return (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.hostname !== "";
  } catch {
    return false;
  }
}

function validateUrls({ link_url, image_url }: { link_url: string; image_url: string }): void {
  const errors: Record<string, string[]> = {};
  if (!isValidBadgeUrl(link_url)) errors["link_url"] = ["must be a valid URL"];
  if (!isValidBadgeUrl(image_url)) errors["image_url"] = ["must be a valid URL"];
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/**
 * The project whose values render a group's badges: the API documentation's "first
 * project by creation date", among the projects directly in the group (not
 * in subgroups, as the real GroupProjectsFinder's default) that the caller
 * may see. Note: the real finder's default order is id descending, i.e. the
 * newest project; the emulator follows the API documentation.
 */
export function projectForGroupBadges(state: EmulatorState, user: User | null, group: Group): Project | undefined {
  return state
    .projectsIn(group, { includeSubgroups: false })
    .filter((project) => canReadProject(state, user, project))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id)[0];
}

// ---------------------------------------------------------------------------
// The two kinds of source

interface BadgeSource<S> {
  kind: BadgeKind;
  /** `/projects` or `/groups`. */
  collection: string;
  find(ctx: RequestContext<unknown>): S;
  id(source: S): number;
  /** admin_project (Maintainer+) or admin_group (Owner). */
  canAdmin(state: EmulatorState, user: User | null, source: S): boolean;
  /** What the list shows: a project adds its group chain's badges. */
  listedBadges(state: EmulatorState, source: S): BadgeRecord[];
  renderingProject(ctx: RequestContext<unknown>, source: S): Project | undefined;
}

const ownBadges = (state: EmulatorState, kind: BadgeKind, sourceId: number): BadgeRecord[] =>
  badgeStore.of(state).badges.filter((badge) => badge.kind === kind && badge.sourceId === sourceId);

const projectSource: BadgeSource<Project> = {
  kind: "project",
  collection: "/projects",
  find: (ctx) => findProject(ctx),
  id: (project) => project.id,
  canAdmin: (state, user, project) => hasProjectAccess(state, user, project, AccessLevel.Maintainer),
  listedBadges(state, project) {
    const groupIds = new Set(state.selfAndAncestors(state.namespaceOf(project)).map((group) => group.id));
    return badgeStore
      .of(state)
      .badges.filter(
        (badge) =>
          (badge.kind === "project" && badge.sourceId === project.id) ||
          (badge.kind === "group" && groupIds.has(badge.sourceId)),
      );
  },
  renderingProject: (_ctx, project) => project,
};

const groupSource: BadgeSource<Group> = {
  kind: "group",
  collection: "/groups",
  find: (ctx) => findGroup(ctx),
  id: (group) => group.id,
  canAdmin: (state, user, group) => hasGroupAccess(state, user, group, AccessLevel.Owner),
  listedBadges: (state, group) => ownBadges(state, "group", group.id),
  renderingProject: (ctx, group) => projectForGroupBadges(ctx.state, ctx.user, group),
};

// ---------------------------------------------------------------------------
// Routes

function presentBadge(badge: BadgeRecord, values: PlaceholderValues | undefined): Record<string, unknown> {
  return {
    name: badge.name,
    link_url: badge.linkUrl,
    image_url: badge.imageUrl,
    rendered_link_url: renderBadgeUrl(badge.linkUrl, values),
    rendered_image_url: renderBadgeUrl(badge.imageUrl, values),
    id: badge.id,
    kind: badge.kind,
  };
}

const idParam = { id: { type: "string", required: true } } as const;
const badgeIdParam = { badge_id: { type: "integer", required: true } } as const;
const urlParams = {
  link_url: { type: "string", required: true },
  image_url: { type: "string", required: true },
} as const;

/** How the badge routes of one source find what a request names (`find_source_if_admin`, `find_badge`) and render it. */
interface BadgeLookups<S> {
  base: string;
  /** Placeholder values for this request's rendering, or undefined (raw URLs). */
  valuesFor(ctx: RequestContext<unknown>, found: S): PlaceholderValues | undefined;
  /** `find_source_if_admin`: 404 when invisible, then 403 without admin rights. */
  findAdministered(ctx: RequestContext<unknown>): S;
  /** `find_badge`: only the source's own badges. */
  findOwnBadge(ctx: RequestContext<unknown>, found: S, badgeId: number): BadgeRecord;
}

function badgeLookups<S>(source: BadgeSource<S>): BadgeLookups<S> {
  return {
    base: `${source.collection}/:id/badges`,
    valuesFor(ctx, found) {
      const project = source.renderingProject(ctx, found);
      return project ? placeholderValues(ctx.state, project) : undefined;
    },
    findAdministered(ctx) {
      const found = source.find(ctx);
      if (!source.canAdmin(ctx.state, ctx.user, found)) throw forbidden();
      return found;
    },
    findOwnBadge(ctx, found, badgeId) {
      const badge = ownBadges(ctx.state, source.kind, source.id(found)).find((b) => b.id === badgeId);
      if (!badge) throw recordNotFound();
      return badge;
    },
  };
}

function badgeRoutes<S>(source: BadgeSource<S>): readonly RouteDefinition[] {
  const lookups = badgeLookups(source);
  return [...badgeReadRoutes(source, lookups), ...badgeWriteRoutes(source, lookups)];
}

/** List, render and show. */
function badgeReadRoutes<S>(source: BadgeSource<S>, { base, valuesFor, findAdministered, findOwnBadge }: BadgeLookups<S>): readonly RouteDefinition[] {
  return [
    route("GET", base, { params: { ...idParam, name: { type: "string" } }, paginated: true }, (ctx) => {
      const found = source.find(ctx);
      const { name } = ctx.params;
      const badges = source
        .listedBadges(ctx.state, found)
        .filter((badge) => name === undefined || badge.name === name)
        .sort((a, b) => a.id - b.id);
      const values = valuesFor(ctx, found);
      return paginate(ctx, badges, { present: (badge) => presentBadge(badge, values) });
    }),

    route("GET", `${base}/render`, { params: { ...idParam, ...urlParams } }, (ctx) => {
      requireUser(ctx);
      const found = findAdministered(ctx);
      validateUrls(ctx.params);
      const values = valuesFor(ctx, found);
      return ok({
        name: null,
        link_url: ctx.params.link_url,
        image_url: ctx.params.image_url,
        rendered_link_url: renderBadgeUrl(ctx.params.link_url, values),
        rendered_image_url: renderBadgeUrl(ctx.params.image_url, values),
      });
    }),

    route("GET", `${base}/:badge_id`, { params: { ...idParam, ...badgeIdParam } }, (ctx) => {
      const found = source.find(ctx);
      const badge = findOwnBadge(ctx, found, ctx.params.badge_id);
      return ok(presentBadge(badge, valuesFor(ctx, found)));
    }),
  ];
}

/** Add, edit and remove. */
function badgeWriteRoutes<S>(source: BadgeSource<S>, { base, valuesFor, findAdministered, findOwnBadge }: BadgeLookups<S>): readonly RouteDefinition[] {
  return [
    route("POST", base, { params: { ...idParam, ...urlParams, name: { type: "string" } } }, (ctx) => {
      const found = findAdministered(ctx);
      validateUrls(ctx.params);
      const badge: BadgeRecord = {
        id: ctx.state.nextId(BADGE_SEQUENCE),
        kind: source.kind,
        sourceId: source.id(found),
        name: ctx.params.name ?? null,
        linkUrl: ctx.params.link_url.trim(),
        imageUrl: ctx.params.image_url.trim(),
        createdAt: ctx.state.now(),
      };
      badgeStore.of(ctx.state).badges.push(badge);
      return created(presentBadge(badge, valuesFor(ctx, found)));
    }),

    route(
      "PUT",
      `${base}/:badge_id`,
      {
        params: {
          ...idParam,
          ...badgeIdParam,
          link_url: { type: "string" },
          image_url: { type: "string" },
          name: { type: "string" },
        },
      },
      (ctx) => {
        const found = findAdministered(ctx);
        const badge = findOwnBadge(ctx, found, ctx.params.badge_id);
        const { link_url = badge.linkUrl, image_url = badge.imageUrl, name = badge.name } = ctx.params;
        validateUrls({ link_url, image_url });
        Object.assign(badge, { linkUrl: link_url.trim(), imageUrl: image_url.trim(), name });
        return ok(presentBadge(badge, valuesFor(ctx, found)));
      },
    ),

    route("DELETE", `${base}/:badge_id`, { params: { ...idParam, ...badgeIdParam } }, (ctx) => {
      const found = findAdministered(ctx);
      const badge = findOwnBadge(ctx, found, ctx.params.badge_id);
      const { badges } = badgeStore.of(ctx.state);
      badges.splice(badges.indexOf(badge), 1);
      return noContent();
    }),
  ];
}

export const badgesArea: EmulatorArea = {
  name: "badges",
  routes: [...badgeRoutes(projectSource), ...badgeRoutes(groupSource)],
  seed: areaSeed({ key: "badges", schema: badgesSeedSchema, apply: applyBadgesSeed }),
};
