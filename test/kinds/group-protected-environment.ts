import { apiPath } from "pulumi-platform";
import type { KindTests } from "./index.mts";

export default {
  kind: "GroupProtectedEnvironment",
  matrix: (server) => [
    {
      // A group has one rule per deployment tier: each row protects a tier of a subgroup of its own.
      setup: async (n) => {
        const acme = await server.as().get<{ id: number }>(apiPath`/groups/${"acme"}`);
        const group = await server.as().post<{ full_path: string }>("/groups", { name: `Matrix PE ${n}`, path: `matrix-pe-${n}`, parent_id: acme.id });
        return { group: group.full_path };
      },
      create: (_n, setup) => ({ group: setup.group, name: "production", deployAccessLevels: [{ accessLevel: "maintainer" }] }),
      update: { deployAccessLevels: [{ accessLevel: "developer" }] },
      replace: { name: "staging" },
    },
  ],
  secrets: { without: "a protected environment has no secret field, input or output" },
} satisfies KindTests;
