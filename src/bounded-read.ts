/**
 * Reads of files and streams bounded by the bytes actually read. A size that
 * `stat` or a header states is no bound: a link to `/dev/zero`, a FIFO or a
 * `/proc` file reports 0 (or nothing) and never ends, and a server may send
 * more than its `Content-Length` says, or no length at all. Each caller names
 * what it reads and its own limit, which the failure states.
 */
import { closeSync, openSync, readSync } from "node:fs";

/** A read stopped at its limit: the message names what was read and the limit. */
export class ReadLimitExceeded extends Error {
  constructor(
    readonly what: string,
    readonly limitBytes: number,
  ) {
    super(`${what} is larger than ${bytesInWords(limitBytes)}, the most read of it; stopped there.`);
    this.name = "ReadLimitExceeded";
  }
}

/** A byte count as people read limits: `64 MiB`, `200 KiB`, `512 bytes`. */
export function bytesInWords(bytes: number): string {
  for (const [unit, size] of [["GiB", 1024 ** 3], ["MiB", 1024 ** 2], ["KiB", 1024]] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** How much one read asks for: large enough to be cheap, small enough that a limit overshoots by little. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * The content of a file (a path, or an open descriptor such as 0 for standard
 * input), reading at most `limitBytes`: one byte more fails with
 * ReadLimitExceeded, whatever the file says its size is. `what` names the
 * input in that message ("the preview file preview.json").
 */
export function readFileWithin(file: string | number, limitBytes: number, what: string): Buffer {
  const fd = typeof file === "number" ? file : openSync(file, "r");
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      // One byte past the limit is enough to know it was passed.
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limitBytes + 1 - total));
      let read: number;
      try {
        read = readSync(fd, chunk, 0, chunk.length, null);
      } catch (error) {
        // A non-blocking descriptor (a pipe a parent left so) with nothing yet: wait for it as a blocking read would.
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
          continue;
        }
        throw error;
      }
      if (read === 0) return Buffer.concat(chunks, total);
      total += read;
      if (total > limitBytes) throw new ReadLimitExceeded(what, limitBytes);
      chunks.push(read === chunk.length ? chunk : chunk.subarray(0, read));
    }
  } finally {
    if (typeof file !== "number") closeSync(fd);
  }
}

/** `readFileWithin`, as UTF-8 text. */
export function readTextWithin(file: string | number, limitBytes: number, what: string): string {
  return readFileWithin(file, limitBytes, what).toString("utf8");
}
