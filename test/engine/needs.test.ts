/**
 * One declaration of needs (src/api/needs.ts), one wording: what a
 * resource's `needs` says is what the preview's check failure, the
 * explanation of a refused request and a data function's refusal all say,
 * each derived from the same values.
 */
import { afterEach, describe, expect, it } from "vitest";
import { getGroupIntegrations, getSamlGroupLinks, providers } from "pulumi-platform";
import { roleNeeded, tierNeeded } from "../../src/client";
import { needsInWords, ownerInWords, roleInWords, tierInWords, type Needs } from "../../src/api/needs";
import { groupIntegrationDefinition } from "../../src/resources/group-integration";
import { samlGroupLinkDefinition } from "../../src/resources/saml-group-link";
import { useEmulator } from "../support";

const server = useEmulator();
const CHAT = { group: "acme", slug: "mattermost", webhook: "https://chat.example.test/hooks/x" };

afterEach(() => server.configureProviders());

describe("the words of a need", () => {
  it("a role, a tier and an owner, each in one wording", () => {
    expect(roleInWords("Owner")).toBe("the Owner role");
    expect(roleInWords("Maintainer")).toBe("at least the Maintainer role");
    expect(roleInWords("administrator")).toBe("administrator rights");
    expect(tierInWords("premium")).toBe("Premium or Ultimate");
    expect(tierInWords("ultimate")).toBe("Ultimate");
    expect(ownerInWords({ kind: "project", property: "project", ref: "acme/web" })).toBe("project acme/web");
    expect(ownerInWords({ kind: "instance" })).toBe("the instance");
    expect(ownerInWords({ kind: "described", what: "the registry's group" })).toBe("the registry's group");
  });

  it("a phrase says more than the role value; a subject more than the owner", () => {
    const needs: Needs = { on: { kind: "group", property: "group", ref: "acme" }, subject: "epic &3 of group acme", role: "Developer", phrase: "push access", tier: "ultimate" };
    expect(needsInWords(needs)).toEqual({ subject: "epic &3 of group acme", role: { phrase: "push access" }, tier: "ultimate" });
    expect(roleNeeded(needsInWords(needs).role!, "group acme")).toBe("the token's user needs push access on group acme");
  });
});

describe("one declaration, the same words at preview, on a refused request and from a function", () => {
  it("a role: GroupIntegration and getGroupIntegrations need at least the Maintainer role on the group", async () => {
    const words = needsInWords(groupIntegrationDefinition.needs!(CHAT as never, "create"));
    const said = roleNeeded(words.role!, words.subject);
    expect(said).toBe("the token's user needs at least the Maintainer role on group acme");

    await server.configureProviders("dev", { "platform:verifyAtPreview": "true" });
    const checked = await providers.GroupIntegration.check({}, CHAT);
    expect(checked.failures?.map((failure) => failure.reason)).toEqual([
      `group: ${roleNeeded(words.role!, words.subject, { username: "dev", has: "Developer", purpose: "GroupIntegration" })}`,
    ]);

    await server.configureProviders("dev");
    const unchecked = await providers.GroupIntegration.check({}, CHAT);
    await expect(providers.GroupIntegration.create(unchecked.inputs)).rejects.toThrow(`${said}. Use the token of a user who has it.`);
    await expect(getGroupIntegrations({ group: "acme" })).rejects.toThrow(`${said}. Use the token of a user who has it.`);
  });

  it("a role and a tier: SamlGroupLink and getSamlGroupLinks name the Owner role, and Premium or Ultimate, alike", async () => {
    const inputs = { group: "beta", samlGroupName: "devs", accessLevel: "developer" };
    const words = needsInWords(samlGroupLinkDefinition.needs!(inputs as never, "create"));
    expect(words).toEqual({ subject: "group beta", role: "Owner", tier: "premium" });

    await server.configureProviders("alice", { "platform:verifyAtPreview": "true" });
    const checked = await providers.SamlGroupLink.check({}, inputs);
    const reasons = checked.failures?.map((failure) => failure.reason) ?? [];
    expect(reasons.join("\n")).toContain(tierNeeded(words.tier!, words.subject));

    await server.configureProviders("dev");
    const refused = await getSamlGroupLinks({ group: "acme" }).catch((error: Error) => error.message);
    expect(refused).toContain(roleNeeded(words.role!, "group acme"));
  });
});
