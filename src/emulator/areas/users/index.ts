/** The current user: `GET /user`. */
import { notFound } from "../../errors";
import { paginate, requireUser, route, ok } from "../../router";
import { type EmulatorArea } from "../../area";
import type { InstanceInfo, User } from "../../state";
import { userCanCreateGroup } from "../groups/model";

export function presentUser(user: User, instance: InstanceInfo): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.blocked ? "blocked" : "active",
    locked: false,
    avatar_url: null,
    web_url: `https://${instance.host}/${user.username}`,
    created_at: user.createdAt,
    email: user.email,
    bot: false,
    // Real servers show is_admin to administrators only; false here keeps clients simple.
    is_admin: user.isAdmin,
  };
}

const currentUser = route("GET", "/user", {}, (ctx) => {
  const user = requireUser(ctx);
  // The current user's own answer says whether they may create top-level groups.
  return ok({ ...presentUser(user, ctx.state.instance), can_create_group: userCanCreateGroup(ctx.state, user) });
});

/**
 * `GET /users?username=<name>`: the one user with that username (case-insensitive), or none,
 * as `UserBasic` (id, username, name, state, locked, avatar_url, web_url); `search`: users
 * whose username or name contains the text (any case), or whose email is it. Real servers
 * have many more filters; only these two are served here.
 */
const findUsers = route("GET", "/users", { params: { username: { type: "string" }, search: { type: "string" } }, paginated: true }, (ctx) => {
  const { username, search } = ctx.params;
  const text = search?.toLowerCase();
  const found = ctx.state.users.filter(
    (user) =>
      (username === undefined || user.username.toLowerCase() === username.toLowerCase()) &&
      (text === undefined || [user.username, user.name].some((part) => part.toLowerCase().includes(text)) || user.email.toLowerCase() === text),
  );
  const basicFields = ["id", "username", "name", "state", "locked", "avatar_url", "web_url"];
  const basic = (user: User) => Object.fromEntries(Object.entries(presentUser(user, ctx.state.instance)).filter(([key]) => basicFields.includes(key)));
  return paginate(ctx, found, { present: basic });
});

/** `GET /users/:id`: one user as `UserBasic` (`404 User Not Found` for an unknown id). */
const oneUser = route("GET", "/users/:id", { params: { id: { type: "integer", required: true } } }, (ctx) => {
  requireUser(ctx);
  const user = ctx.state.userById(ctx.params.id);
  if (!user) throw notFound("User");
  const basicFields = ["id", "username", "name", "state", "locked", "avatar_url", "web_url"];
  return ok(Object.fromEntries(Object.entries(presentUser(user, ctx.state.instance)).filter(([key]) => basicFields.includes(key))));
});

export const usersArea: EmulatorArea = { name: "users", routes: [currentUser, findUsers, oneUser] };
