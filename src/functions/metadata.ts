/**
 * Instance metadata: `GET /metadata`.
 * Any valid token may read it.
 */
import { z } from "zod";
import { METADATA_PATH, metadata as metadataShape } from "../api/metadata";
import { defineObjectFunction, type Camelized, type FunctionOutputOptions } from "./core";

/** What `getMetadata` returns. */
export type Metadata = Camelized<z.output<typeof metadataShape>>;

const metadata = defineObjectFunction({
  name: "getMetadata",
  args: z.object({}),
  path: () => METADATA_PATH,
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
