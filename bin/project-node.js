/**
 * The package's commands on a Node.js they run on.
 *
 * Plain JavaScript on purpose: run directly (`node_modules/.bin/platform-review`)
 * a command starts on whatever `node` the shell finds, which on an older
 * system may be below what the package needs. Then the command runs itself
 * again under the project's own Node.js (the `node` dev dependency the
 * template brings, in node_modules/.bin), passing SIGINT, SIGTERM and SIGHUP
 * on to it, or, with no such Node.js, says exactly what to run instead.
 */
"use strict";
const { spawn, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const MINIMUM_NODE_MAJOR = 22;

const major = (version) => Number(/^v?(\d+)\./.exec(version)?.[1]);

/** node_modules/.bin/node of the directories above `start`, nearest first. */
function projectNodes(start) {
  const found = [];
  for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", ".bin", "node");
    if (fs.existsSync(candidate)) found.push(candidate);
    if (path.dirname(dir) === dir) return found;
  }
}

/** The first project Node.js new enough, looked for from the working directory, then from this package. */
function newEnoughNode() {
  for (const candidate of [...projectNodes(process.cwd()), ...projectNodes(path.join(__dirname, ".."))]) {
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
      "and no newer one is in node_modules/.bin here. Give the project its own Node.js, `npm install --save-dev node@24`, " +
      `then run it with ${npmScript ? `\`npm run ${npmScript}\` (or \`npx ${name}\`)` : `\`npx ${name}\``}, which puts it first on PATH.\n`,
  );
  process.exit(1);
}

module.exports = { onProjectNode };
