import type { KindTests } from "./index.mts";

export default {
  kind: "DeployToken",
  matrix: () => [
    { create: (n) => ({ project: "acme/web", name: `matrix-${n}`, scopes: ["read_repository"] }), replace: { name: "renamed" } },
    { create: (n) => ({ group: "acme", name: `matrix-${n}`, scopes: ["read_registry"] }), replace: { name: "renamed" } },
  ],
  // No secret input; its secret output (the token) comes from the server: secrets.e2e.test.ts searches for it too.
  secrets: { declarations: [{ name: "deploy-token", args: { project: "acme/web", name: "secrets", scopes: ["read_repository"] } }] },
} satisfies KindTests;
