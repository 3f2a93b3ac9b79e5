/**
 * The Node.js version check, run when the package is loaded (`src/index.ts`,
 * `src/emulator/index.ts` and the command-line tools import it first).
 * `engines` in package.json is only a warning at install time that few people
 * see; this says at run time what is wrong and what to do about it.
 */

/** The oldest Node.js major version the package (and `@pulumi/pulumi` 3.2xx) runs on. */
export const MINIMUM_NODE_MAJOR = 22;

/** The message for an unsupported Node.js `version` (e.g. "20.20.2"), or undefined when it is supported. */
export function unsupportedNodeMessage(version: string, executable: string): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (major >= MINIMUM_NODE_MAJOR) return undefined;
  return [
    `pulumi-platform needs Node.js ${MINIMUM_NODE_MAJOR} or newer, but this is Node.js ${version} (${executable}).`,
    `Install a newer Node.js, or give the project its own: \`npm install --save-dev node@24\`, then run Pulumi through npm`,
    `(\`npm run pulumi -- up\` with "pulumi": "pulumi" in package.json's scripts): npm puts node_modules/.bin, which then holds`,
    `Node.js 24, first on PATH. See "Node.js and the Pulumi CLI" in the package's docs/own-repository.md.`,
  ].join(" ");
}

const problem = unsupportedNodeMessage(process.versions.node, process.execPath);
if (problem) throw new Error(problem);
