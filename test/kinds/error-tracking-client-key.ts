import type { KindTests } from "./index.mts";

export default {
  kind: "ErrorTrackingClientKey",
  matrix: { without: "needs error tracking set up per project: test/resources/error-tracking-client-key.test.ts" },
  // No secret input; its secret outputs (the DSN) come from the server: secrets.e2e.test.ts searches for them too.
  secrets: { declarations: [{ name: "error-tracking-key", args: { project: "acme/web" } }] },
} satisfies KindTests;
