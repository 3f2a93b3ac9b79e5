import type { KindTests } from "./index.mts";

export default {
  kind: "ApplicationSettings",
  matrix: { without: "instance-wide: administrator or not, test/engine/verify.test.ts" },
  secrets: { declarations: [{ name: "instance", args: { akismetEnabled: true, recaptchaEnabled: true, signupEnabled: false } }] },
} satisfies KindTests;
