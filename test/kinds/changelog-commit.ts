import type { KindTests } from "./index.mts";

export default {
  kind: "ChangelogCommit",
  matrix: { without: "commits to the repository: test/resources/action-triggers.test.ts" },
  secrets: { without: "no secret input or output: a trigger that commits a changelog at up" },
} satisfies KindTests;
