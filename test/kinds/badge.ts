import type { KindTests } from "./index.mts";

const link = (n: number) => ({ linkUrl: `https://matrix.example.test/${n}`, imageUrl: `https://matrix.example.test/${n}.svg` });

export default {
  kind: "Badge",
  matrix: () => [
    { create: (n) => ({ project: "acme/web", ...link(n) }), update: { name: "renamed" }, replace: { project: "acme/api" } },
    { create: (n) => ({ group: "acme", ...link(n) }), update: { name: "renamed" }, replace: { group: "acme/platform" } },
  ],
  secrets: {
    declarations: [{ name: "badge", args: { project: "acme/web", name: "secrets", linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/badge.svg" } }],
  },
} satisfies KindTests;
