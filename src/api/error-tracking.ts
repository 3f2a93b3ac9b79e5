/**
 * Error tracking of a project: its client keys
 * (`/projects/:id/error_tracking/client_keys`). There is no GET of one key,
 * and the POST takes the project's numeric id only.
 */
import { z } from "zod";
import { apiPath } from "../client";
import type { Needs } from "./needs";
import { requestsOf } from "./core";
import { onProject } from "./owner";
import { idForm } from "./id-form";

/** Error tracking settings and keys need admin_operations: the Maintainer role, and a token with the api scope. */
export const clientKeyNeeds = (args: { project: string | number }): Needs => ({
  on: onProject(args.project),
  role: "Maintainer",
  phrase: "at least the Maintainer role (and a token with the api scope)",
});

/** A client key as the API returns it; `sentry_dsn` and `public_key` are secrets. */
export const clientKey = z.looseObject({
  id: z.number(),
  active: z.boolean().nullable(),
  public_key: z.string(),
  /** The DSN an error-reporting SDK is configured with. Secret. */
  sentry_dsn: z.string(),
});
export type ClientKey = z.output<typeof clientKey>;
export const clientKeyRequests = requestsOf(clientKey);

/** `/projects/12/error_tracking/client_keys` (or with a full path, for reads). */
export const clientKeysPath = (project: string | number): string => apiPath`/projects/${project}/error_tracking/client_keys`;

const KEY_ID = /^(projects\/\d+\/error_tracking\/client_keys)\/(\d+)$/;

/** A key's recorded id: `projects/<project id>/error_tracking/client_keys/<key id>`. */
export const clientKeyId = (projectId: number, keyId: number): string => `${clientKeysPath(projectId).slice(1)}/${keyId}`;

/** A recorded key id read back: the keys' path and the key's id; undefined when it is not one. */
export function parseClientKeyId(id: string): { keysPath: string; keyId: number } | undefined {
  const match = KEY_ID.exec(id);
  return match ? { keysPath: "/" + match[1], keyId: Number(match[2]) } : undefined;
}

/** A client key id as resources record it. */
export const clientKeyIdForm = idForm("of the form projects/<project id>/error_tracking/client_keys/<key id>", parseClientKeyId);
