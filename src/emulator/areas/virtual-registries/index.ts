/** Virtual registries: registries, upstreams, their cache entries, and the cleanup policy. */
import { z } from "zod";
import { areaSeed, keyedSection, type EmulatorArea } from "../../area";
import { runDuePolicies, virtualRegistryCleanupRoutes } from "./cleanup";
import { applyVirtualRegistriesSeed, purgeCacheEntries, virtualRegistryRoutes } from "./registries";

export const virtualRegistriesArea: EmulatorArea = {
  name: "virtual-registries",
  routes: [...virtualRegistryRoutes, ...virtualRegistryCleanupRoutes],
  seed: areaSeed({ key: "virtualRegistries", schema: keyedSection("top-level group path", z.unknown()), apply: applyVirtualRegistriesSeed }),
  runDue(state) {
    purgeCacheEntries(state);
    runDuePolicies(state);
  },
};
