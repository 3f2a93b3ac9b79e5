/** Integrations: a group's integrations (written) and a project's (read, inherited from its groups). */
import { z } from "zod";
import { areaSeed, keyedSection, type EmulatorArea } from "../../area";
import { applyIntegrationsSeed, integrationRoutes } from "./group";
import { projectIntegrationRoutes } from "./project";

export const integrationsArea: EmulatorArea = {
  name: "integrations",
  routes: [...integrationRoutes, ...projectIntegrationRoutes],
  seed: areaSeed({ key: "integrations", schema: keyedSection("group full path", z.unknown()), apply: applyIntegrationsSeed }),
};
