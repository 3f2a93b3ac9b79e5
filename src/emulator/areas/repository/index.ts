/** The repository area: each project's real git repository, its content and its history. */
import { areaSeed, type EmulatorArea } from "../../area";
import { stateOfAreas } from "../../seed";
import { repositoryContentRoutes } from "./content";
import { repositoryHistoryRoutes } from "./history";
import { repositoryWriteRoutes } from "./writes";
import { applyRepositoriesSeed, attachRepositories, buildSeededRepositories, detachRepositories } from "./model";
import { repositoriesSeedSchema } from "./seed";

/** The seed's parts a repository build depends on: the core (projects' ids, dates, branches) and `repositories`. */
const REPOSITORY_SEED_SECTIONS = ["instance", "users", "groups", "projects", "repositories"];

export const repositoryArea: EmulatorArea = {
  name: "repository",
  routes: [...repositoryContentRoutes, ...repositoryHistoryRoutes, ...repositoryWriteRoutes],
  seed: areaSeed({ key: "repositories", schema: repositoriesSeedSchema, apply: applyRepositoriesSeed }),
  lifecycle: {
    // Repositories are built (asynchronously) before the real state is seeded, so its projects
    // carry real SHAs from the start, as other areas' seeds read them (merge requests' diff refs).
    prepare: async (seed) => {
      const parts = Object.fromEntries(Object.entries(seed).filter(([key]) => REPOSITORY_SEED_SECTIONS.includes(key)));
      await buildSeededRepositories(stateOfAreas(parts, undefined, [repositoryArea]));
    },
    start: (state, { stateFile }) => attachRepositories(state, stateFile),
    stop: (state) => detachRepositories(state),
  },
};
