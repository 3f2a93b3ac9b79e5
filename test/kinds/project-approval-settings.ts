import type { KindTests } from "./index.mts";

export default {
  kind: "ProjectApprovalSettings",
  matrix: () => [{ create: () => ({ project: "acme/api", mergeRequestsAuthorApproval: true }), update: { mergeRequestsAuthorApproval: false }, without: { replace: "a settings resource never replaces its object" } }],
  secrets: { without: "merge request approval settings have no secret field, input or output" },
} satisfies KindTests;
