/**
 * CI/CD variables at three levels: a project's (Maintainer), a group's
 * (Owner; environment scopes from Premium) and the instance's
 * (administrators; self-managed and Dedicated). A hidden variable's value is
 * never shown again; see ../../README.md for what the area follows.
 */
import type { EmulatorArea } from "../../area";
import { ciVariableRoutes } from "./routes";

export const ciVariablesArea: EmulatorArea = { name: "ci-variables", routes: ciVariableRoutes };
