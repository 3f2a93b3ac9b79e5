import { addUser } from "../resources/membership-support.ts";
import type { KindTests } from "./index.mts";

export default {
  kind: "GroupMember",
  matrix: (server) => [
    {
      setup: async (n) => ({ user: addUser(server, `matrix-gm-${n}`).username }),
      create: (_n, setup) => ({ group: "acme", user: setup.user, accessLevel: "developer" }),
      update: { accessLevel: "maintainer" },
      replace: { group: "acme/platform" },
    },
  ],
  secrets: { without: "a membership has no secret field, input or output" },
} satisfies KindTests;
