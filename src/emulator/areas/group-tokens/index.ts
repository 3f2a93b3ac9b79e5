/** Credentials: group and project access tokens, personal and deploy tokens, the group's token inventory and LDAP sync. */
import { areaSeed, type EmulatorArea } from "../../area";
import { applyCredentialsSeed, credentialsSeedSchema } from "./seed";
import { groupTokenRoutes, runLdapSyncs } from "./routes";
import { resourceAccessTokenRoutes } from "./resource-tokens";
import { deployTokenRoutes } from "./deploy-tokens";
import { findCredential, isExpired } from "./model";

export const groupTokensArea: EmulatorArea = {
  name: "group-tokens",
  routes: [...groupTokenRoutes, ...resourceAccessTokenRoutes, ...deployTokenRoutes],
  tokenExpired: (state, token) => {
    const record = findCredential(state, token);
    return record !== undefined && isExpired(state, record);
  },
  runDue: runLdapSyncs,
  seed: areaSeed({ key: "credentials", schema: credentialsSeedSchema, apply: applyCredentialsSeed }),
};
