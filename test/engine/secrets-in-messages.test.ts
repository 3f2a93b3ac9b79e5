/**
 * Secrets never appear in what the provider hands the engine to print: check
 * failures and error messages, even when a server repeats what it was sent.
 * (The end-to-end proof over the whole life cycle is test/e2e/secrets.e2e.test.ts;
 * these are its findings, one by one, through `providers.<Name>`.)
 */
import { beforeAll, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import { selfManagedSeed } from "pulumi-platform/emulator";
import { failureOf, tokenOf, useEmulator } from "../support";

const server = useEmulator({ seed: selfManagedSeed });
type Props = Record<string, unknown>;

beforeAll(async () => {
  await server.configureProviders();
});

describe("check failures of secret properties name the property in the reason only", () => {
  // The engine prints a named property's value beside the reason, in plain text even when it is secret.
  it("an invalid webhook: no property, the reason names it, the value appears nowhere", async () => {
    const webhook = "not-a-url-secret-4f1d";
    const result = await providers.GroupIntegration.check({}, { group: "acme", slug: "mattermost", webhook });
    expect(result.failures).toEqual([{ property: "", reason: expect.stringMatching(/^webhook: must be an http\(s\) URL/) }]);
    expect(JSON.stringify(result.failures)).not.toContain(webhook);
  });

  it("a rule across a secret structure (duplicate variable keys): no property, no value", async () => {
    const variables = [
      { key: "TOKEN", value: "first-secret-9a2c" },
      { key: "TOKEN", value: "second-secret-9a2c" },
    ];
    const result = await providers.PipelineSchedule.check({}, { project: "acme/web", description: "d", ref: "main", cron: "0 1 * * *", variables });
    expect(result.failures).toEqual([{ property: "", reason: expect.stringMatching(/^variables: the key TOKEN appears more than once/) }]);
  });

  it("a failure of a property that is not secret names it once, in the reason (the CLI prints a named property beside the reason)", async () => {
    const result = await providers.GroupIntegration.check({}, { group: "acme", slug: "mattermost", webhook: "https://chat.example.com/h", branchesToBeNotified: "nightly" });
    expect(result.failures).toEqual([{ property: "", reason: 'branchesToBeNotified: must be one of "all"|"default"|"protected"|"default_and_protected"' }]);
  });
});

describe("error messages mask the secrets a server repeats, and the token", () => {
  it("an API error (GroupIntegration): the new webhook and the token", async () => {
    const webhook = "https://chat.example.com/hooks/secret-7c3e";
    const token = tokenOf(server.emulator, "root");
    server.emulator.inject({ method: "PUT", path: "/groups/acme/integrations/mattermost", status: 400, body: { message: { webhook: [`${webhook} is blocked (token ${token})`] } } });
    const error = await failureOf(() => providers.GroupIntegration.create({ group: "acme", slug: "mattermost", webhook }));
    expect(error.message).toMatch(/GroupIntegration: could not create it\. PUT \/groups\/acme\/integrations\/mattermost failed with 400: webhook \[secret\] is blocked \(token \[secret\]\)/);
  });

  // ApplicationSettings keeps a prior value of its secret setting, and an update knows the old one: both masked, with the new one.
  const cases: [what: string, status: number, said: string, body: (said: string) => object, explanation: RegExp][] = [
    ["the engine's explanation of a refusal (403)", 403, "403 Forbidden", (said) => ({ message: said }), /needs administrator rights/],
    ["the engine's explanation of an offering's refusal (404: no such endpoint)", 404, "404 Not Found", (said) => ({ error: said }), /exists only on self-managed and Dedicated instances/],
  ];
  for (const [what, status, said, body, explanation] of cases) {
    it(`${what}: new, old and prior secret values, and the token`, async () => {
      await server.as().put("/application/settings", { akismet_api_key: "prior-key-5d2a" });
      const declared = { akismetEnabled: true, akismetApiKey: "first-key-5d2a" };
      const created = await providers.ApplicationSettings.create((await providers.ApplicationSettings.check({}, declared)).inputs);
      const olds = { ...declared, ...(created.outs as Props) };
      const token = tokenOf(server.emulator, "root");
      server.emulator.inject({ method: "PUT", path: "/application/settings", status, body: body(`${said} - second-key-5d2a first-key-5d2a prior-key-5d2a ${token}`) });
      const error = await failureOf(() => providers.ApplicationSettings.update(created.id, olds, { ...declared, akismetApiKey: "second-key-5d2a" }));
      expect(error.message).toMatch(explanation);
      for (const secret of ["second-key-5d2a", "first-key-5d2a", "prior-key-5d2a", token]) {
        expect(error.message).not.toContain(secret);
        expect(error.stack ?? "").not.toContain(secret);
      }
      expect(error.message).toContain(`${said} - [secret] [secret] [secret] [secret]`);
      await providers.ApplicationSettings.delete(created.id, created.outs);
    });
  }
});
