/**
 * Deploy tokens of projects and groups (`/projects/:id/deploy_tokens`,
 * `/groups/:id/deploy_tokens`): the answers, paths, id forms and needs. The
 * token itself is in the create's answer only.
 */
import { z } from "zod";
import { requestsOf } from "./core";
import { idForm } from "./id-form";
import type { Needs } from "./needs";
import { ownerNamedBy, ownerOf, type OwnerKind } from "./owner";

/** A deploy token as listed and read (`Entities::DeployToken`): never the token. */
export const deployToken = z.looseObject({
  id: z.number(),
  name: z.string(),
  username: z.string(),
  /** A time, or null for none. */
  expires_at: z.string().nullable(),
  scopes: z.array(z.string()),
  revoked: z.boolean().optional(),
  expired: z.boolean().optional(),
});
export type DeployToken = z.output<typeof deployToken>;
export const deployTokenWithToken = deployToken.extend({ token: z.string() });
export type DeployTokenWithToken = z.output<typeof deployTokenWithToken>;
export const deployTokenRequests = requestsOf(deployToken);
export const newDeployTokenRequests = requestsOf(deployTokenWithToken);

/** `DeployToken::AVAILABLE_SCOPES`. */
export const DEPLOY_TOKEN_SCOPES = [
  "read_repository",
  "read_registry",
  "write_registry",
  "read_package_registry",
  "write_package_registry",
  "read_virtual_registry",
  "write_virtual_registry",
] as const;

/** `/projects/acme%2Fweb/deploy_tokens` or `/groups/acme/deploy_tokens`. */
export const deployTokensPath = (owner: { project?: string | number; group?: string | number }): string => `${ownerOf(owner).path}/deploy_tokens`;

const DEPLOY_TOKEN_ID = /^(projects|groups)\/([^/]+)\/deploy_tokens\/(\d+)$/;
export const deployTokenIdOf = (kind: OwnerKind, owner: string | number, tokenId: number): string => `${kind}s/${encodeURIComponent(String(owner))}/deploy_tokens/${tokenId}`;
export function parseDeployTokenId(id: string): { kind: OwnerKind; path: string; tokenId: number } | undefined {
  const match = DEPLOY_TOKEN_ID.exec(id);
  return match ? { kind: match[1] === "projects" ? "project" : "group", path: "/" + id, tokenId: Number(match[3]) } : undefined;
}
export const deployTokenIdForm = idForm("of the form projects/<project>/deploy_tokens/<id> or groups/<group>/deploy_tokens/<id>", parseDeployTokenId);

/** Deploy tokens need `*_deploy_token`: Maintainer of a project, Owner of a group. */
export const deployTokenNeeds = (args: { project?: string | number; group?: string | number }): Needs => ({
  on: ownerNamedBy(args),
  role: args.project !== undefined ? "Maintainer" : "Owner",
});



