import type { KindTests } from "./index.mts";

export default {
  kind: "MergeRequest",
  matrix: () => [
    {
      create: (n) => ({ project: "acme/web", sourceBranch: "stable", targetBranch: "main", title: `matrix ${n}` }),
      update: { title: "retitled" },
      replace: { sourceBranch: "release/1.x" },
      without: { delete: "its delete closes it: the merge request stays on the server by design" },
    },
  ],
  secrets: { without: "no secret input or output" },
} satisfies KindTests;
