/**
 * The emulator's Node.js check, run when `pulumi-platform/emulator` is loaded
 * (its command line checks before it loads, in bin/platform-emulator.js). It
 * is tested on Node.js 22 and newer; on an older one it says so, and how to
 * give the project a newer one, instead of failing somewhere later.
 */

/** The oldest Node.js major version the emulator runs on. */
const OLDEST_NODE_MAJOR = 22;

const major = Number(/^v?(\d+)\./.exec(process.versions.node)?.[1]);
if (major < OLDEST_NODE_MAJOR) {
  throw new Error(
    `the platform emulator needs Node.js ${OLDEST_NODE_MAJOR} or newer, but this is Node.js ${process.versions.node} (${process.execPath}). ` +
      "Give the project its own Node.js, `npm install --save-dev node@24`, and run through npm (`npm run` puts node_modules/.bin first on PATH).",
  );
}
