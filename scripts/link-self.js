#!/usr/bin/env node
// Makes this checkout resolvable as `pulumi-platform` from its own directories
// (node_modules/pulumi-platform -> ..), as it is in a user's project once installed.
// The examples import the package by name, and the provider that Pulumi
// serializes into state loads `pulumi-platform/runtime` from the program's
// directory at run time; both need the name to resolve here too.
// Runs from `prepare` in this repository only, never in a user's install.
const fs = require("node:fs");
const path = require("node:path");

const root = path.resolve(__dirname, "..");
if (!fs.existsSync(path.join(root, ".git")) && !fs.existsSync(path.join(root, "tsconfig.build.json"))) process.exit(0);
const link = path.join(root, "node_modules", "pulumi-platform");
try {
  if (fs.readlinkSync(link) === "..") process.exit(0);
  fs.rmSync(link, { recursive: true, force: true });
} catch {
  // not a link yet
}
fs.mkdirSync(path.dirname(link), { recursive: true });
fs.symlinkSync("..", link, "dir");
