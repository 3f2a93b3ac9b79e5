import type { KindTests } from "./index.mts";

export default {
  kind: "SamlIdentity",
  matrix: { without: "needs a SAML identity per member: test/resources/saml-identity.test.ts" },
  secrets: {
    without:
      "no secret input or output (an extern_uid is an identifier), and group SAML identities exist on the hosted offering only, while the secrets program runs on a self-managed instance",
  },
} satisfies KindTests;
