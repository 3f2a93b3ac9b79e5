/** Protected environments of projects and groups: the rules and whom they let deploy and approve (./model.ts). */
import type { EmulatorArea } from "../../area";
import { protectedEnvironmentRoutes } from "./routes";

export const protectedEnvironmentsArea: EmulatorArea = {
  name: "protected-environments",
  routes: protectedEnvironmentRoutes,
};
