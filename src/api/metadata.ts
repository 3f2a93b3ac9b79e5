/** Instance metadata (`/metadata`): version, revision, edition and the cluster agent server. Any valid token may read it. */
import { z } from "zod";

export const metadata = z.looseObject({
  version: z.string(),
  revision: z.string(),
  /** The cluster agent server; its URLs and version are null when it is disabled. */
  kas: z.looseObject({
    enabled: z.boolean().nullable(),
    externalUrl: z.string().nullable(),
    externalK8sProxyUrl: z.string().nullable().optional(),
    version: z.string().nullable(),
  }),
  /** True for the enterprise edition. */
  enterprise: z.boolean().nullable(),
});

export const METADATA_PATH = "/metadata";
