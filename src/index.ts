/**
 * pulumi-platform: Pulumi resources for the platform's REST API v4.
 *
 * The resource classes, and `providers`: the dynamic ResourceProvider each
 * class passes to Pulumi, which tests and tools can call exactly as the engine does.
 */
import type * as pulumi from "@pulumi/pulumi";
import { providerShim } from "./engine/shim";
import { definitions, type ResourceKind } from "./resources";

export { Badge, type BadgeArgs } from "./resources/badge";

export const providers = Object.fromEntries(Object.keys(definitions).map((kind) => [kind, providerShim(kind)])) as Record<
  ResourceKind,
  Required<pulumi.dynamic.ResourceProvider>
>;

export { PlatformClient, ApiError, NetworkError, apiPath, closeAllPools } from "./client";
export type { ClientOptions, ApiErrorKind } from "./client";
export { PartialCreateError } from "./engine/provider";
