/**
 * Exports another module's values without loading it: each name a getter
 * that loads the module when one of its names is first read. Every Pulumi
 * command starts two processes that load the package (the program and the
 * dynamic provider host), and each uses a few of its kinds, data functions
 * and actions: their registries (src/resources/kinds.ts,
 * src/functions/index.ts, src/actions/index.ts) export them so, as the index
 * of every Pulumi provider SDK does. A name the module does not export fails
 * when it is read.
 */
export function lazyLoad(exports: object, names: readonly string[], load: () => Record<string, unknown>): void {
  let loaded: Record<string, unknown> | undefined;
  for (const name of names) {
    Object.defineProperty(exports, name, {
      enumerable: true,
      get() {
        loaded ??= load();
        const value = loaded[name];
        if (value === undefined) throw new Error(`${name} is registered as an export of a module that does not export it`);
        return value;
      },
    });
  }
}
