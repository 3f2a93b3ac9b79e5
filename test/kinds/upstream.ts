import { apiPath } from "pulumi-platform";
import type { KindTests } from "./index.mts";

export default {
  kind: "Upstream",
  matrix: (server) => [
    {
      setup: async (n) => ({ registry: (await server.as().post<{ id: number }>(apiPath`/groups/${"acme"}/-/virtual_registries/container/registries`, { name: `for-upstream-${n}` })).id }),
      create: (n, setup) => ({ registry: setup.registry, name: `upstream ${n}`, url: `https://registry-${n}.example.test` }),
      teardown: (setup) => server.as().delete(`/virtual_registries/container/registries/${setup.registry}`),
      update: { name: "renamed" },
      without: { replace: "a registry per row: the new one's registry would be another set-up" },
    },
  ],
  // Its registry is the VirtualRegistry's declaration (the program declares the registry first).
  secrets: { declarations: [{ name: "upstream", args: { registry: { output: ["registry", "registryId"] }, name: "Docker Hub", url: "https://registry-1.docker.io", username: "puller" } }] },
} satisfies KindTests;
