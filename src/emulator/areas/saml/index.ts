/** SAML: a group's SAML group links and its members' SAML identities. */
import { areaSeed, type EmulatorArea } from "../../area";
import { samlGroupLinkRoutes } from "./group-links";
import { samlIdentityRoutes } from "./identities";
import { applySamlIdentitySeed, samlIdentitiesSeedSchema } from "./seed";

export const samlArea: EmulatorArea = {
  name: "saml",
  routes: [...samlGroupLinkRoutes, ...samlIdentityRoutes],
  seed: areaSeed({ key: "samlIdentities", schema: samlIdentitiesSeedSchema, apply: applySamlIdentitySeed }),
};
