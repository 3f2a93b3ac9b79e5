import type { KindTests } from "./index.mts";

export default {
  kind: "Project",
  matrix: () => [
    {
      create: (n) => ({ group: "acme", name: `matrix-${n}`, path: `matrix-${n}` }),
      update: { description: "changed by the matrix" },
      without: {
        replace: "no input replaces a project: a path change renames it, a group change transfers it",
        delete: "the server marks a project for deletion and keeps it until its period ends (test/resources/project.test.ts, test/emulator/project-lifecycle.test.ts)",
      },
    },
  ],
  // No secret input or output; declared anyway.
  secrets: { declarations: [{ name: "project", args: { group: "acme", name: "secrets-project", path: "secrets-project" } }] },
} satisfies KindTests;
