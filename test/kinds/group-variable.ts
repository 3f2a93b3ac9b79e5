import type { KindTests } from "./index.mts";

export default {
  kind: "GroupVariable",
  matrix: () => [
    { create: (n) => ({ group: "acme", key: `MATRIX_${n}`, value: `value-${n}` }), update: { raw: true }, replace: { environmentScope: "staging" } },
    // A Free group has no scopes: a scope other than * is refused at preview, and by the server's answer.
    { create: (n) => ({ group: "beta", key: `MATRIX_${n}`, value: `value-${n}` }), update: { protected: true }, without: { replace: "a scope on a Free group: test/resources/ci-variable.test.ts" } },
  ],
  secrets: { declarations: [{ name: "group-variable", args: { group: "acme", key: "SECRETS_PLAN", value: "planted" } }] },
} satisfies KindTests;
