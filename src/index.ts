/**
 * pulumi-platform: Pulumi resources for the platform's REST API v4.
 *
 * The resource classes, and `providers`: the dynamic ResourceProvider each
 * class passes to Pulumi, which tests and tools can call exactly as the engine does.
 */
import "./node-version"; // first: says what to do on a Node.js older than 22
import type * as pulumi from "@pulumi/pulumi";
import { definitions, type ResourceKind } from "./resources";

export * from "./resources/kinds";
export type { RefAccessLevelName, RefAccess } from "./api/protected-refs";
export type { EnvironmentAccessLevelName, DeploymentTier, DeployAccess, EnvironmentApprovalRule } from "./api/protected-environments";
export type { Entry as ExclusiveSetEntry } from "./resources/exclusive-set";
export { resetDeclarations } from "./engine/declarations";
export * from "./functions";
export * from "./actions";

/**
 * Each kind's provider as the engine's host gets it from the provider text (./engine/shim.ts), built on
 * first use: the provider's engine is loaded then, never by a program, which only declares resources.
 */
export const providers = Object.defineProperties(
  {},
  Object.fromEntries(Object.keys(definitions).map((kind) => [kind, { enumerable: true, get: () => (require("./runtime") as typeof import("./runtime")).provider(kind) }])),
) as Record<ResourceKind, Required<pulumi.dynamic.ResourceProvider>>;

export type { Connection } from "./connection";
export type { ConnectionInput, ConnectionArg } from "./engine/connections";
export { PlatformClient, ApiError, NetworkError, apiPath, closeAllPools, setClientClock } from "./client";
export type { ClientOptions, ApiErrorKind, ClientClock } from "./client";
export { PartialCreateError } from "./engine/errors";
