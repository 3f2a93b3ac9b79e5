/**
 * The provider text that Pulumi keeps in the state of every resource
 * (`__provider`, in its inputs and its outputs) and that the dynamic provider
 * host turns back into a provider with
 * `requireFromString(text).handler()` (@pulumi/pulumi 3.259,
 * cmd/dynamic-provider/index.js getProvider), once per distinct text and
 * process, before `configure`.
 *
 * It is hand-written rather than made by the SDK's closure serializer (which
 * wrote 2.7 KB, twice per resource, and the engine rewrites the whole state
 * after every step): a few hundred bytes that load today's implementation
 * from the installed package when the host asks for it. So the state stays
 * small, nothing (no credentials) is captured, and a stack written by an
 * older version is refreshed and deleted by the version installed today.
 *
 * The text must not vary between runs or machines (it is compared like any
 * input): it depends on the resource kind only. It avoids `<`, `>` and `&`,
 * which the CLI writes as six-byte escapes in the state.
 */

/** The `__provider` text of one resource kind; the same text every time. */
export function serializedProvider(kind: string): string {
  // When the package cannot be loaded where the program is (a `destroy` after
  // `npm uninstall`, a state moved to another checkout), the error says what to
  // do. The host prints an error's stack beside its message: it carries none.
  return (
    'exports.handler=function(){try{var r=require("pulumi-platform/runtime")}catch(e){throw Object.assign(Error(' +
    '"pulumi-platform could not be loaded from "+process.cwd()+" ("+e.message.split("\\n")[0]+"): ' +
    'install it there (npm install path/to/pulumi-platform.tgz) and run this again"),{stack:""})}' +
    `return r.provider(${JSON.stringify(kind)})}`
  );
}
