import type { KindTests } from "./index.mts";

export default {
  kind: "GroupSettings",
  matrix: () => [{ create: () => ({ group: "acme/platform", description: "matrix" }), update: { description: "changed" }, without: { replace: "a settings resource never replaces its object" } }],
  secrets: { declarations: [{ name: "group-settings", args: { group: "acme", twoFactorGracePeriod: 24, requestAccessEnabled: false } }] },
} satisfies KindTests;
