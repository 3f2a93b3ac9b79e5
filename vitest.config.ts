import { statSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";
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

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file starts its own emulator on a random loopback port and stops it.
    fileParallelism: true,
    sequence: { sequencer: EndToEndFirst },
  },
});
