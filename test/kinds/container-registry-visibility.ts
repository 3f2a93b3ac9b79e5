import type { KindTests } from "./index.mts";

export default {
  kind: "ContainerRegistryVisibility",
  matrix: () => [{ create: () => ({ project: "acme/api", accessLevel: "private" }), update: { accessLevel: "enabled" }, without: { replace: "a settings resource never replaces its object" } }],
  secrets: { declarations: [{ name: "registry-visibility", args: { project: "acme/web", accessLevel: "private" } }] },
} satisfies KindTests;
