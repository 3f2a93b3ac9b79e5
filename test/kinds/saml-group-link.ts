import type { KindTests } from "./index.mts";

export default {
  kind: "SamlGroupLink",
  matrix: () => [
    { create: (n) => ({ group: "acme", samlGroupName: `matrix-${n}`, accessLevel: "developer" }), replace: { accessLevel: "maintainer" }, without: { update: "every field replaces" } },
    // The tier: beta is on Free.
    { create: (n) => ({ group: "beta", samlGroupName: `matrix-${n}`, accessLevel: "developer" }), without: { update: "no object can exist below the tier", delete: "idem", replace: "idem" } },
  ],
  secrets: { declarations: [{ name: "saml", args: { group: "acme", samlGroupName: "secrets-test", accessLevel: "developer" } }] },
} satisfies KindTests;
