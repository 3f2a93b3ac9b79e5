/** Integrations: a group's integrations (written) and a project's (read, inherited from its groups). */
import { areaSeed, type EmulatorArea } from "../../area";
import { integrationRoutes } from "./group";
import { projectIntegrationRoutes } from "./project";
import { applyIntegrationsSeed, integrationsSeedSchema } from "./seed";

export const integrationsArea: EmulatorArea = {
  name: "integrations",
  routes: [...integrationRoutes, ...projectIntegrationRoutes],
  seed: areaSeed({ key: "integrations", schema: integrationsSeedSchema, apply: applyIntegrationsSeed }),
};
