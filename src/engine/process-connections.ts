/**
 * The connections of this process (../connection.ts): the stack's settings as
 * the provider's `configure` gave them, the own connection in force during an
 * operation, and the clients made. One per process, made here, in the layer
 * that is configured and that knows where a warning reaches the user.
 */
import { Connections, type ConfigSource, type Connection } from "../connection";
import type { PlatformClient } from "../client";
import { warn as engineWarn } from "./engine-log";

const connections = new Connections({
  warn(message) {
    // In a program (data functions) the SDK's log reaches the CLI; in the provider host it does not (./engine-log.ts).
    const { log, runtime } = require("@pulumi/pulumi") as typeof import("@pulumi/pulumi");
    void (runtime.hasEngine() ? log.warn(message) : engineWarn(message));
  },
  // Read raw through the SDK's runtime (`Config.get` would warn about the secret token). The SDK is already
  // loaded wherever the package is (its resource classes need it), so this costs no load.
  programConfig: { get: (key) => (require("@pulumi/pulumi") as typeof import("@pulumi/pulumi")).runtime.getConfig(key) },
  // A test may replace process.env as a whole: read where it is at each reading.
  environment: () => process.env,
});

/** Called from the provider's `configure` with the stack's config (and by the commands that act as the provider). */
export function configureConnection(config: ConfigSource): void {
  connections.configure(config);
}

/** The API client for the server in force: the operation's own connection, else the stack's. */
export function client(): PlatformClient {
  return connections.client();
}

/** The settings in force, or a message that says which one is wrong and how to give it. */
export function connectionProblem(): string | undefined {
  return connections.problem();
}

/** Whether `check` verifies against the server what it would refuse (./verify.ts). */
export function verifyAtPreview(): boolean {
  return connections.verifyAtPreview();
}

/** The username of the user whose token will apply the program, when it is not the token's own user (./verify.ts). */
export function applyAs(): string | undefined {
  return connections.applyAs();
}

/** Runs `operation` with a resource's or a function's own `connection` in force; without one, the stack's stays in force. */
export function withConnection<T>(connection: Partial<Connection> | undefined, operation: () => T): T {
  return connections.withConnection(connection, operation);
}

/** Whether a resource's or a function's own connection is in force (not the stack's settings). */
export function ownConnectionInForce(): boolean {
  return connections.ownConnectionInForce();
}

/** The token and the header values in force, for error messages to mask should a server repeat them. */
export function connectionSecrets(): string[] {
  return connections.secrets();
}

/** The URL of `connection`, else of the stack's, for comparing connections. */
export function connectionUrl(connection?: Partial<Connection>): string | undefined {
  return connections.url(connection);
}

/** The stack's settings a client cannot do without that neither the config in force nor the environment gives: `platform:url`, `platform:token`. */
export function missingStackSettings(): string[] {
  const { url, token, jobToken } = connections.stackSettings();
  return [...(url ? [] : ["platform:url"]), ...(token || jobToken ? [] : ["platform:token"])];
}
