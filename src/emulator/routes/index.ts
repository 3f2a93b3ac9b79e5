/**
 * Every API area the emulator serves. To add one: write routes/<area>.ts
 * exporting a `RouteModule` (see badges.ts for a complete example, with its
 * own store via `defineStore`), and add it to this list. Nothing else in the
 * core needs to change.
 */
import type { RouteModule } from "../router";
import { badgesRoutes } from "./badges";
import { groupRoutes } from "./groups";
import { metaRoutes } from "./meta";
import { projectRoutes } from "./projects";
import { userRoutes } from "./user";

export const routeModules: readonly RouteModule[] = [metaRoutes, userRoutes, groupRoutes, projectRoutes, badgesRoutes];
