import type { KindTests } from "./index.mts";

export default {
  kind: "Label",
  matrix: () => [
    { create: (n) => ({ project: "acme/web", name: `matrix-${n}`, color: "#336699" }), update: { color: "red" }, replace: { project: "acme/api" } },
    { create: (n) => ({ group: "acme", name: `matrix-${n}`, color: "#336699" }), update: { description: "changed" }, replace: { group: "acme/platform" } },
  ],
  secrets: {
    declarations: [{ name: "label", args: { project: "acme/web", name: "secrets", color: "#336699", description: "a label whose description the program marks secret" } }],
  },
} satisfies KindTests;
