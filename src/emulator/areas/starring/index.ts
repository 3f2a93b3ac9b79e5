/** Project starring: stars, starrers, a user's starred projects. */
import { areaSeed, type EmulatorArea } from "../../area";
import { applyStarsSeed, starsSeedSchema } from "./seed";
import { starringRoutes } from "./routes";

export const starringArea: EmulatorArea = {
  name: "starring",
  routes: starringRoutes,
  seed: areaSeed({ key: "stars", schema: starsSeedSchema, apply: applyStarsSeed }),
};
