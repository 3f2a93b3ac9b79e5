/** The provider's connection settings: where they come from and how bad ones are reported at preview. */
import { afterEach, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import { configOf, tokenOf, useEmulator } from "../support";

const server = useEmulator();
const badge = { project: "acme/web", linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/badge.svg" };

async function configure(extra: Record<string, string>): Promise<void> {
  await providers.Badge.configure({
    config: configOf({ "platform:url": server.emulator.url, "platform:token": tokenOf(server.emulator, "root"), ...extra }),
  });
}

describe("connection settings", () => {
  afterEach(() => configure({}));

  for (const key of ["platform:requestTimeout", "platform:retryTimeout"]) {
    it(`a ${key} that is not a positive number of seconds fails at preview, naming the key`, async () => {
      for (const bad of ["soon", "0", "-5"]) {
        await configure({ [key]: bad });
        const requests = await server.requestsDuring(async () => {
          const result = await providers.Badge.check({}, badge);
          expect(result.failures?.[0]?.reason).toContain(key);
          expect(result.failures?.[0]?.reason).toContain(`"${bad}"`);
        });
        expect(requests).toEqual([]);
      }
    });
  }

  it("timeouts in seconds, fractions allowed, bound the provider's requests", async () => {
    await configure({ "platform:requestTimeout": "0.3", "platform:retryTimeout": "1" });
    expect((await providers.Badge.check({}, badge)).failures ?? []).toEqual([]);
    server.emulator.setFaultPlan({ slowMs: 10_000, rules: [{ method: "POST", rate: 1, kinds: ["slow"] }] });
    try {
      const error = (await providers.Badge.create(badge).catch((e: unknown) => e)) as Error;
      expect(error.message).toContain("no answer from the server");
      expect(error.message).toMatch(/Gave up after \d+ attempts? in [\d.]+s \(retries stop after platform:retryTimeout, now 1s\)/);
    } finally {
      server.emulator.setFaultPlan(undefined);
    }
    // Nothing was created: every slow attempt was abandoned before the server handled it.
    expect(await server.as().list(`/projects/acme%2Fweb/badges`)).toEqual([]);
  });
});
