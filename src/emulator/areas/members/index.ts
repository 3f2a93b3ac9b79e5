/** Group and project members: direct and inherited memberships, and who may change them. */
import { type EmulatorArea } from "../../area";
import { removeExpired } from "./model";
import { memberRoutes } from "./routes";

export const membersArea: EmulatorArea = { name: "members", routes: memberRoutes, runDue: removeExpired };
