/** Credentials: group and project access tokens, personal and deploy tokens, the group's token inventory and LDAP sync. */
import { areaSeed, type EmulatorArea } from "../../area";
import { applyCredentialsSeed, credentialsSeedSchema } from "./seed";
import { groupTokenRoutes, runLdapSyncs } from "./routes";

export const groupTokensArea: EmulatorArea = {
  name: "group-tokens",
  routes: groupTokenRoutes,
  runDue: runLdapSyncs,
  seed: areaSeed({ key: "credentials", schema: credentialsSeedSchema, apply: applyCredentialsSeed }),
};
