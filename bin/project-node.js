/**
 * The package's commands on a Node.js they run on.
 *
 * Plain JavaScript on purpose: run directly (`node_modules/.bin/platform-review`)
 * a command starts on whatever `node` the shell finds, which on an older
 * system may be below what the package needs. Then the command runs itself
 * again under the project's own Node.js (the `node` dev dependency the
 * template brings, in node_modules/.bin), passing SIGINT, SIGTERM and SIGHUP
 * on to it, or, with no such Node.js, says exactly what to run instead.
 *
 * That Node.js is looked for only where this package is installed, never from
 * the working directory: the report job runs the default branch's copy of the
 * package inside a merge request's checkout, with the review token in its
 * environment, and a `node_modules/.bin/node` the branch committed there
 * would run with it.
 */
"use strict";
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const MINIMUM_NODE_MAJOR = 22;

const major = (version) => Number(/^v?(\d+)\./.exec(version)?.[1]);

/** This package's directory (bin/..). */
const PACKAGE_ROOT = path.join(__dirname, "..");

/**
 * The project that installed this package: the directory holding the
 * outermost `node_modules` above it (npm's and pnpm's layouts alike), or the
 * package itself when it is not installed (its own checkout).
 */
function installingProject() {
  const parts = PACKAGE_ROOT.split(path.sep);
  const outermost = parts.indexOf("node_modules");
  return outermost > 0 ? parts.slice(0, outermost).join(path.sep) || path.sep : PACKAGE_ROOT;
}

/** The first new enough `node_modules/.bin/node` of this package, then of the project that installed it. */
function newEnoughNode() {
  const candidates = [...new Set([PACKAGE_ROOT, installingProject()])].map((dir) => path.join(dir, "node_modules", ".bin", "node"));
  for (const candidate of candidates.filter((file) => fs.existsSync(file))) {
    const run = spawnSync(candidate, ["--version"], { encoding: "utf8" });
    if (run.status === 0 && major(run.stdout.trim()) >= MINIMUM_NODE_MAJOR) return candidate;
  }
  return undefined;
}

/** Runs `script` again in a child under `node`; a signal this process gets is the child's to stop on. */
function runUnder(name, node, script) {
  const child = spawn(node, [script, ...process.argv.slice(2)], { stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("error", (error) => {
    process.stderr.write(`${name}: cannot run ${node}: ${error.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => process.exit(code ?? (signal === "SIGINT" ? 130 : 143)));
}

/**
 * Starts the command `name` (this bin file, `script`): with `start` on a new
 * enough Node.js, else under the project's own; `npmScript` is the npm script
 * the message offers, where the template has one.
 */
function onProjectNode(name, script, start, npmScript) {
  if (major(process.versions.node) >= MINIMUM_NODE_MAJOR) return start();
  const node = newEnoughNode();
  if (node !== undefined) return runUnder(name, node, script);
  process.stderr.write(
    `${name}: this command needs Node.js ${MINIMUM_NODE_MAJOR} or newer; this is Node.js ${process.versions.node} (${process.execPath}), ` +
      `and none is installed beside this package (${path.join(installingProject(), "node_modules", ".bin")}). ` +
      "Give the project its own Node.js, `npm install --save-dev node@24`, " +
      `then run it with ${npmScript ? `\`npm run ${npmScript}\` (or \`npx ${name}\`)` : `\`npx ${name}\``}, which puts it first on PATH.\n`,
  );
  process.exit(1);
}

module.exports = { onProjectNode };
