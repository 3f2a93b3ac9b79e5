/** The Node.js check the package runs when it is loaded (src/node-version.ts); the real load on an old Node is in test/e2e/user-project.e2e.test.ts. */
import { expect, it } from "vitest";
import { MINIMUM_NODE_MAJOR, unsupportedNodeMessage } from "../src/node-version.ts";

it("accepts Node.js 22 and newer", () => {
  expect(MINIMUM_NODE_MAJOR).toBe(22);
  for (const version of ["22.0.0", "22.12.1", "24.21.0", "v25.1.0"]) expect(unsupportedNodeMessage(version, "/usr/bin/node")).toBeUndefined();
});

it("refuses older ones, naming the version, the executable, and the way to get a newer Node into the project", () => {
  const message = unsupportedNodeMessage("20.20.2", "/usr/bin/node");
  expect(message).toContain("pulumi-platform needs Node.js 22 or newer, but this is Node.js 20.20.2 (/usr/bin/node)");
  expect(message).toContain("npm install --save-dev node@24");
  expect(message).toContain("npm run pulumi -- up");
  expect(unsupportedNodeMessage("18.19.0", "node")).toContain("but this is Node.js 18.19.0 (node).");
  // The last release below the minimum, and a version text that names no release, are refused too.
  expect(unsupportedNodeMessage("v21.7.3", "/opt/node21/bin/node")).toContain("but this is Node.js v21.7.3 (/opt/node21/bin/node).");
  expect(unsupportedNodeMessage("nightly", "node")).toContain("but this is Node.js nightly (node).");
});
