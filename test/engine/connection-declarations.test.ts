/**
 * The rules across one program's declarations (one cleanup policy per group,
 * one ApplicationSettings per instance, ...) count per server: the same
 * path on the stack's server and on another one (`connection`) is two
 * objects, while twice on the same server is still refused. Run in the
 * program's process with Pulumi's mocks, as the catalogue's program limits are.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ApplicationSettings,
  CleanupPolicy,
  ContainerRegistryVisibility,
  EpicLink,
  ProjectStar,
  resetDeclarations,
  SamlGroupLink,
  SamlIdentity,
  Label,
} from "pulumi-platform";

const hosted = { url: "https://gitlab.example.com", token: "glpat-hosted-0001" };
const otherHosted = { url: "https://gitlab.example.com/", token: "glpat-hosted-0002" };

/** Each rule: one declaration, made with the given connection (undefined: the stack's server). */
const declarations: [string, (name: string, connection?: typeof hosted) => void, RegExp][] = [
  ["ApplicationSettings", (name, connection) => new ApplicationSettings(name, { signupEnabled: false, connection }), /already declares ApplicationSettings/],
  ["CleanupPolicy", (name, connection) => new CleanupPolicy(name, { group: "acme", cadence: 7, connection }), /a second cleanup policy for group acme/],
  ["ContainerRegistryVisibility", (name, connection) => new ContainerRegistryVisibility(name, { project: "acme/web", accessLevel: "private", connection }), /a second registry visibility/],
  ["ProjectStar", (name, connection) => new ProjectStar(name, { project: "acme/web", connection }), /a second star on project acme\/web/],
  ["EpicLink", (name, connection) => new EpicLink(name, { group: "acme", epicIid: 1, childEpicId: 5, connection }), /also declares epic 5 as the child/],
  ["SamlGroupLink", (name, connection) => new SamlGroupLink(name, { group: "acme", samlGroupName: "devs", accessLevel: "developer", connection }), /already declares the link "devs"/],
  ["SamlIdentity", (name, connection) => new SamlIdentity(name, { group: "acme", user: "alice", externUid: `uid-${name}`, connection }), /a second SAML identity for alice/],
  ["Label", (name, connection) => new Label(name, { group: "acme", name: "bug", color: "red", connection }), /already declares the label "bug" of group acme/],
];

function failureOf(action: () => void): string {
  try {
    action();
  } catch (error) {
    return (error as Error).message;
  }
  return "";
}

describe("program-wide rules count per server", () => {
  beforeEach(() => {
    pulumi.runtime.setMocks({ newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs });
    resetDeclarations();
  });
  afterEach(() => resetDeclarations());

  for (const [kind, declare, refusal] of declarations) {
    it(`${kind}: once on the stack's server and once on another is allowed; twice on the other server is refused`, () => {
      expect(failureOf(() => declare("on-stack"))).toBe("");
      expect(failureOf(() => declare("on-hosted", hosted))).toBe("");
      // The same server, a trailing slash and another token aside.
      expect(failureOf(() => declare("on-hosted-again", otherHosted))).toMatch(refusal);
    });
  }
});
