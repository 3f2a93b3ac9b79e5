/**
 * The retry budget at the provider level: against a server that keeps failing
 * (every request a 503; or every request held past the request timeout), a
 * create fails within about `platform:retryTimeout`, never hangs, and says
 * which request failed, that it gave up after N attempts, and which setting
 * bounds the retries. The bound asserted is generous: it catches a hang, it is
 * not a speed test.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import type { FaultKind } from "pulumi-platform/emulator";
import { SkippingClock, useClientClock, useEmulator } from "../support";
import { checked, type Props, type Provider } from "./harness";

const RETRY_TIMEOUT_SECONDS = 3;
/** Slack over the retry budget: the last attempt's own timeout, timer granularity, a loaded machine. */
const SLACK_SECONDS = 5;

// Backoff passes at once on a clock the clients and the emulator share; the time a create takes is read on
// it, so it counts the waits skipped as well as the real time (held requests time out in real time).
const clock = new SkippingClock();
const server = useEmulator({ clock: clock.now });
useClientClock(clock);

beforeAll(async () => {
  await server.configureProviders("root", { "platform:retryTimeout": String(RETRY_TIMEOUT_SECONDS), "platform:requestTimeout": "0.5" });
});

afterEach(() => {
  server.emulator.setFaultPlan(undefined);
});

/** Creates of both shapes: one that starts with its POST (and looks for what a lost POST made), one that reads first. */
const creates: { resource: string; name: string; provider: Provider; inputs: Props; request: RegExp }[] = [
  {
    resource: "Badge",
    name: "Badge (a POST, then a lookup of what it may have created)",
    provider: providers.Badge,
    inputs: { project: "acme/web", name: "pipeline", linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/p.svg" },
    // The POST, or the lookup that decides whether the POST may be sent again (the last request tried).
    request: /\b(POST|GET) \/projects\/acme%2Fweb\/badges\b/,
  },
  {
    resource: "GroupSettings",
    name: "GroupSettings (a read of the group, then a PUT)",
    provider: providers.GroupSettings,
    inputs: { group: "acme", description: "Managed" },
    request: /\bGET \/groups\/acme\b/,
  },
];

const failures: { kind: FaultKind; what: string }[] = [
  { kind: "error-503", what: "every request answered 503" },
  { kind: "slow", what: "every request held past the request timeout" },
];

describe.each(failures)("$what: create fails within platform:retryTimeout with a clear error", ({ kind }) => {
  for (const create of creates) {
    it(create.name, async () => {
      const inputs = await checked(create.provider, create.inputs);
      server.emulator.setFaultPlan({ slowMs: 5_000, rules: [{ rate: 1, kinds: [kind] }] });
      const started = clock.now();
      const error = await create.provider.create(inputs).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      const seconds = (clock.now() - started) / 1000;
      console.log(`${kind}, ${create.name}: failed after ${seconds.toFixed(1)}s: ${error?.message.replace(/\s+/g, " ").slice(0, 300)}`);

      expect(error).toBeInstanceOf(Error);
      expect(seconds).toBeLessThan(RETRY_TIMEOUT_SECONDS + SLACK_SECONDS);
      const message = error!.message;
      expect(message.startsWith(`${create.resource}: could not create it. `)).toBe(true);
      expect(message).toMatch(create.request);
      expect(message).toMatch(/Gave up after \d+ attempts in [\d.]+s/);
      expect(message).toContain("platform:retryTimeout");
      expect(message).toMatch(kind === "slow" ? /no answer from the server/ : /failed with 503/);
      // Our own stack trace is never shown for an expected failure.
      expect(error!.stack ?? "").not.toMatch(/\n\s+at /);
      expect(message).not.toMatch(/\n\s+at /);
    });
  }
});
