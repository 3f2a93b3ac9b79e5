/**
 * The connection settings (src/connection.ts) as one declaration and a
 * `Connections` of a process's own: where each stack setting comes from, in
 * which order, how messages name it, and that two `Connections` share
 * nothing (the module keeps no state). The provider's use of them against a
 * server is in test/client/ and test/engine/.
 */
import { describe, expect, it } from "vitest";
import { type ConfigSource, Connections, type ConnectionsOptions, SECRET_SETTINGS, stackSettings } from "../src/connection.ts";

const source = (values: Record<string, string>): ConfigSource => ({ get: (key) => values[key] });

function connections(options: Partial<{ config: Record<string, string>; program: Record<string, string>; environment: NodeJS.ProcessEnv }> = {}) {
  const warnings: string[] = [];
  const made = new Connections({
    warn: (message) => warnings.push(message),
    programConfig: source(options.program ?? {}),
    environment: () => options.environment ?? {},
  } satisfies ConnectionsOptions);
  if (options.config) made.configure(source(options.config));
  return { made, warnings };
}

describe("the stack's settings", () => {
  it("come from the provider's config, else the program's, else the environment, one by one", () => {
    const { made } = connections({
      config: { "platform:url": "https://configured.example.com", "platform:token": "glpat-configured" },
      environment: { PLATFORM_URL: "https://environment.example.com", PLATFORM_RETRY_TIMEOUT: "90" },
    });
    expect(made.stackSettings()).toMatchObject({ url: "https://configured.example.com", token: "glpat-configured", retryTimeout: "90" });
    const unconfigured = connections({ program: { "platform:url": "https://program.example.com" }, environment: { PLATFORM_URL: "https://environment.example.com", PLATFORM_TOKEN: "glpat-env" } }).made;
    expect(unconfigured.stackSettings()).toMatchObject({ url: "https://program.example.com", token: "glpat-env" });
  });

  it("verifyAtPreview is read the same way: on unless false", () => {
    expect(connections().made.verifyAtPreview()).toBe(true);
    expect(connections({ environment: { PLATFORM_VERIFY_AT_PREVIEW: "FALSE" } }).made.verifyAtPreview()).toBe(false);
    expect(connections({ config: { "platform:verifyAtPreview": "true" }, environment: { PLATFORM_VERIFY_AT_PREVIEW: "false" } }).made.verifyAtPreview()).toBe(true);
  });

  it("CI_JOB_TOKEN stands in only when no access token is set", () => {
    expect(connections({ environment: { PLATFORM_URL: "https://a.example.com", CI_JOB_TOKEN: "job" } }).made.stackSettings().jobToken).toBe("job");
    expect(connections({ environment: { PLATFORM_URL: "https://a.example.com", PLATFORM_TOKEN: "glpat-a", CI_JOB_TOKEN: "job" } }).made.stackSettings().jobToken).toBeUndefined();
  });

  it("two Connections share nothing: one's configuration is not the other's", () => {
    const configured = connections({ config: { "platform:url": "https://configured.example.com", "platform:token": "glpat-configured" } }).made;
    const other = connections({ environment: { PLATFORM_URL: "https://other.example.com", PLATFORM_TOKEN: "glpat-other" } }).made;
    expect([configured.url(), other.url()]).toEqual(["https://configured.example.com", "https://other.example.com"]);
  });

  it("messages name a setting by its config key and its declared environment variable", () => {
    const { made } = connections({ config: { "platform:url": "https://a.example.com", "platform:token": "glpat-a", "platform:requestTimeout": "soon" } });
    expect(made.problem()).toBe('platform:requestTimeout (or PLATFORM_REQUEST_TIMEOUT) is the time in seconds allowed for one attempt of a request: a positive number such as 30; got "soon".');
    expect(connections().made.problem()).toMatch(/^The platform provider is not configured; it needs the server URL: .* \(or PLATFORM_URL\) and an access token: .* \(or PLATFORM_TOKEN\)\.$/);
  });

  it("skipped TLS verification is said through the warning it was given, once per server", () => {
    const { made, warnings } = connections({ config: { "platform:url": "https://a.example.com", "platform:token": "glpat-a", "platform:insecure": "true" } });
    made.problem();
    made.problem();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("TLS verification is off for https://a.example.com");
  });
});

describe("a resource's or a function's own connection", () => {
  it("takes the declared settings but verifyAtPreview, and keeps the token, the job token, the client key and the headers secret", () => {
    expect(Object.keys(stackSettings.shape)).toContain("verifyAtPreview");
    expect(SECRET_SETTINGS).toEqual(["token", "jobToken", "clientKey", "headers"]);
  });

  it("is in force while withConnection runs, named as connection.<setting>", () => {
    const { made } = connections({ config: { "platform:url": "https://stack.example.com", "platform:token": "glpat-stack" } });
    expect(made.withConnection({ url: "https://other.example.com" }, () => [made.ownConnectionInForce(), made.problem()])).toEqual([
      true,
      "The connection given is incomplete; it needs an access token (connection.token).",
    ]);
    expect(made.ownConnectionInForce()).toBe(false);
  });
});
