/** Protected branches and tags: the rules, and who they let push, merge and create tags (./model.ts). */
import { areaSeed, type EmulatorArea } from "../../area";
import { protectedRefRoutes } from "./routes";
import { applyProtectedRefsSeed, protectedRefsSeedSchema } from "./seed";

export const protectedRefsArea: EmulatorArea = {
  name: "protected-refs",
  routes: protectedRefRoutes,
  // The default branch protection reads the groups' settings.
  after: ["groups", "projects"],
  seed: areaSeed({ key: "protectedRefs", schema: protectedRefsSeedSchema, apply: applyProtectedRefsSeed }),
};
