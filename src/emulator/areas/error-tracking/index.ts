/** Error tracking: client keys (API) and the collector that receives events. */
import { areaSeed, type EmulatorArea } from "../../area";
import { dropExpiredEvents, errorTrackingRoutes } from "./routes";
import { applyErrorTrackingSeed, errorTrackingSeedSchema } from "./seed";

export const errorTrackingArea: EmulatorArea = {
  name: "error-tracking",
  routes: errorTrackingRoutes,
  runDue: dropExpiredEvents,
  seed: areaSeed({ key: "errorTracking", schema: errorTrackingSeedSchema, apply: applyErrorTrackingSeed }),
};
