/**
 * Instance metadata: `GET /version` and
 * `GET /metadata` return the same object and need an access token.
 */
import { requireUser, route, ok } from "../../router";
import { type EmulatorArea } from "../../area";
import type { InstanceInfo } from "../../state";

export function presentMetadata(instance: InstanceInfo): Record<string, unknown> {
  return {
    version: instance.version,
    revision: instance.revision,
    kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    enterprise: instance.enterprise,
  };
}

const metadata = route("GET", "/metadata", {}, (ctx) => {
  requireUser(ctx);
  return ok(presentMetadata(ctx.state.instance));
});

const version = route("GET", "/version", {}, (ctx) => {
  requireUser(ctx);
  return ok(presentMetadata(ctx.state.instance));
});

export const metadataArea: EmulatorArea = { name: "metadata", routes: [metadata, version] };
