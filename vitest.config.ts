import { statSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const isEndToEnd = (file: TestSpecification) => file.moduleId.includes(`${path.sep}test${path.sep}e2e${path.sep}`);

/**
 * The unit and end-to-end files run side by side in one pool, the end-to-end
 * files (minutes each, real Pulumi CLI runs) started first, so that the
 * short unit files fill the gaps instead of a long end-to-end file starting
 * last and running alone. With durations from an earlier run (vitest's
 * cache), longest first within each part; on a clean clone (CI), the larger
 * file first, which for these files is the longer one.
 */
class EndToEndFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byDuration = await super.sort(files);
    const known = (file: TestSpecification) => this.ctx.cache.getFileTestResults(`${file.project.name}:${path.relative(this.ctx.config.root, file.moduleId)}`) !== undefined;
    if (byDuration.every(known)) return [...byDuration.filter(isEndToEnd), ...byDuration.filter((file) => !isEndToEnd(file))];
    const size = (file: TestSpecification) => statSync(file.moduleId).size;
    return [...files].sort((a, b) => Number(isEndToEnd(b)) - Number(isEndToEnd(a)) || size(b) - size(a));
  }
}

/**
 * `npm run emulator` builds before it starts the emulator, and the build
 * rewrites every file of dist/ (tsc truncates, then writes): a process loading
 * the package at that moment could read half a file. The one test that runs
 * it goes first, alone, before the files that load dist/.
 */
const REBUILDS_DIST = ["test/emulator/bin-sigterm.test.ts"];

/**
 * Each test file in a fresh module graph costs about a second of CPU to load
 * @pulumi/pulumi and the package again, over two hundred times a run. The
 * files share a worker's modules instead (the end-to-end files too: their
 * helpers keep no state between files but the test key service, one per
 * process by design); these keep their own: the files that set the process's
 * environment (PLATFORM_*, CI_*), which the package reads into its default
 * connection once a process.
 */
const OWN_MODULES = [
  "test/spec-map.test.ts",
  "test/engine/verify.test.ts",
  "test/resources/badge.test.ts",
  "test/resources/application-settings.test.ts",
  "test/import/program.test.ts",
  "test/import/terraform.test.ts",
  "test/client/tls.test.ts",
  "test/client/job-token.test.ts",
  "test/functions/core.test.ts",
];

/**
 * Type tests (`*.test-d.ts`, `expectTypeOf`): compiled, not run, so a failed
 * assertion is a type error. vitest's typecheck mode runs tsc on them alone
 * (test/tsconfig.types.json) and reports each error as its test's failure.
 */
/**
 * A run starts Node some thousand times (each Pulumi CLI command starts the
 * program and the dynamic provider, each loading @pulumi/pulumi, TypeScript
 * and the package). Node's compile cache keeps V8's compiled code of those
 * files between processes: about a third less CPU to start each. Set here, in
 * the process that starts the workers, so every process they spawn inherits
 * it; a cache only, nothing a test observes.
 */
process.env.NODE_COMPILE_CACHE ??= path.join(tmpdir(), "pulumi-platform-node-compile-cache");

/**
 * The package's registries load a module when one of its exports is first
 * read, with `require` (src/lazy-load.ts). vitest's module runner loads
 * modules asynchronously and cannot serve a `require` of src/: Node's own
 * would load a second copy of src/ beside vitest's. So under vitest a
 * `require` of a module of src/ by a module of src/ is an import of it, made
 * when the requiring module loads; tests see the same exports, their modules
 * loaded up front. The lazy loading itself is tested on dist/, in a process of
 * its own (test/engine/lazy-loading.test.ts).
 */
const srcRequiresImported = {
  name: "src-requires-imported",
  transform(code: string, id: string) {
    if (!id.startsWith(path.join(__dirname, "src") + path.sep) || !/\brequire\("\./.test(code)) return undefined;
    const imports: string[] = [];
    const body = code.replace(/\brequire\("(\.[^"]+)"\)/g, (_, specifier: string) => {
      imports.push(`import * as __required${imports.length} from ${JSON.stringify(specifier)};`);
      return `__required${imports.length - 1}`;
    });
    // On the first line, so that the lines of the source map stay as they were.
    return { code: imports.join("") + body, map: null };
  },
};

const TYPE_TESTS = { enabled: true, only: true, include: ["test/**/*.test-d.ts"], tsconfig: "test/tsconfig.types.json" };

export default defineConfig({
  plugins: [srcRequiresImported],
  test: {
    projects: [
      { extends: true, test: { name: "rebuilds dist", include: REBUILDS_DIST, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: "types", typecheck: TYPE_TESTS, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: "suite", include: OWN_MODULES, sequence: { groupOrder: 1 } } },
      {
        extends: true,
        test: { name: "shared modules", include: ["test/**/*.test.ts"], exclude: [...configDefaults.exclude, ...REBUILDS_DIST, ...OWN_MODULES], isolate: false, sequence: { groupOrder: 1 } },
      },
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file starts its own emulator on a random loopback port and stops it.
    fileParallelism: true,
    // Two workers more than the cores: vitest's default (cores - 1) runs files one at a time on CI's
    // 2 cores, while an end-to-end file spends much of its time waiting on the Pulumi CLI's processes,
    // on npm and on the emulator's throttle windows, which other files' work fills (on 2 cores, a
    // fourth worker kept the run at 190% of them where three left about a tenth idle). Tests that read the
    // time inject a clock (test/support.ts) or bound only real-time work, so the load does not change them.
    maxWorkers: availableParallelism() + 2,
    sequence: { sequencer: EndToEndFirst },
  },
});
