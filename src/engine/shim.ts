/**
 * The provider text that Pulumi keeps in the state of every resource
 * (`__provider`, in its inputs and its outputs) and that the dynamic provider
 * host turns back into a provider with
 * `requireFromString(text).handler()` (@pulumi/pulumi 3.259,
 * cmd/dynamic-provider/index.js getProvider), once per distinct text and
 * process, before `configure`.
 *
 * It is hand-written rather than made by the SDK's closure serializer (whose
 * text is several times larger, is stored twice per resource, and the engine
 * rewrites the whole state after every step): a short text that loads today's implementation
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
  // When the package (or one of its dependencies) is not found where the
  // program is (a `destroy` after `npm uninstall`, a state moved to another
  // checkout), the error says what to do, with no stack; any other failure to
  // load it (the Node.js version check) is its own message. The host prints `${error}: ${error.stack}` before it
  // returns the error to the engine, which shows the error under the resource:
  // that print is skipped (as ./shown-once.ts does for our explained errors),
  // so the message is shown once. Single quotes: JSON escapes double ones.
  return (
    "exports.handler=function(){try{var r=require(\"pulumi-platform/runtime\")}catch(e){if(e.code!='MODULE_NOT_FOUND')throw e;" +
    "var m=Error('Install pulumi-platform in '+process.cwd()+' (npm install path/to/pulumi-platform.tgz) and run this again.')," +
    "p=console.error;m.stack='';console.error=function(s){s==m+': '||p.apply(console,arguments)};throw m}" +
    `return r.provider('${kind}')}`
  );
}
