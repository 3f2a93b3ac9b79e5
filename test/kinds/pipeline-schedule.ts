import type { KindTests } from "./index.mts";

export default {
  kind: "PipelineSchedule",
  matrix: () => [
    {
      create: (n) => ({ project: "acme/web", description: `matrix ${n}`, ref: "main", cron: "0 2 * * *", variables: [{ key: "MODE", value: "a" }] }),
      update: { variables: [{ key: "MODE", value: "b" }] },
      replace: { project: "acme/api", ref: "develop" },
    },
    {
      create: (n) => ({ project: "acme/web", description: `matrix ${n}`, ref: "main", cron: "0 2 * * *" }),
      update: { cron: "0 3 * * *", takeOwnership: true },
      without: { delete: "the rows above", replace: "the rows above" },
    },
  ],
  secrets: {
    declarations: [
      {
        name: "schedule",
        args: {
          project: "acme/web",
          description: "Secrets test",
          ref: "main",
          cron: "0 3 * * *",
          variables: [
            { key: "FIRST_SECRET", value: "" },
            { key: "SECOND_SECRET", value: "" },
          ],
        },
      },
    ],
    structured: {
      variables: [
        ["variables", 0, "value"],
        ["variables", 1, "value"],
      ],
    },
  },
} satisfies KindTests;
