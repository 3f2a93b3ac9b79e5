import { describe, expect, it } from "vitest";
import { call, useEmulator } from "./helpers";

/** A clock the test moves by hand, starting on a 10-second boundary. */
const START = Date.UTC(2025, 0, 1, 12, 0, 0);
let now = START;

const server = useEmulator({ rateLimit: { requests: 3, periodSeconds: 10 }, clock: () => now });

describe("rate limit", () => {
  it("reports the budget on accepted requests, then answers 429 with every header", async () => {
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const result = await call(server.emulator, "/version", { as: "alice" });
      expect(result.status).toBe(200);
      expect(result.headers.get("ratelimit-name")).toBe("throttle_authenticated_api");
      expect(result.headers.get("ratelimit-limit")).toBe("18");
      expect(result.headers.get("retry-after")).toBeNull();
      remaining.push(result.headers.get("ratelimit-remaining"));
    }
    expect(remaining).toEqual(["2", "1", "0"]);

    now = START + 4_000;
    const limited = await call(server.emulator, "/version", { as: "alice" });
    expect(limited.status).toBe(429);
    expect(limited.text).toBe("Retry later\n");
    expect(limited.headers.get("content-type")).toBe("text/plain");
    const reset = START / 1000 + 10;
    expect(Object.fromEntries([...limited.headers].filter(([name]) => name.startsWith("ratelimit") || name === "retry-after"))).toEqual({
      "ratelimit-name": "throttle_authenticated_api",
      "ratelimit-limit": "18",
      "ratelimit-observed": "4",
      "ratelimit-remaining": "0",
      "ratelimit-reset": String(reset),
      "ratelimit-resettime": new Date(reset * 1000).toUTCString(),
      "retry-after": "6",
    });
    expect(server.emulator.requestLog.at(-1)).toMatchObject({ status: 429, path: "/api/v4/version" });
  });

  it("counts each user separately, and anonymous callers under their own throttle", async () => {
    expect((await call(server.emulator, "/version", { as: "maintainer" })).status).toBe(200);
    const anonymous = await call(server.emulator, "/projects/beta%2Fsite", { as: null });
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get("ratelimit-name")).toBe("throttle_unauthenticated_api");
  });

  it("lets requests through again once the window has passed", async () => {
    now = START + 9_999;
    expect((await call(server.emulator, "/version", { as: "alice" })).status).toBe(429);
    now = START + 10_000;
    const result = await call(server.emulator, "/version", { as: "alice" });
    expect(result.status).toBe(200);
    expect(result.headers.get("ratelimit-remaining")).toBe("2");
  });
});
