import { sshPublicKey } from "../ssh-key.ts";
import type { KindTests } from "./index.mts";

export default {
  kind: "DeployKey",
  matrix: () => [{ create: (n) => ({ project: "acme/web", title: `matrix-${n}`, key: sshPublicKey(`matrix-${n}`) }), update: { canPush: true }, replace: { key: sshPublicKey("replaced") } }],
  secrets: { without: "a deploy key is a public key: it has no secret input or output" },
} satisfies KindTests;
