/** testHook against the emulator: the receiver on 127.0.0.1 gets the event with the hook's token; a failing receiver and the roles are explained. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, testHook } from "pulumi-platform";
import { useEmulator } from "../support";
import { startHookReceiver, type HookReceiver } from "../hook-receiver";

const server = useEmulator();
let receiver: HookReceiver;
let hookId: number;

beforeAll(async () => {
  await server.configureProviders("maintainer");
  receiver = await startHookReceiver();
  hookId = (await server.as().post<{ id: number }>(apiPath`/projects/${"acme/web"}/hooks`, { url: receiver.url, token: "receiver-token", merge_requests_events: true })).id;
});
afterAll(async () => {
  await receiver.stop();
});

describe("testHook", () => {
  it("sends the test event at once: one POST, the receiver gets it with the token", async () => {
    const next = receiver.next();
    const requests = await server.requestsDuring(async () => expect(await testHook({ project: "acme/web", hookId, trigger: "mergeRequestsEvents" })).toEqual({ message: "201 Created" }));
    expect(requests).toEqual([{ method: "POST", path: `/api/v4/projects/acme%2Fweb/hooks/${hookId}/test/merge_requests_events`, status: 201 }]);
    expect((await next).headers).toMatchObject({ "x-gitlab-event": "Merge Request Hook", "x-gitlab-token": "receiver-token" });
  });

  it("a receiver that fails is explained", async () => {
    receiver.status = 500;
    try {
      await expect(testHook({ project: "acme/web", hookId })).rejects.toThrow(/testHook: could not test hook \d+ of project acme\/web: .*422.*The receiver did not take the event/);
    } finally {
      receiver.status = 200;
    }
  });

  it("refused: a Developer (Maintainer needed), an unknown hook; a group's event on a project hook sends nothing", async () => {
    await server.actingAs("dev", async () => {
      await expect(testHook({ project: "acme/web", hookId })).rejects.toThrow(/at least the Maintainer role on project acme\/web/);
    });
    await expect(testHook({ project: "acme/web", hookId: 99999 })).rejects.toThrow(/no such hook/);
    const requests = await server.requestsDuring(async () => {
      await expect(testHook({ project: "acme/web", hookId, trigger: "memberEvents" })).rejects.toThrow(/trigger: memberEvents is a group hook's event/);
    });
    expect(requests).toEqual([]);
  });
});
