import type { KindTests } from "./index.mts";

export default {
  kind: "EpicLink",
  matrix: { without: "the membership it needs depends on a flag and the epic, which the preview does not read" },
  // No secret input or output, but nothing stops declaring it here: acme&1 takes the unassigned epic 5 on the Ultimate instance.
  secrets: { declarations: [{ name: "epic-link", args: { group: "acme", epicIid: 1, childEpicId: 5 } }] },
} satisfies KindTests;
