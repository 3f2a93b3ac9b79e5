/** Project starring: stars, starrers and a user's starred projects (./routes.ts), the `stars` seed (./seed.ts). */
import { areaSeed, type EmulatorArea } from "../../area";
import { starringRoutes } from "./routes";
import { applyStarsSeed, starsSeedSchema } from "./seed";

export const starringArea: EmulatorArea = {
  name: "starring",
  routes: starringRoutes,
  seed: areaSeed({ key: "stars", schema: starsSeedSchema, apply: applyStarsSeed }),
};
