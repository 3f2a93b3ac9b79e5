/**
 * Repository content (spec document 1, part 4.6): tree, blobs and archives
 * of a project's real git repository (repositories/model.ts), and the
 * `repositories` seed section.
 */
import { applyRepositoriesSeed, attachRepositories, buildSeededRepositories, detachRepositories } from "../repositories/model";
import type { RouteDefinition, RouteModule } from "../router";
import { stateFromSeed } from "../seed";

const routes: RouteDefinition[] = [];

/** The seed's parts a repository build depends on: the core (projects' ids, dates, branches) and `repositories`. */
const REPOSITORY_SEED_SECTIONS = ["instance", "users", "groups", "projects", "repositories"];

export const repositoryContentRoutes: RouteModule = {
  name: "repository-content",
  routes,
  seed: { key: "repositories", apply: applyRepositoriesSeed },
  lifecycle: {
    // Repositories are built (asynchronously) before the real state is seeded, so its projects
    // carry real SHAs from the start, as other areas' seeds read them (merge requests' diff refs).
    prepare: async (seed) => {
      const parts = Object.fromEntries(Object.entries(seed).filter(([key]) => REPOSITORY_SEED_SECTIONS.includes(key)));
      await buildSeededRepositories(stateFromSeed(parts, undefined, [repositoryContentRoutes]));
    },
    start: (state, { stateFile }) => attachRepositories(state, stateFile),
    stop: (state) => detachRepositories(state),
  },
};
