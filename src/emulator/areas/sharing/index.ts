/** Sharing groups and projects with groups: the links, and the roles they give (../../access.ts). */
import { type EmulatorArea } from "../../area";
import { sharingRoutes } from "./routes";

export const sharingArea: EmulatorArea = { name: "sharing", routes: sharingRoutes };
