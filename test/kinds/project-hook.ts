import type { KindTests } from "./index.mts";

export default {
  kind: "ProjectHook",
  matrix: () => [{ create: (n) => ({ project: "acme/web", url: `https://matrix.example.test/hooks/${n}` }), update: { name: "renamed" }, replace: { project: "acme/api" } }],
  secrets: {
    declarations: [{ name: "project-hook", args: { project: "acme/web", url: "", token: "", customHeaders: { "X-Receiver-Key": "" } }, planted: { url: (marker) => `https://hook:${marker}@secrets.example.com/hooks` } }],
    structured: { customHeaders: [["customHeaders", "X-Receiver-Key"]] },
  },
} satisfies KindTests;
