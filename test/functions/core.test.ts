/**
 * The data-function layer, through the simplest lookup (getMetadata) and the
 * error-tracking key list: connection, argument checks before any request,
 * answers checked and camelCased, explained failures, the Output form.
 */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { getErrorTrackingClientKeys, getErrorTrackingClientKeysOutput, getMetadata, getMetadataOutput, getRegistryTags, providers } from "pulumi-platform";
import { configOf, useEmulator } from "../support";

const server = useEmulator();

beforeAll(async () => {
  await server.configureProviders("alice");
});

/** The value of an Output outside a program, and whether it is secret. */
async function settle<T>(output: pulumi.Output<T>): Promise<{ value: T; secret: boolean }> {
  const value = await new Promise<T>((resolve) => output.apply((inner) => resolve(inner)));
  return { value, secret: await pulumi.isSecret(output) };
}

describe("connection", () => {
  it("uses the provider's configuration, one request per lookup", async () => {
    const requests = await server.requestsDuring(() => getMetadata());
    expect(requests).toEqual([{ method: "GET", path: "/api/v4/metadata", status: 200 }]);
  });

  it("works from the environment variables alone, as in a plain script", async () => {
    const saved = { ...process.env };
    try {
      await providers.Badge.configure({ config: configOf({}) });
      process.env.PLATFORM_URL = server.emulator.url;
      process.env.PLATFORM_TOKEN = server.emulator.tokens.dev!;
      expect((await getMetadata()).version).toBe(server.emulator.state.instance.version);
    } finally {
      process.env = saved;
      await server.configureProviders("alice");
    }
  });

  it("without a URL or token, says which setting is missing and sends nothing", async () => {
    const saved = { ...process.env };
    try {
      await providers.Badge.configure({ config: configOf({}) });
      delete process.env.PLATFORM_URL;
      delete process.env.PLATFORM_TOKEN;
      const mark = server.emulator.mark();
      await expect(getMetadata()).rejects.toThrow(/getMetadata: .*platform:url.*platform:token/);
      expect(server.emulator.requestsSince(mark)).toEqual([]);
    } finally {
      process.env = saved;
      await server.configureProviders("alice");
    }
  });

  it("a rejected token is explained, and the token never appears", async () => {
    await server.configureProviders("alice", { "platform:token": "glpat-not-a-real-token" });
    try {
      const error = await getMetadata().catch((caught: Error) => caught);
      // The same words as a resource's and the preview's (test/engine/verify.test.ts).
      expect(error.message).toBe(
        "getMetadata: could not read the instance metadata. GET /metadata failed with 401: 401 Unauthorized. " +
          "The server refused the token in platform:token (or PLATFORM_TOKEN): it is mistyped, expired or revoked; set a valid one with `pulumi config set --secret platform:token <token>`.",
      );
      expect(error.message).not.toContain("glpat-not-a-real-token");
      expect(error.stack).toBe("");
      // In a program, Pulumi prints it as it is, not as an unhandled exception with a stack.
      expect(pulumi.RunError.isInstance(error)).toBe(true);
    } finally {
      await server.configureProviders("alice");
    }
  });
});

describe("arguments", () => {
  it("a bad argument names the argument and the rule, with no request sent", async () => {
    const mark = server.emulator.mark();
    await expect(getRegistryTags({ project: "acme/web", repositoryId: -1, sort: "sideways" as never })).rejects.toThrow(
      /getRegistryTags: invalid arguments: repositoryId: .*; sort: .*"asc".*"desc".* No request was sent\./,
    );
    await expect(getRegistryTags({ project: "acme web" as never, repositoryId: 1 })).rejects.toThrow(/project: must be a numeric id or a full path/);
    await expect(getRegistryTags({ project: "acme/web", repositoryId: 1, limit: 0 })).rejects.toThrow(/limit: /);
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });

  it("an unknown argument is refused with the nearest known name", async () => {
    const mark = server.emulator.mark();
    await expect(getRegistryTags({ project: "acme/web", repositoryID: 1 } as never)).rejects.toThrow(
      /repositoryID: unknown property; did you mean repositoryId\?/,
    );
    expect(server.emulator.requestsSince(mark)).toEqual([]);
  });
});

describe("failures", () => {
  it("a missing owner is an error that names it, never an empty result", async () => {
    const error = (await getErrorTrackingClientKeys({ project: "acme/no-such-project" }).catch((caught: Error) => caught)) as Error;
    expect(error.message).toMatch(/getErrorTrackingClientKeys: the error tracking client keys of project acme\/no-such-project was not found: GET .* answered 404 \(404 Project Not Found\)/);
  });

  it("the same client as the resources: a failing or throttled server is retried", async () => {
    server.emulator.setFaultPlan({ rules: [{ method: "GET", path: "/metadata", sequence: ["error-502", "rate-limit", "connection-reset"] }] });
    try {
      const requests = await server.requestsDuring(() => getMetadata());
      expect(requests.map((r) => r.status)).toEqual([502, 429, 0, 200]);
    } finally {
      server.emulator.setFaultPlan(undefined);
    }
  });

  it("a server that is not the platform's API fails clearly", async () => {
    server.emulator.inject({ method: "GET", path: "/api/v4/metadata", status: 200, body: { hello: "world" } });
    await expect(getMetadata()).rejects.toThrow(/getMetadata: the server's answer for the instance metadata is not what the API specifies \(version: .*\)\. Check that platform:url/);
  });
});

describe("the Output form", () => {
  it("takes inputs and gives the same result as the Promise form, not secret", async () => {
    const { value, secret } = await settle(getMetadataOutput());
    expect(value).toEqual(await getMetadata());
    expect(value.kas).toHaveProperty("externalUrl");
    expect(secret).toBe(false);
  });

  it("a result holding a DSN is a secret Output", async () => {
    const project = pulumi.output("acme/web");
    const { value, secret } = await settle(getErrorTrackingClientKeysOutput({ project }));
    expect(value.length).toBeGreaterThan(0);
    expect(value[0]!.sentryDsn).toMatch(/^https?:\/\//);
    expect(secret).toBe(true);
  });
});
