/**
 * Where the provider's connection settings come from: the stack config
 * `platform:url` and `platform:token`, read by `configure`, or the environment
 * variables `PLATFORM_URL` and `PLATFORM_TOKEN` when the config is absent.
 * They live in this module's state only, never in the serialized provider.
 */
import { PlatformClient } from "./client";

export interface ConfigSource {
  get(key: string): string | undefined;
}

interface Settings {
  url?: string;
  token?: string;
}

let configured: Settings = {};
let cachedClient: { key: string; client: PlatformClient } | undefined;

/** Called from the provider's `configure` with the stack's config. */
export function configureConnection(config: ConfigSource): void {
  configured = {
    url: nonEmpty(config.get("platform:url")),
    token: nonEmpty(config.get("platform:token")),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** The settings in force, or a message that says which one is missing and how to give it. */
export function connectionProblem(): string | undefined {
  const { url, token } = current();
  const missing: string[] = [];
  if (!url) missing.push("the server URL: `pulumi config set platform:url https://platform.example.com` (or PLATFORM_URL)");
  if (!token) missing.push("an access token: `pulumi config set --secret platform:token <token>` (or PLATFORM_TOKEN)");
  if (missing.length) return `The platform provider is not configured; it needs ${missing.join(" and ")}.`;
  try {
    const parsed = new URL(url!);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("not http(s)");
  } catch {
    return `platform:url must be an http(s) URL such as https://platform.example.com; got "${url}".`;
  }
  return undefined;
}

function current(): Settings {
  return {
    url: configured.url ?? nonEmpty(process.env.PLATFORM_URL),
    token: configured.token ?? nonEmpty(process.env.PLATFORM_TOKEN),
  };
}

/** The API client for the configured server; one per process and settings. */
export function client(): PlatformClient {
  const problem = connectionProblem();
  if (problem) throw new Error(problem);
  const { url, token } = current() as Required<Settings>;
  const key = `${url}\n${token}`;
  if (cachedClient?.key !== key) cachedClient = { key, client: new PlatformClient({ url, token }) };
  return cachedClient.client;
}
