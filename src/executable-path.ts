/**
 * Where the tools look for a program they run (`pulumi`). A PATH entry that
 * is empty or relative (`::`, `.`, `node_modules/.bin`) is resolved from the
 * working directory, which may be a checkout of anyone's branch: an
 * executable committed there would run with the command's environment, its
 * tokens included. So only the absolute entries are searched.
 */
import { delimiter, isAbsolute } from "node:path";

/** `PATH` with only its absolute entries, in their order. */
export function absolutePathEntries(path: string | undefined): string {
  return (path ?? "")
    .split(delimiter)
    .filter((dir) => isAbsolute(dir))
    .join(delimiter);
}
