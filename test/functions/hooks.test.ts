/** getProjectHooks and getGroupHooks against the emulator: never a token, secret Output forms, refusals in the resources' words. */
import * as pulumi from "@pulumi/pulumi";
import { beforeAll, describe, expect, it } from "vitest";
import { apiPath, getGroupHooks, getGroupHooksOutput, getProjectHooks, getProjectHooksOutput } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();

beforeAll(async () => {
  await server.configureProviders("maintainer");
  await server.as().post(apiPath`/projects/${"acme/api"}/hooks`, { url: "https://ci.example.com/hooks?token=query-secret", name: "ci", token: "never-shown", merge_requests_events: true, custom_headers: [{ key: "X-Key", value: "header-secret" }] });
  await server.as().post(apiPath`/groups/${"acme"}/hooks`, { url: "https://audit.example.com/platform", name: "audit", member_events: true });
});

const unwrap = <T>(output: pulumi.Output<T>) => new Promise<{ value: T; secret: boolean }>((resolve) => {
  void pulumi.isSecret(output).then((secret) => output.apply((value) => resolve({ value, secret })));
});

describe("getProjectHooks and getGroupHooks", () => {
  it("a project's hooks in camelCase, with switches and header names, never a token or a header's value", async () => {
    const hooks = await getProjectHooks({ project: "acme/api" });
    expect(hooks).toEqual([expect.objectContaining({ name: "ci", url: "https://ci.example.com/hooks?token=query-secret", mergeRequestsEvents: true, pushEvents: true, alertStatus: "executable", projectId: expect.any(Number) })]);
    expect(JSON.stringify(hooks)).not.toContain("never-shown");
    expect(JSON.stringify(hooks)).not.toContain("header-secret");
  });

  it("a group's hooks with the group's own switches", async () => {
    await server.actingAs("alice", async () => {
      expect(await getGroupHooks({ group: "acme" })).toEqual([expect.objectContaining({ name: "audit", memberEvents: true, subgroupEvents: false, customHeaders: [] })]);
    });
  });

  it("the Output forms are secret when they list a hook (its URL may carry credentials), and plain when empty", async () => {
    expect(await unwrap(getProjectHooksOutput({ project: "acme/api" }))).toMatchObject({ secret: true });
    expect(await unwrap(getProjectHooksOutput({ project: "acme/platform/infra" }))).toEqual({ value: [], secret: false });
    await server.actingAs("alice", async () => expect(await unwrap(getGroupHooksOutput({ group: "acme" }))).toMatchObject({ secret: true }));
  });

  it("a Developer is refused with the role it needs; a group on Free with the tier", async () => {
    await server.actingAs("dev", async () => {
      const error = (await getProjectHooks({ project: "acme/api" }).catch((caught: Error) => caught)) as Error;
      expect(error.message).toMatch(/getProjectHooks: could not read the webhooks of project acme\/api: .*403.*at least the Maintainer role/);
    });
    await server.actingAs("alice", async () => {
      const error = (await getGroupHooks({ group: "beta" }).catch((caught: Error) => caught)) as Error;
      expect(error.message).toMatch(/Premium or Ultimate/);
    });
  });
});
