/** SAML: a group's SAML group links and its members' SAML identities. */
import { z } from "zod";
import { areaSeed, keyedSection, type EmulatorArea } from "../../area";
import { samlGroupLinkRoutes } from "./group-links";
import { applySamlIdentitySeed, samlIdentityRoutes } from "./identities";

export const samlArea: EmulatorArea = {
  name: "saml",
  routes: [...samlGroupLinkRoutes, ...samlIdentityRoutes],
  seed: areaSeed({ key: "samlIdentities", schema: keyedSection("top-level group full path", z.unknown()), apply: applySamlIdentitySeed }),
};
