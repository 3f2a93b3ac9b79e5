/**
 * Warnings the CLI shows, from inside the dynamic provider.
 *
 * `pulumi.log.warn` does not reach the CLI from the dynamic provider host: the
 * SDK's log goes to the engine whose address the *program's* runtime knows,
 * and the host process never sets it (`cmd/dynamic-provider/index.js` only
 * serves gRPC). But the engine starts every plugin with its own gRPC address
 * as the first argument (`pulumi-resource-pulumi-nodejs <engine>`), and its
 * `Engine.Log` service prints what it is sent as a diagnostic of the run:
 * `warning: ...` in the preview's output: the run's, or a resource's own
 * when the request carries its URN (listed under that resource, as
 * `pulumi.log.warn(message, resource)` in a program is). So this module sends
 * the warning there, with the SDK's own generated gRPC client. Outside the
 * host (tests, scripts) it goes to `console.warn`.
 */
import { createRequire } from "node:module";
import { withoutSeenSecrets } from "./seen-secrets";

interface LogRequest {
  setSeverity(severity: number): void;
  setMessage(message: string): void;
  setUrn(urn: string): void;
}
interface EngineClient {
  log(request: LogRequest, callback: (error: Error | null) => void): void;
}
interface EngineProto {
  LogRequest: new () => LogRequest;
  LogSeverity: { WARNING: number };
}

let engine: { client: EngineClient; proto: EngineProto } | null | undefined;

/** The engine's address among the host's arguments (after any logging flags the engine passes first). */
function engineAddress(): string | undefined {
  return process.argv.slice(2).find((arg) => /^[^-].*:\d+$/.test(arg));
}

/** Whether this process is the dynamic provider host the engine started (`<host> [flags] <engine address>`): one per run. */
export function inProviderHost(): boolean {
  return /dynamic-provider/.test(process.argv[1] ?? "") && engineAddress() !== undefined;
}

/** The engine's Log service when this process is the dynamic provider host; null elsewhere. */
function engineLog(): typeof engine {
  if (engine !== undefined) return engine;
  const address = engineAddress();
  if (!inProviderHost()) return (engine = null);
  try {
    // Through the SDK's own dependencies, so the versions match what the host itself uses.
    const sdk = createRequire(require.resolve("@pulumi/pulumi"));
    const grpc = sdk("@grpc/grpc-js") as { credentials: { createInsecure(): unknown } };
    const services = sdk("./proto/engine_grpc_pb") as { EngineClient: new (address: string, credentials: unknown) => EngineClient };
    const proto = sdk("./proto/engine_pb") as EngineProto;
    engine = { client: new services.EngineClient(address!, grpc.credentials.createInsecure()), proto };
  } catch {
    engine = null;
  }
  return engine;
}

/** Shows `text` (with the secret values seen masked) as a warning of the current run, under the resource `urn` names when given (resolves once the engine has it). */
export function warn(text: string, urn = ""): Promise<void> {
  // A warning may quote a server that repeats a value the program gave as a secret.
  const message = withoutSeenSecrets(text);
  const log = engineLog();
  if (!log) {
    console.warn(`warning: ${message}`);
    return Promise.resolve();
  }
  const request = new log.proto.LogRequest();
  request.setSeverity(log.proto.LogSeverity.WARNING);
  request.setMessage(message);
  request.setUrn(urn);
  return new Promise((resolve) => {
    log.client.log(request, (error) => {
      if (error) console.warn(`warning: ${message}`);
      resolve();
    });
  });
}
