/**
 * Every text input of the platform's own kinds (groups and projects, who may
 * do what, variables, hooks and credentials) is bounded: a megabyte in any of
 * them fails at check, naming the property, before any request. Through the
 * provider objects Pulumi calls, with each kind's inputs of the verify matrix
 * (test/kinds) and the optional texts besides.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import { KIND_TESTS } from "../kinds/index.mts";
import { useEmulator } from "../support";

const server = useEmulator();
beforeAll(() => server.configureProviders("root"));

/** The optional texts each kind takes beyond its matrix row's inputs. */
const OPTIONAL: Record<string, Record<string, string>> = {
  Group: { description: "d" },
  Project: { description: "d", defaultBranch: "main", ciConfigPath: "ci.yml" },
  Label: { description: "d" },
  ProjectVariable: { description: "d" },
  GroupVariable: { description: "d" },
  ProjectHook: { name: "n", description: "d", token: "t", pushEventsBranchFilter: "main", customWebhookTemplate: "{}" },
  DeployToken: { username: "deployer" },
};
const KINDS = Object.keys({ ...OPTIONAL, GroupMember: 0, ProjectMember: 0, GroupShare: 0, ProjectShare: 0, ProtectedBranch: 0, ProtectedTag: 0, ApprovalRule: 0, GroupAccessToken: 0, ProjectAccessToken: 0, DeployKey: 0 });

/** A value of the same form a megabyte long: a URL's path, a key's comment, a name's tail. */
const huge = (value: string) => (/^https?:/.test(value) ? `${value}/${"a".repeat(1 << 20)}` : /^(ssh|ecdsa)-/.test(value) ? `${value} ${"a".repeat(1 << 20)}` : `${value}${"a".repeat(1 << 20)}`);

describe("a megabyte in any text input fails at check, naming the property", () => {
  it.each(KINDS)("%s", async (kind) => {
    const tests = KIND_TESTS.get(kind)!;
    expect(typeof tests.matrix).toBe("function");
    const [row] = (tests.matrix as (server: unknown) => { create(n: number, setup: Record<string, unknown>): Record<string, unknown>; setup?(n: number): Promise<Record<string, unknown>> }[])(server);
    const declared = { ...row!.create(1, row!.setup ? await row!.setup(1) : {}), ...OPTIONAL[kind] };
    const texts = Object.keys(declared).filter((name) => typeof declared[name] === "string");
    expect(texts.length).toBeGreaterThan(0);
    const requests = await server.requestsDuring(async () => {
      for (const name of texts) {
        const checked = await providers[kind as keyof typeof providers].check({}, { ...declared, [name]: huge(declared[name] as string) });
        expect((checked.failures ?? []).map((failure) => failure.reason.split(":")[0]), `${kind}.${name}`).toContain(name);
      }
    });
    expect(requests).toEqual([]);
  });
});
