import type { KindTests } from "./index.mts";

export default {
  kind: "ProjectStar",
  matrix: { without: "a star is the token's user's own: every user may star what it sees" },
  // No secret input or output; declared anyway, as root (the stack's user) starring acme/web, which root has not starred.
  secrets: { declarations: [{ name: "star", args: { project: "acme/web" } }] },
} satisfies KindTests;
