/**
 * What the resource classes (src/engine/resource.ts) change in the SDK's
 * bookkeeping while they register, and that it is undone: no stack frames are
 * kept for the SDK's promise-leak report (unless PULUMI_DEBUG_PROMISE_LEAKS
 * asks for them), an error thrown while registering still has its stack, and
 * an output derived from the id is still there though it is not announced.
 * Run in the program's process with Pulumi's mocks.
 */
import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Badge, resetDeclarations } from "pulumi-platform";

const badgeArgs = { project: "acme/web", linkUrl: "https://ci.example.com/%{project_path}", imageUrl: "https://ci.example.com/%{project_path}.svg" };

/** The value of an output, from the mocks. */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply((value) => resolve(value)));
}

/** `Error.stackTraceLimit` as a transformation sees it: transformations run inside the SDK's Resource constructor. */
function limitWhileRegistering(name: string): number {
  let seen = Number.NaN;
  const recordLimit: pulumi.ResourceTransformation = () => {
    seen = Error.stackTraceLimit;
    return undefined;
  };
  new Badge(name, badgeArgs, { transformations: [recordLimit] });
  return seen;
}

describe("a resource class while it registers", () => {
  const debugLeaks = process.env.PULUMI_DEBUG_PROMISE_LEAKS;
  beforeEach(() => {
    pulumi.runtime.setMocks({
      newResource: (args) => ({ id: `projects/acme%2Fweb/badges/${args.name.length}`, state: { ...args.inputs, kind: "project" } }),
      call: (args) => args.inputs,
    });
    resetDeclarations();
  });
  afterEach(() => {
    resetDeclarations();
    if (debugLeaks === undefined) delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
    else process.env.PULUMI_DEBUG_PROMISE_LEAKS = debugLeaks;
  });

  it("keeps no stack frames for the SDK's promises, and restores the limit after", () => {
    delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
    const before = Error.stackTraceLimit;
    expect(limitWhileRegistering("quiet")).toBe(0);
    expect(Error.stackTraceLimit).toBe(before);
  });

  it("keeps them when PULUMI_DEBUG_PROMISE_LEAKS asks for the leak report's stacks", () => {
    process.env.PULUMI_DEBUG_PROMISE_LEAKS = "1";
    expect(limitWhileRegistering("debugged")).toBe(Error.stackTraceLimit);
  });

  it("gives an error thrown while registering a stack, and restores the limit", () => {
    delete process.env.PULUMI_DEBUG_PROMISE_LEAKS;
    const before = Error.stackTraceLimit;
    const refuse: pulumi.ResourceTransformation = () => {
      throw new Error("refused by a transformation");
    };
    let thrown: Error | undefined;
    try {
      new Badge("refused", badgeArgs, { transformations: [refuse] });
    } catch (error) {
      thrown = error as Error;
    }
    expect(thrown?.message).toBe("refused by a transformation");
    expect(thrown?.stack).toMatch(/refused by a transformation\n {4}at new Badge .*\n {4}at .*resource-class\.test\.ts/);
    expect(Error.stackTraceLimit).toBe(before);
  });

  it("still has the outputs derived from the id and those the server sends", async () => {
    const badge = new Badge("with-outputs", badgeArgs);
    expect(await valueOf(badge.badgeId)).toBe("with-outputs".length);
    expect(await valueOf(badge.kind)).toBe("project");
  });
});
