/**
 * Errors once. The dynamic provider host prints every error that check, diff,
 * read or delete throw, as `console.error(`${e}: ${e.stack}`)`, before it
 * returns the error to the engine (@pulumi/pulumi 3.x,
 * `cmd/dynamic-provider/index.js`). The CLI shows that print as a diagnostic of
 * the stack and the returned error as a diagnostic of the resource: a failing
 * refresh or destroy said everything twice in its diagnostics (and a third
 * time in the resource's progress line), the stack's copy ending in a stray
 * `: ` since our explained errors carry no stack.
 *
 * An explained error (./errors.ts) says all there is to say, under the
 * resource it belongs to, so the host's print of it is dropped: the console of
 * the host process skips exactly the text the host makes of that error, once.
 * Anything else (a bug's error, with its stack) is still printed.
 */
import { ExplainedError } from "./errors";

const expectedEchoes = new Set<string>();
let filtering = false;

/** The error as thrown from read or delete; the host's print of it is skipped when it is an explained error. */
export function shownOnce(error: Error): Error {
  if (!(error instanceof ExplainedError)) return error;
  expectedEchoes.add(`${error}: ${error.stack}`);
  if (!filtering) {
    filtering = true;
    const print = console.error.bind(console);
    console.error = (...values: unknown[]) => {
      if (values.length === 1 && typeof values[0] === "string" && expectedEchoes.delete(values[0])) return;
      print(...values);
    };
  }
  return error;
}
