/**
 * `npm run package`: builds the installable tarball, pulumi-platform-<version>.tgz,
 * in the repository's root (or in `--destination DIR`); prints its path.
 *
 * Why not plain `npm pack`: the package users install must carry no lifecycle
 * scripts. npm 11 lists a tarball's `prepare` as an install script that users
 * must approve or deny (and it would fail in their project: the build tools are
 * not shipped), and this repository needs `prepare` for its own `npm ci` (the
 * self-link of scripts/link-self.js). So this compiles src/ afresh into a
 * staging directory (no stale files from an earlier build in dist/), copies
 * what `files` lists, writes a manifest without `scripts`, `devDependencies`
 * and `allowScripts`, and runs `npm pack` there. A build with type errors fails.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
}

function main(): void {
  const { values } = parseArgs({ options: { destination: { type: "string", default: repoRoot } } });
  const destination = path.resolve(values.destination!);
  const stage = mkdtempSync(path.join(tmpdir(), "pulumi-platform-package-"));
  try {
    execFileSync(path.join(repoRoot, "node_modules/.bin/tsc"), ["-p", path.join(repoRoot, "tsconfig.build.json"), "--outDir", path.join(stage, "dist")], {
      stdio: "inherit",
    });
    const manifest = publishedManifest();
    copyShippedFiles(manifest, stage);
    writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    const packed = execFileSync("npm", ["pack", "--json", "--pack-destination", destination], { cwd: stage, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    const [{ filename }] = JSON.parse(packed) as [{ filename: string }];
    process.stdout.write(`${path.join(destination, filename)}\n`);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

main();
