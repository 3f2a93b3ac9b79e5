/**
 * SAML group links: list, read, create and delete a group's links.
 *
 * As real servers answer:
 * - the group is looked up without a 404 and every failure of
 *   `can?(user, :admin_saml_group_links, group)` is 401 `401 Unauthorized`:
 *   anonymous, not an Owner, no Premium or Ultimate licence, no such group;
 * - POST: `saml_group_name` and `access_level` required (Grape values 5..50),
 *   `member_role_id` kept only where custom roles exist (Ultimate here) and
 *   otherwise dropped and absent from the entity, `provider` blank → null;
 *   model errors 400 `{"message":"<full messages joined by ,>"}`, a duplicate
 *   name for the same provider "Saml group name has already been taken";
 *   201 with the link;
 * - GET one / DELETE: `provider` in the query picks the link (empty → the one
 *   without provider); without it, a name shared by several links is 422
 *   `Multiple group links found with the same name. Please specify a provider
 *   parameter to disambiguate.`; no match 404 `404 Not Found`; DELETE 204.
 */
import { canReadGroup, hasGroupAccess } from "../../access";
import { ApiError, notFound, unauthorized } from "../../errors";
import { created, noContent, ok, paginate, route, type RequestContext, type RouteDefinition } from "../../router";
import { AccessLevel, defineStore, type Group } from "../../state";

export interface SamlGroupLinkRecord {
  id: number;
  groupId: number;
  name: string;
  accessLevel: number;
  memberRoleId: number | null;
  provider: string | null;
}

export const samlGroupLinkStore = defineStore("samlGroupLinks", (): { links: SamlGroupLinkRecord[] } => ({ links: [] }));

const ACCESS_LEVELS = [5, 10, 15, 20, 30, 40, 50];
export const AMBIGUOUS_NAME_MESSAGE = "Multiple group links found with the same name. Please specify a provider parameter to disambiguate.";

/** `find_group` + `unauthorized! unless can?(current_user, :admin_saml_group_links, group)`. */
function administeredGroup(ctx: RequestContext<unknown>): Group {
  const { state, user } = ctx;
  const value = ctx.pathParams.id ?? "";
  const group = /^\d+$/.test(value) ? state.groupById(Number(value)) : state.groupByFullPath(value);
  if (!group || !user || !canReadGroup(state, user, group)) throw unauthorized();
  const licensed = state.tierOf(group) !== "free";
  if (!licensed || !hasGroupAccess(state, user, group, AccessLevel.Owner)) throw unauthorized();
  return group;
}

/** Custom roles (and so member_role_id) exist on Ultimate only. */
const customRoles = (ctx: RequestContext<unknown>, group: Group) => ctx.state.tierOf(group) === "ultimate";

function present(ctx: RequestContext<unknown>, group: Group, link: SamlGroupLinkRecord): Record<string, unknown> {
  return {
    name: link.name,
    access_level: link.accessLevel,
    ...(customRoles(ctx, group) ? { member_role_id: link.memberRoleId } : {}),
    provider: link.provider,
  };
}

const linksOf = (ctx: RequestContext<unknown>, group: Group) => samlGroupLinkStore.of(ctx.state).links.filter((l) => l.groupId === group.id);

const blankToNull = (value: string | undefined): string | null => (value === undefined || value.trim() === "" ? null : value);

/** The link named in the path, narrowed by `provider` when given. */
function findLink(ctx: RequestContext<{ saml_group_name: string; provider: string | undefined }>, group: Group): SamlGroupLinkRecord {
  const named = linksOf(ctx, group).filter((l) => l.name === ctx.params.saml_group_name);
  if (ctx.params.provider !== undefined) {
    const provider = blankToNull(ctx.params.provider);
    const match = named.find((l) => l.provider === provider);
    if (!match) throw notFound();
    return match;
  }
  if (named.length > 1) throw new ApiError(422, { message: AMBIGUOUS_NAME_MESSAGE });
  if (!named[0]) throw notFound();
  return named[0];
}

const groupParam = { id: { type: "string", required: true } } as const;
const oneParams = { ...groupParam, saml_group_name: { type: "string", required: true }, provider: { type: "string" } } as const;

export const samlGroupLinkRoutes: readonly RouteDefinition[] = [
    // Real servers answer the whole list unpaginated; the specification pages every list unless it
    // says otherwise, so this one has the usual pages and headers.
    route("GET", "/groups/:id/saml_group_links", { params: groupParam, paginated: true }, (ctx) => {
      const group = administeredGroup(ctx);
      return paginate(ctx, linksOf(ctx, group), { present: (link) => present(ctx, group, link) });
    }),

    route(
      "POST",
      "/groups/:id/saml_group_links",
      {
        params: {
          ...groupParam,
          saml_group_name: { type: "string", required: true },
          access_level: { type: "integer", required: true, values: ACCESS_LEVELS },
          member_role_id: { type: "integer" },
          provider: { type: "string" },
        },
      },
      (ctx) => {
        const group = administeredGroup(ctx);
        const { saml_group_name: name, access_level, member_role_id } = ctx.params;
        const provider = blankToNull(ctx.params.provider);
        const errors: string[] = [];
        if (name.trim() === "") errors.push("Saml group name can't be blank");
        if (name.length > 255) errors.push("Saml group name is too long (maximum is 255 characters)");
        if (provider !== null && provider.length > 255) errors.push("Provider is too long (maximum is 255 characters)");
        if (linksOf(ctx, group).some((l) => l.name === name && l.provider === provider)) errors.push("Saml group name has already been taken");
        if (errors.length) throw new ApiError(400, { message: errors.join(",") });
        const link: SamlGroupLinkRecord = {
          id: ctx.state.nextId("saml_group_links"),
          groupId: group.id,
          name,
          accessLevel: access_level,
          memberRoleId: customRoles(ctx, group) ? (member_role_id ?? null) : null,
          provider,
        };
        samlGroupLinkStore.of(ctx.state).links.push(link);
        return created(present(ctx, group, link));
      },
    ),

    route("GET", "/groups/:id/saml_group_links/:saml_group_name", { params: oneParams }, (ctx) => {
      const group = administeredGroup(ctx);
      return ok(present(ctx, group, findLink(ctx, group)));
    }),

    route("DELETE", "/groups/:id/saml_group_links/:saml_group_name", { params: oneParams }, (ctx) => {
      const group = administeredGroup(ctx);
      const link = findLink(ctx, group);
      const { links } = samlGroupLinkStore.of(ctx.state);
      links.splice(links.indexOf(link), 1);
      return noContent();
    }),
];
