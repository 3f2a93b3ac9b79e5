/**
 * Secrecy follows derivation (src/engine/resource.ts, `announceDerivedSecrecy`):
 * a computed output that carries an input the program gave as a secret is in
 * the registration's `additionalSecretOutputs`, so the engine keeps it secret
 * in state, in previews and in the events (the dynamic provider host cannot
 * mark it: it accepts no secrets). Read from the registration the SDK sends,
 * with Pulumi's mocks in the program's process; the whole path through the
 * real CLI is test/e2e/derived-secrets.e2e.test.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Badge, GroupSettings, resetDeclarations, Upstream } from "pulumi-platform";

/** The `additionalSecretOutputs` of each registration, by resource name, as the SDK sent them. */
const sent = new Map<string, string[]>();

beforeEach(() => {
  pulumi.runtime.setMocks({
    newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
    call: (args) => args.inputs,
  });
  const { getMonitor } = require("@pulumi/pulumi/runtime/settings") as { getMonitor(): { registerResource(req: RegisterRequest, callback: unknown): unknown } };
  const monitor = getMonitor();
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req, callback) => {
    sent.set(req.getName(), req.getAdditionalsecretoutputsList());
    return register(req, callback);
  };
  sent.clear();
  resetDeclarations();
});
afterEach(() => resetDeclarations());

interface RegisterRequest {
  getName(): string;
  getAdditionalsecretoutputsList(): string[];
}

/** The list sent for the resource `name`, once its registration went out. */
async function secretOutputsOf(resource: pulumi.CustomResource, name: string): Promise<string[]> {
  await new Promise<void>((resolve) => resource.urn.apply(() => resolve()));
  return sent.get(name)!;
}

const LINK = "https://ci.example.com/%{project_path}?key=derived-secret-3c1f";
const IMAGE = "https://ci.example.com/badge.svg";

describe("an output derived from an input (declared `derivedFrom`)", () => {
  it("a badge's linkUrl given as a secret: renderedLinkUrl is a secret output, renderedImageUrl and kind are not", async () => {
    const badge = new Badge("secret-link", { project: "acme/web", linkUrl: pulumi.secret(LINK), imageUrl: IMAGE });
    const list = await secretOutputsOf(badge, "secret-link");
    expect(list).toContain("renderedLinkUrl");
    expect(list).not.toContain("renderedImageUrl");
    expect(list).not.toContain("kind");
  });

  it("a secret nested in an Output that derives from it (interpolate) counts too", async () => {
    const badge = new Badge("interpolated", { project: "acme/web", linkUrl: pulumi.interpolate`${pulumi.secret("https://ci.example.com")}/x`, imageUrl: pulumi.secret(IMAGE) });
    expect(await secretOutputsOf(badge, "interpolated")).toEqual(expect.arrayContaining(["renderedLinkUrl", "renderedImageUrl"]));
  });

  it("plain values, and Outputs that are not secret: no derived output is secret", async () => {
    const plain = new Badge("plain", { project: "acme/web", linkUrl: LINK, imageUrl: IMAGE });
    expect(await secretOutputsOf(plain, "plain")).toEqual([]);
    const unwrapped = new Badge("from-output", { project: pulumi.output("acme/web"), linkUrl: pulumi.output(LINK), imageUrl: IMAGE });
    expect(await secretOutputsOf(unwrapped, "from-output")).toEqual([]);
  });
});

describe("an output that declares no derivation: taken to carry every input", () => {
  it("a secret group path makes GroupSettings' computed outputs secret", async () => {
    const settings = new GroupSettings("secret-group", { group: pulumi.secret("acme"), description: "Platform" });
    expect(await secretOutputsOf(settings, "secret-group")).toEqual(expect.arrayContaining(["fullPath", "groupId", "avatarUrl"]));
  });

  it("but not an input secret by its own trait (an upstream's password): its kind declares what derives from it", async () => {
    const upstream = new Upstream("with-password", { registry: 1, name: "hub", url: "https://registry-1.docker.io", username: "bot", password: pulumi.secret("upstream-password-9d2e") });
    const list = await secretOutputsOf(upstream, "with-password");
    expect(list).toContain("password");
    expect(list).not.toContain("groupId");
    expect(list).not.toContain("links");
  });
});
