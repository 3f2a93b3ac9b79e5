import type { KindTests } from "./index.mts";

/** A date `days` after today (real time: the matrix runs on the real clock). */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export default {
  kind: "ProjectAccessToken",
  matrix: () => [{ create: (n) => ({ project: "acme/web", name: `matrix-${n}`, scopes: ["read_api"], expiresAt: inDays(30) }), update: { expiresAt: inDays(60) }, replace: { name: "renamed" } }],
  // No secret input; its secret output (the token) comes from the server: secrets.e2e.test.ts searches for it too.
  secrets: { declarations: [{ name: "project-access-token", args: { project: "acme/web", name: "secrets", scopes: ["read_api"], rotateBeforeDays: 30 } }] },
} satisfies KindTests;
