/** The container registry: the API's repositories and tags, the registry's own `/v2` and `/jwt/auth`, cleanup. */
import { areaSeed, type EmulatorArea } from "../../area";
import { runContainerRegistryWork } from "./jobs";
import { applyContainerRegistrySeed, containerRegistrySeedSchema } from "./seed";
import { registryNativeRoutes } from "./native";
import { containerRegistryRoutes } from "./routes";

export const containerRegistryArea: EmulatorArea = {
  name: "container-registry",
  routes: [...containerRegistryRoutes, ...registryNativeRoutes],
  runDue: runContainerRegistryWork,
  seed: areaSeed({ key: "containerRegistry", schema: containerRegistrySeedSchema, apply: applyContainerRegistrySeed }),
};
