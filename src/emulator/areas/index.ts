/**
 * Every API area the emulator serves. To add one: write routes/<area>.ts
 * exporting a `RouteModule` (see badges.ts for a complete example, with its
 * own store via `defineStore`), and add it to this list. Nothing else in the
 * core needs to change. Seed sections are applied in this order:
 * `repositoryContentRoutes` comes right after `projectRoutes`, since its seed
 * gives projects their real commit SHAs, which later areas' seeds read.
 */
import type { RouteModule } from "../router";
import { badgesRoutes } from "./badges";
import { groupRoutes } from "./groups/routes";
import { integrationRoutes } from "./integrations/group";
import { projectIntegrationRoutes } from "./integrations/project";
import { samlGroupLinkRoutes } from "./saml/group-links";
import { applicationSettingsRoutes } from "./application-settings";
import { metaRoutes } from "./metadata";
import { projectRoutes } from "./projects";
import { pipelineScheduleRoutes } from "./pipeline-schedules/routes";
import { userRoutes } from "./users";
import { virtualRegistryCleanupRoutes } from "./virtual-registries/cleanup";
import { virtualRegistryRoutes } from "./virtual-registries/registries";
import { containerRegistryRoutes } from "./container-registry/routes";
import { registryNativeRoutes } from "./container-registry/native";
import { securityReportRoutes } from "./security-reports/routes";
import { errorTrackingRoutes } from "./error-tracking/routes";
import { mergeRequestRoutes } from "./merge-requests/routes";
import { epicsRoutes } from "./epics/routes";
import { starringRoutes } from "./starring/routes";
import { samlIdentityRoutes } from "./saml/identities";
import { groupTokenRoutes } from "./group-tokens/routes";
import { repositoryContentRoutes } from "./repository/content";
import { repositoryHistoryRoutes } from "./repository/history";
import { accessFactRoutes } from "./access-facts";
import { graphqlRoutes } from "./graphql";
import { mergeRequestsOfCommitRoutes } from "./merge-requests/of-commit";
import { jobTokenRoutes } from "./job-tokens";

export const routeModules: readonly RouteModule[] = [metaRoutes, userRoutes, groupRoutes, projectRoutes, repositoryContentRoutes, badgesRoutes, virtualRegistryRoutes, virtualRegistryCleanupRoutes, pipelineScheduleRoutes, applicationSettingsRoutes, integrationRoutes, projectIntegrationRoutes, samlGroupLinkRoutes, securityReportRoutes, errorTrackingRoutes, containerRegistryRoutes, registryNativeRoutes, samlIdentityRoutes, starringRoutes, epicsRoutes, groupTokenRoutes, mergeRequestRoutes, mergeRequestsOfCommitRoutes, repositoryHistoryRoutes, accessFactRoutes, graphqlRoutes, jobTokenRoutes];
