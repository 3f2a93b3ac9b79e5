/** Security reports: pipelines' findings, dependencies, vulnerabilities (REST and GraphQL). */
import { areaSeed, type EmulatorArea } from "../../area";
import { applySecurityReportsSeed, securityReportsSeedSchema } from "./seed";
import { securityReportRoutes } from "./routes";

export const securityReportsArea: EmulatorArea = {
  name: "security-reports",
  routes: securityReportRoutes,
  // A pipeline's sha defaults to the project's last commit, which the repository seed sets.
  after: ["repository"],
  seed: areaSeed({ key: "securityReports", schema: securityReportsSeedSchema, apply: applySecurityReportsSeed }),
};
