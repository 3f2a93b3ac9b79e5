/**
 * Error tracking client keys. The API documentation
 * shows no payload; real servers (GitLab's `doc/api/error_tracking.md`,
 * `API::Entities::ErrorTracking::ClientKey`) answer `id`, `active`,
 * `public_key` and `sentry_dsn`. The DSN lets anyone send events: it is a
 * secret, so the Output form of this function is secret.
 */
import { z } from "zod";
import { clientKey as clientKeyShape, clientKeyNeeds, clientKeysPath } from "../api/error-tracking";
import { ownerReference } from "../api/owner";
import { defineListFunction, type Camelized } from "./core";

export type ErrorTrackingClientKeyInfo = Camelized<z.output<typeof clientKeyShape>>;

const clientKeys = defineListFunction({
  name: "getErrorTrackingClientKeys",
  args: z.object({ /** The project (id or full path). */ project: ownerReference }),
  path: (args) => clientKeysPath(args.project),
  subject: (args) => `the error tracking client keys of project ${args.project}`,
  needs: clientKeyNeeds,
  secrets: ["sentryDsn", "publicKey"],
  item: clientKeyShape,
});

/**
 * A project's error tracking client keys, with their DSNs (a secret Output in the Output form).
 *
 * ```ts
 * const keys = getErrorTrackingClientKeysOutput({ project: "acme/web" });
 * ```
 */
export const getErrorTrackingClientKeys = clientKeys;
/** `getErrorTrackingClientKeys` as an Output; secret, since it holds DSNs. */
export const getErrorTrackingClientKeysOutput = clientKeys.output;
