/**
 * Deploy keys of a project (`/projects/:id/deploy_keys`): SSH public keys
 * that open the project's repository, read-only or with push. One key may be
 * enabled on several projects: posting a key that exists on a project the
 * token's user maintains enables that key, with its id.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { requestsOf } from "./core";
import { idForm } from "./id-form";
import type { Needs } from "./needs";
import { onProject } from "./owner";

/** A deploy key as a project lists it (`Entities::DeployKeysProject`). */
export const deployKey = z.looseObject({
  id: z.number(),
  title: z.string(),
  key: z.string(),
  created_at: z.string().optional(),
  /** A time, or null for none. */
  expires_at: z.string().nullable().optional(),
  fingerprint: z.string().nullable().optional(),
  fingerprint_sha256: z.string().nullable().optional(),
  /** Absent from `enable`'s answer. */
  can_push: z.boolean().optional(),
});
export type DeployKey = z.output<typeof deployKey>;
export const deployKeyRequests = requestsOf(deployKey);

/** `Gitlab::SSHPublicKey`'s key types. */
export const SSH_KEY_TYPES = [
  "ssh-rsa",
  "ssh-dss",
  "ssh-ed25519",
  "ecdsa-sha2-nistp256",
  "ecdsa-sha2-nistp384",
  "ecdsa-sha2-nistp521",
  "sk-ecdsa-sha2-nistp256@openssh.com",
  "sk-ssh-ed25519@openssh.com",
] as const;

/** Whether `text` is an SSH public key: `<type> <base64 blob> [comment]`, the blob naming the same type. */
export function isSshPublicKey(text: string): boolean {
  const [type, encoded] = text.trim().split(/\s+/);
  if (type === undefined || encoded === undefined || !(SSH_KEY_TYPES as readonly string[]).includes(type) || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return false;
  const blob = Buffer.from(encoded, "base64");
  if (blob.length < 4) return false;
  const length = blob.readUInt32BE(0);
  return length === type.length && blob.subarray(4, 4 + length).toString("latin1") === type && blob.length > 4 + length;
}

/** An SSH public key, as the server validates it (at most 5,000 characters: one line of `authorized_keys`). */
export const sshPublicKey = z
  .string()
  .max(5000, { message: "must be at most 5000 characters" })
  .refine(isSshPublicKey, { message: `must be an SSH public key: "<type> <base64 key> [comment]", the type one of ${SSH_KEY_TYPES.join(", ")}` });

/** `/projects/acme%2Fweb/deploy_keys`. */
export const deployKeysPath = (project: string | number): string => apiPath`/projects/${project}/deploy_keys`;

const DEPLOY_KEY_ID = /^projects\/([^/]+)\/deploy_keys\/(\d+)$/;
export const deployKeyIdOf = (project: string | number, keyId: number): string => `projects/${encodeURIComponent(String(project))}/deploy_keys/${keyId}`;
export function parseDeployKeyId(id: string): { path: string; project: string; keyId: number } | undefined {
  const match = DEPLOY_KEY_ID.exec(id);
  return match ? { path: "/" + id, project: decodeURIComponent(match[1]!), keyId: Number(match[2]) } : undefined;
}
export const deployKeyIdForm = idForm("of the form projects/<project>/deploy_keys/<key id>", parseDeployKeyId);

/** Deploy keys need `admin_project`: the Maintainer role. */
export const deployKeyNeeds = (args: { project: string | number }): Needs => ({ on: onProject(args.project), role: "Maintainer" });
