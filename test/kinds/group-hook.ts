import type { KindTests } from "./index.mts";

export default {
  kind: "GroupHook",
  matrix: () => [
    { create: (n) => ({ group: "acme", url: `https://matrix.example.test/group-hooks/${n}` }), update: { name: "renamed" }, replace: { group: "acme/platform" } },
    // The tier: beta is on Free, which has no group webhooks.
    { create: (n) => ({ group: "beta", url: `https://matrix.example.test/group-hooks/${n}` }), without: { update: "no hook can exist below the tier", delete: "idem", replace: "idem" } },
  ],
  secrets: {
    declarations: [{ name: "group-hook", args: { group: "acme", url: "", token: "", customHeaders: { "X-Receiver-Key": "" } }, planted: { url: (marker) => `https://hook:${marker}@secrets.example.com/hooks` } }],
    structured: { customHeaders: [["customHeaders", "X-Receiver-Key"]] },
  },
} satisfies KindTests;
