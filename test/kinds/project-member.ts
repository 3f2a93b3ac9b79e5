import type { KindTests } from "./index.mts";
import { addUser } from "../resources/membership-support.ts";

export default {
  kind: "ProjectMember",
  matrix: (server) => [
    {
      setup: async (n) => ({ user: addUser(server, `matrix-pm-${n}`).username }),
      create: (_n, setup) => ({ project: "acme/web", user: setup.user, accessLevel: "developer" }),
      update: { accessLevel: "maintainer" },
      replace: { project: "acme/api" },
    },
    // The Owner role: only an Owner gives it, whatever role manages the project's members.
    {
      setup: async (n) => ({ user: addUser(server, `matrix-pm-owner-${n}`).username }),
      create: (_n, setup) => ({ project: "acme/web", user: setup.user, accessLevel: "owner" }),
      without: { update: "the create's row holds the rule", delete: "idem", replace: "idem" },
    },
  ],
  secrets: { without: "a membership has no secret field, input or output" },
} satisfies KindTests;
