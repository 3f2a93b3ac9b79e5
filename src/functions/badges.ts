/**
 * Project and group badges: the badges
 * of a project or a group, one badge, and how a pair of URLs renders there.
 *
 * - A project's list also shows the badges of its groups (`kind: "group"`);
 *   one badge is read only among the source's own badges, so a group badge
 *   is read through its group (real servers: `source.badges.find`, a 404
 *   otherwise).
 * - `GET .../badges/render` writes nothing: it answers what a badge with
 *   these URLs would show on that project or group, placeholders resolved.
 *   As a lookup it is `getRenderedBadge` (the getX convention: the function
 *   reads a rendered badge). Real servers let only those who administer the
 *   source render:
 *   Maintainer+ of a project, Owner of a group.
 */
import { z } from "zod";
import { badge as badgeShape, badgeNeeds, badgesPath, renderedBadge as renderedShape, urlWithPlaceholders } from "../api/badges";
import { exactlyOneOwner, ownerName, ownerReference } from "../api/owner";
import { defineListFunction, defineObjectFunction, type Camelized } from "./core";

export type BadgeInfo = Camelized<z.output<typeof badgeShape>>;
export type RenderedBadge = Camelized<z.output<typeof renderedShape>>;

/** Exactly one of `project` and `group`, as the resources say it. */
const oneSource = {
  /** The project (id or full path); set this or `group`. */
  project: ownerReference.optional(),
  /** The group (id or full path); set this or `project`. */
  group: ownerReference.optional(),
};
type Source = { project?: string | number; group?: string | number };
const validateSource = (args: Source) => exactlyOneOwner(args).map(({ property, reason }) => ({ argument: property, reason: `${property}: ${reason}` }));
const sourceName = ownerName;

const badges = defineListFunction({
  name: "getBadges",
  args: z.object({
    ...oneSource,
    /** Only badges of this name (exact, case-sensitive). */
    name: z.string().min(1).optional(),
  }),
  validate: validateSource,
  path: badgesPath,
  query: (args) => ({ name: args.name }),
  subject: (args) => `the badges of ${sourceName(args)}`,
  item: badgeShape,
});

/**
 * The badges of a project (its own and its groups', told apart by `kind`) or of a group.
 *
 * ```ts
 * const coverage = await getBadges({ project: "acme/web", name: "coverage" });
 * ```
 */
export const getBadges = badges;
/** `getBadges` as an Output. */
export const getBadgesOutput = badges.output;

const badge = defineObjectFunction({
  name: "getBadge",
  args: z.object({
    ...oneSource,
    /** The badge's id (see `getBadges`). */
    id: z.number().int().positive(),
  }),
  validate: validateSource,
  path: (args) => `${badgesPath(args)}/${args.id}`,
  subject: (args) => `badge ${args.id} of ${sourceName(args)}`,
  refusals: {
    404: (args) =>
      args.project !== undefined
        ? "A project reads only its own badges: a group badge shown in its list is read through the group (`group`). Check the id."
        : "Check the id.",
  },
  result: badgeShape,
});

/**
 * One badge of a project or a group, with its rendered URLs.
 *
 * ```ts
 * const { renderedImageUrl } = await getBadge({ group: "acme", id: 4 });
 * ```
 */
export const getBadge = badge;
/** `getBadge` as an Output. */
export const getBadgeOutput = badge.output;

const renderedBadge = defineObjectFunction({
  name: "getRenderedBadge",
  args: z.object({
    ...oneSource,
    /** The link, placeholders allowed; the server checks it as a badge's. */
    linkUrl: urlWithPlaceholders,
    imageUrl: urlWithPlaceholders,
  }),
  validate: validateSource,
  path: (args) => `${badgesPath(args)}/render`,
  query: (args) => ({ link_url: args.linkUrl, image_url: args.imageUrl }),
  subject: (args) => `a badge rendered for ${sourceName(args)}`,
  refusals: {
    403: () => "Rendering needs the rights to manage badges, though it writes nothing.",
  },
  // Rendering is authorized as managing badges is: admin_project (Maintainer) or admin_group (Owner).
  needs: badgeNeeds,
  result: renderedShape,
});

/**
 * What a badge with these URLs would show on a project or group, placeholders
 * resolved, without creating one (`GET .../badges/render`).
 *
 * ```ts
 * const preview = await getRenderedBadge({ project: "acme/web", linkUrl: "https://ci.example/%{project_path}", imageUrl: "https://ci.example/%{default_branch}.svg" });
 * ```
 */
export const getRenderedBadge = renderedBadge;
/** `getRenderedBadge` as an Output. */
export const getRenderedBadgeOutput = renderedBadge.output;
