/**
 * `npm run package`: builds the installable tarball, pulumi-platform-<version>.tgz,
 * in the repository's root (or in `--destination DIR`); prints its path.
 *
 * Why not plain `npm pack`: the package users install must carry no lifecycle
 * scripts. npm 11 lists a tarball's `prepare` as an install script that users
 * must approve or deny (and it would fail in their project: the build tools are
 * not shipped), and this repository needs `prepare` for its own `npm ci` (the
 * self-link of scripts/link-self.js). So this builds src/ (the repository's
 * incremental build) and copies what it compiled (copyCompiledPackage below,
 * without dist/'s stale files) and what `files` lists into a staging
 * directory, writes a manifest without `scripts`, `devDependencies` and
 * `allowScripts`, and runs `npm pack` there. A build with type errors fails.
 *
 * `--vendor PROJECT`: the tarball goes to PROJECT/vendor/ (replacing the
 * pulumi-platform tarball there) and is installed in PROJECT by its relative
 * path, so PROJECT's package.json and lockfile name `file:vendor/...`, which
 * every clone of the team's repository installs with `npm ci`. The same
 * command installs the package the first time and updates it.
 *
 * npm leaves `.gitignore` files out of a package: the template's is shipped
 * as `gitignore` (bin/pulumi-platform-new.js writes it back as `.gitignore`).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const repoRoot = path.resolve(import.meta.dirname, "..");

/** The manifest users get: this repository's, less what only matters here. */
function publishedManifest(): Record<string, unknown> {
  const { scripts: _scripts, devDependencies: _dev, allowScripts: _allow, ...manifest } = JSON.parse(
    readFileSync(path.join(repoRoot, "package.json"), "utf8"),
  ) as Record<string, unknown>;
  return manifest;
}

/** Copies the entries of `files` (besides dist, which the compiler writes) and the files npm always ships. */
function copyShippedFiles(manifest: Record<string, unknown>, stage: string): void {
  const entries = (manifest.files as string[]).filter((entry) => entry !== "dist" && !entry.startsWith("!"));
  for (const entry of [...entries, "README.md", "LICENSE"]) {
    const source = path.join(repoRoot, entry);
    if (!existsSync(source)) throw new Error(`package.json "files" lists ${entry}, which does not exist`);
    cpSync(source, path.join(stage, entry), { recursive: true });
  }
  for (const template of readdirSync(path.join(stage, "templates"))) {
    const ignore = path.join(stage, "templates", template, ".gitignore");
    if (existsSync(ignore)) renameSync(ignore, path.join(path.dirname(ignore), "gitignore"));
  }
}

/**
 * The repository's own build (`npm run build`: dist/, incremental, so an
 * unchanged src/ compiles nothing), copied into `target` without what dist/
 * has beyond it: the outputs of sources since deleted, and the build info.
 * Its own compile, with only --outDir changed, would share dist/.tsbuildinfo
 * (the next `npm run build` would then recompile and rewrite all of dist/),
 * and costs a quarter of a minute of CPU each time.
 */
function copyCompiledPackage(target: string): void {
  execFileSync(path.join(repoRoot, "node_modules/.bin/tsc"), ["-p", path.join(repoRoot, "tsconfig.build.json")], { stdio: "inherit" });
  const dist = path.join(repoRoot, "dist");
  const sources = new Set(filesUnder(path.join(repoRoot, "src")).filter((file) => file.endsWith(".ts")).map((file) => file.replace(/\.ts$/, "")));
  for (const output of filesUnder(dist)) {
    const source = /^(.*)\.(d\.ts|js)$/.exec(output)?.[1];
    if (source === undefined || !sources.has(source)) continue;
    mkdirSync(path.dirname(path.join(target, output)), { recursive: true });
    cpSync(path.join(dist, output), path.join(target, output));
  }
}

/** The files under `dir`, relative to it, with forward slashes. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
}

/** The variables `npm run` sets for this repository's script, which would make an install elsewhere act on this one. */
function envForAnotherProject(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_(lifecycle|package|command)|npm_config_(local_)?prefix$|INIT_CWD$)/i.test(key)));
}

/** Puts the tarball in PROJECT/vendor/ in place of the one there and installs it by its relative path. */
function vendor(tarball: string, project: string): string {
  const vendorDir = path.join(project, "vendor");
  mkdirSync(vendorDir, { recursive: true });
  for (const old of readdirSync(vendorDir)) if (/^pulumi-platform-.*\.tgz$/.test(old)) rmSync(path.join(vendorDir, old));
  const placed = path.join(vendorDir, path.basename(tarball));
  cpSync(tarball, placed);
  execFileSync("npm", ["install", `./vendor/${path.basename(tarball)}`], { cwd: project, stdio: ["ignore", process.stderr, "inherit"], env: envForAnotherProject() });
  return placed;
}

function main(): void {
  const { values } = parseArgs({ options: { destination: { type: "string" }, vendor: { type: "string" } } });
  if (values.vendor !== undefined && values.destination !== undefined) throw new Error("give either --destination or --vendor, not both");
  const project = values.vendor === undefined ? undefined : path.resolve(values.vendor);
  if (project !== undefined && !existsSync(path.join(project, "package.json"))) throw new Error(`--vendor: ${project} has no package.json; make the project first (pulumi-platform-new)`);
  const stage = mkdtempSync(path.join(tmpdir(), "pulumi-platform-package-"));
  const destination = project === undefined ? path.resolve(values.destination ?? repoRoot) : path.join(stage, "packed");
  try {
    const contents = path.join(stage, "package");
    copyCompiledPackage(path.join(contents, "dist"));
    const manifest = publishedManifest();
    copyShippedFiles(manifest, contents);
    writeFileSync(path.join(contents, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    mkdirSync(destination, { recursive: true });
    const packed = execFileSync("npm", ["pack", "--json", "--pack-destination", destination], { cwd: contents, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    const [{ filename }] = JSON.parse(packed) as [{ filename: string }];
    const tarball = path.join(destination, filename);
    process.stdout.write(`${project === undefined ? tarball : vendor(tarball, project)}\n`);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

main();
