#!/usr/bin/env node
/**
 * pulumi-platform-cli: prints the directory holding `pulumi` and
 * `pulumi-language-nodejs` at the version of the project's @pulumi/pulumi,
 * building them from the Go module proxy into a cache outside the project the
 * first time (a few minutes; Go must be installed), unless the cache already
 * holds another 3.x build, which it reuses. Use it where the CLI cannot
 * be downloaded from get.pulumi.com:
 *
 *     export PATH="$(npx pulumi-platform-cli):$PATH"
 *
 * It runs the package's scripts/ensure-pulumi-cli.sh (its header lists the
 * environment knobs: PULUMI_CLI_CACHE, PULUMI_CLI_VERSION, ...), telling it where
 * the project's @pulumi/pulumi is: resolved from this package's own location
 * (inside a project, the project's copy). Nothing is looked up from the working
 * directory, which may be a checkout of anyone's branch: `bash`, and the
 * script's `pulumi` and `go`, are found only on PATH's absolute entries.
 * Plain JavaScript: it runs on any Node.js.
 */
"use strict";
const { spawnSync } = require("node:child_process");
const path = require("node:path");

const packageRoot = path.join(__dirname, "..");
const { absolutePathEntries } = require("../dist/executable-path.js");

function sdkDirectory() {
  try {
    const manifest = require.resolve("@pulumi/pulumi/package.json", { paths: [packageRoot] });
    return path.dirname(manifest);
  } catch {
    return undefined; // the script says what to do (install it, or set PULUMI_CLI_VERSION)
  }
}

const sdk = sdkDirectory();
// The command is looked up on the PATH of the environment given, which the script searches too.
const env = { ...process.env, PATH: absolutePathEntries(process.env.PATH) };
const result = spawnSync("bash", [path.join(packageRoot, "scripts", "ensure-pulumi-cli.sh"), ...process.argv.slice(2)], {
  stdio: "inherit",
  env: sdk === undefined ? env : { ...env, PULUMI_SDK_DIR: sdk },
});
if (result.error) {
  process.stderr.write(`pulumi-platform-cli: cannot run bash: ${result.error.message}\n`);
  process.exit(1);
}
process.exit(result.status ?? 1);
