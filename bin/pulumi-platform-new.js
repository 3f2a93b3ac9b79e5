#!/usr/bin/env node
/**
 * pulumi-platform-new DIR [--name NAME] [--description TEXT]
 *
 * Writes a new Pulumi project that uses pulumi-platform into DIR (which must be
 * empty or absent): the package's template (templates/platform), with
 * ${PROJECT} and ${DESCRIPTION} replaced as `pulumi new` replaces them. The same
 * template works with `pulumi new <package>/templates/platform`. npm leaves
 * `.gitignore` files out of packages, so the installed template holds it as
 * `gitignore`; it is written as `.gitignore`.
 *
 * Plain JavaScript on purpose: it runs before the project has its own Node.js,
 * so it must work on whatever Node.js the machine has.
 */
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const USAGE = "usage: pulumi-platform-new DIR [--name NAME] [--description TEXT]";
const TEMPLATE = path.join(__dirname, "..", "templates", "platform");

function parse(argv) {
  const options = { dir: undefined, name: undefined, description: "Platform resources managed with pulumi-platform" };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--name" || arg === "--description") {
      if (argv[i + 1] === undefined) throw new Error(`${arg} needs a value`);
      options[arg.slice(2)] = argv[++i];
    } else if (arg === "-h" || arg === "--help") {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else if (arg.startsWith("-") || options.dir !== undefined) {
      throw new Error(`unexpected argument ${arg}`);
    } else {
      options.dir = arg;
    }
  }
  if (options.dir === undefined) throw new Error("give the directory of the new project");
  return options;
}

function main() {
  const options = parse(process.argv.slice(2));
  const target = path.resolve(options.dir);
  if (fs.existsSync(target) && fs.readdirSync(target).length > 0) {
    throw new Error(`${target} is not empty; give a new or empty directory`);
  }
  const project = options.name ?? path.basename(target);
  if (!/^[A-Za-z0-9_.-]+$/.test(project)) {
    throw new Error(`"${project}" cannot be a Pulumi project name (letters, digits, _ . -); give --name`);
  }
  fs.mkdirSync(target, { recursive: true });
  for (const file of fs.readdirSync(TEMPLATE)) {
    const text = fs.readFileSync(path.join(TEMPLATE, file), "utf8");
    const filled = text.split("${PROJECT}").join(project).split("${DESCRIPTION}").join(options.description);
    fs.writeFileSync(path.join(target, file === "gitignore" ? ".gitignore" : file), filled);
  }
  process.stdout.write(
    `Wrote the Pulumi project ${project} to ${target}.\n` +
      "Next, in the checkout of pulumi-platform: npm run package -- --vendor " +
        `${options.dir} (the package into the project's vendor/, installed; see the README of pulumi-platform).\n`,
  );
}

try {
  main();
} catch (error) {
  process.stderr.write(`pulumi-platform-new: ${error.message}\n${USAGE}\n`);
  process.exit(2);
}
