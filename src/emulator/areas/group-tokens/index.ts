/** Credentials: group and project access tokens, personal and deploy tokens, the group's token inventory and LDAP sync. */
import { z } from "zod";
import { areaSeed, type EmulatorArea } from "../../area";
import { applyCredentialsSeed } from "./model";
import { groupTokenRoutes, runLdapSyncs } from "./routes";

export const groupTokensArea: EmulatorArea = {
  name: "group-tokens",
  routes: groupTokenRoutes,
  runDue: runLdapSyncs,
  seed: areaSeed({ key: "credentials", schema: z.record(z.string(), z.unknown(), { error: "must be an object" }), apply: applyCredentialsSeed }),
};
