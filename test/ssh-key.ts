/** Test keys: a fresh SSH public key, without the test runner (the secrets program's kinds load it too). */
import { generateKeyPairSync } from "node:crypto";

/** A fresh SSH public key in OpenSSH's text form (`ssh-ed25519 <base64> <comment>`). */
export function sshPublicKey(comment = "test"): string {
  const raw = generateKeyPairSync("ed25519").publicKey.export({ format: "der", type: "spki" }).subarray(-32);
  const part = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  return `ssh-ed25519 ${Buffer.concat([part(Buffer.from("ssh-ed25519")), part(raw)]).toString("base64")} ${comment}`;
}
