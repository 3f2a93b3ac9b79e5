/** Project issues and their notes. */
import type { EmulatorArea } from "../../area";
import { issueRoutes } from "./routes";

export const issuesArea: EmulatorArea = { name: "issues", routes: issueRoutes };
