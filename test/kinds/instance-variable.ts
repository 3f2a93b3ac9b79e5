import type { KindTests } from "./index.mts";

export default {
  kind: "InstanceVariable",
  matrix: { without: "instance-wide, self-managed only (the matrix's seed is hosted): administrator or not, test/resources/ci-variable.test.ts" },
  secrets: { declarations: [{ name: "instance-variable", args: { key: "SECRETS_PLAN", value: "planted" } }] },
} satisfies KindTests;
