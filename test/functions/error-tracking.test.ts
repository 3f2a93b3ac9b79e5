/** getErrorTrackingClientKeys against the emulator. */
import { beforeAll, describe, expect, it } from "vitest";
import { getErrorTrackingClientKeys } from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

// acme/api with 120 keys: two pages.
const seed: Seed = {
  ...defaultSeed,
  errorTracking: { ...(defaultSeed.errorTracking as object), "acme/api": { clientKeys: Array.from({ length: 120 }, () => ({})) } },
};
const server = useEmulator({ seed });

beforeAll(async () => {
  await server.configureProviders("maintainer");
});

describe("getErrorTrackingClientKeys", () => {
  it("a project's keys in camelCase, the DSN among them", async () => {
    const [key, ...others] = await getErrorTrackingClientKeys({ project: "acme/web" });
    expect(others).toEqual([]);
    expect(key).toEqual({ id: expect.any(Number), active: true, publicKey: "glet_3d4f6a8b0c1e2d3f4a5b6c7d8e9f0a1b", sentryDsn: expect.stringContaining("glet_3d4f6a8b0c1e2d3f4a5b6c7d8e9f0a1b@") });
  });

  it("every key across pages, 100 a request", async () => {
    const requests = await server.requestsDuring(async () => expect(await getErrorTrackingClientKeys({ project: "acme/api" })).toHaveLength(120));
    expect(requests).toHaveLength(2);
  });

  it("a project without keys is an empty list", async () => {
    expect(await getErrorTrackingClientKeys({ project: "acme/platform/infra" })).toEqual([]);
  });

  it("a Developer may not list them, and is told what is needed", async () => {
    await server.configureProviders("dev");
    try {
      const error = (await getErrorTrackingClientKeys({ project: "acme/web" }).catch((caught: Error) => caught)) as Error;
      expect(error.message).toMatch(/getErrorTrackingClientKeys: could not read the error tracking client keys of project acme\/web: .*403.*at least the Maintainer role/);
      expect(error.message).not.toContain("glet_");
    } finally {
      await server.configureProviders("maintainer");
    }
  });
});
