/** The current user: `GET /user`. */
import { requireUser, route, ok, type RouteModule } from "../router";
import type { InstanceInfo, User } from "../state";

export function presentUser(user: User, instance: InstanceInfo): Record<string, unknown> {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: "active",
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

const currentUser = route("GET", "/user", {}, (ctx) => ok(presentUser(requireUser(ctx), ctx.state.instance)));

export const userRoutes: RouteModule = { name: "user", routes: [currentUser] };
