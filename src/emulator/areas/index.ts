/**
 * Every API area the emulator serves, one line each: an area is a folder
 * of areas/ whose index.ts exports its `EmulatorArea` (badges/ is a complete
 * example). The core serves the routes of all of them and seeds them in
 * this order, except that an area comes after the areas it names in
 * `after` (seedingOrder, area.ts); ids given in seed order follow it.
 */
import type { EmulatorArea } from "../area";
import { accessFactsArea } from "./access-facts";
import { applicationSettingsArea } from "./application-settings";
import { approvalRulesArea } from "./approval-rules";
import { badgesArea } from "./badges";
import { containerRegistryArea } from "./container-registry";
import { epicsArea } from "./epics";
import { errorTrackingArea } from "./error-tracking";
import { graphqlArea } from "./graphql";
import { groupTokensArea } from "./group-tokens";
import { deployKeysArea } from "./deploy-keys";
import { approvalSettingsArea } from "./approval-settings";
import { groupsArea } from "./groups";
import { hooksArea } from "./hooks";
import { integrationsArea } from "./integrations";
import { issuesArea } from "./issues";
import { jobTokensArea } from "./job-tokens";
import { mergeRequestsArea } from "./merge-requests";
import { metadataArea } from "./metadata";
import { pipelineSchedulesArea } from "./pipeline-schedules";
import { protectedRefsArea } from "./protected-refs";
import { projectsArea } from "./projects";
import { repositoryArea } from "./repository";
import { samlArea } from "./saml";
import { securityReportsArea } from "./security-reports";
import { starringArea } from "./starring";
import { usersArea } from "./users";
import { virtualRegistriesArea } from "./virtual-registries";
import { ciVariablesArea } from "./ci-variables";
import { labelsArea } from "./labels";
import { membersArea } from "./members";
import { sharingArea } from "./sharing";
import { protectedEnvironmentsArea } from "./protected-environments";

export const areas: readonly EmulatorArea[] = [
  metadataArea,
  usersArea,
  groupsArea,
  projectsArea,
  repositoryArea,
  badgesArea,
  virtualRegistriesArea,
  pipelineSchedulesArea,
  applicationSettingsArea,
  integrationsArea,
  securityReportsArea,
  errorTrackingArea,
  containerRegistryArea,
  samlArea,
  starringArea,
  epicsArea,
  groupTokensArea,
  mergeRequestsArea,
  accessFactsArea,
  graphqlArea,
  jobTokensArea,
  issuesArea,
  ciVariablesArea,
  hooksArea,
  labelsArea,
  membersArea,
  sharingArea,
  protectedRefsArea,
  approvalRulesArea,
  deployKeysArea,
  protectedEnvironmentsArea,
  approvalSettingsArea,
];
