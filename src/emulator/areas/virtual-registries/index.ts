/** Virtual registries: registries, upstreams, their cache entries, and the cleanup policy. */
import { areaSeed, type EmulatorArea } from "../../area";
import { runDuePolicies, virtualRegistryCleanupRoutes } from "./cleanup";
import { purgeCacheEntries } from "./model";
import { virtualRegistryRoutes } from "./routes";
import { applyVirtualRegistriesSeed, virtualRegistriesSeedSchema } from "./seed";

export const virtualRegistriesArea: EmulatorArea = {
  name: "virtual-registries",
  routes: [...virtualRegistryRoutes, ...virtualRegistryCleanupRoutes],
  seed: areaSeed({ key: "virtualRegistries", schema: virtualRegistriesSeedSchema, apply: applyVirtualRegistriesSeed }),
  runDue(state) {
    purgeCacheEntries(state);
    runDuePolicies(state);
  },
};
