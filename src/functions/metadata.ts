/**
 * Instance metadata: `GET /metadata`.
 * Any valid token may read it.
 */
import { z } from "zod";
import { defineObjectFunction, type Camelized, type FunctionOutputOptions } from "./core";

const metadataShape = z.looseObject({
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

/** What `getMetadata` returns. */
export type Metadata = Camelized<z.output<typeof metadataShape>>;

const metadata = defineObjectFunction({
  name: "getMetadata",
  args: z.object({}),
  path: () => "/metadata",
  subject: () => "the instance metadata",
  result: metadataShape,
});

/**
 * The instance's version, revision, edition and cluster agent server.
 *
 * ```ts
 * const { version, enterprise } = await getMetadata();
 * ```
 */
export const getMetadata = (): Promise<Metadata> => metadata({});
/** `getMetadata` as an Output (it takes no arguments, only options). */
export const getMetadataOutput = (opts?: FunctionOutputOptions) => metadata.output({}, opts);
