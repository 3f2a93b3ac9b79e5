/**
 * Large previews for the review's limits (test/review/limits.test.ts and
 * scripts/bench-review.mts): steps in the shape `pulumi preview --json` writes
 * for this package's resources (each state with its `__provider`, its
 * dependencies and the program's stack trace, as in test/review/fixtures),
 * written to a file one step at a time so that a 100 MB preview is never one
 * string in the writer.
 */
import { closeSync, openSync, writeSync } from "node:fs";

const STACK = "urn:pulumi:prod::infra::pulumi:pulumi:Stack::infra-prod";
const PROVIDER = "urn:pulumi:prod::infra::pulumi:providers:pulumi-nodejs::default::a36530f8-a56f-4045-8dfb-32514a974a65";
const BADGE = "pulumi-nodejs:dynamic/platform:Badge";
// The serialized provider every dynamic resource's state carries (as long as the real one).
const SERIALIZED = `exports.handler=function(){try{var r=require("pulumi-platform/runtime")}catch(e){if(e.code!='MODULE_NOT_FOUND')throw e;var m=Error('Install pulumi-platform in '+process.cwd()+' and run this again.'),p=console.error;m.stack='';console.error=function(s){s==m+': '||p.apply(console,arguments)};throw m}return r.provider('Badge')}`;
// The program's stack trace, as long as the real CLI's for a program in a CI checkout (test/review/fixtures).
const TRACE = Array.from({ length: 13 }, (_, frame) =>
  frame % 3 === 1 ? {} : { sourcePosition: `project:///../../../builds/acme/platform-infra/node_modules/@pulumi/pulumi/vendor/ts-node@7.0.1/index.js#${3000 + frame},23` },
);

/** How many changes of each kind a large preview proposes. */
export interface LargeCounts {
  create: number;
  update: number;
  delete: number;
  replace: number;
  removal: number;
}

const urnOf = (name: string, type = BADGE) => `urn:pulumi:prod::infra::${type}::${name}`;

function state(name: string, index: number, inputs: Record<string, unknown>, recorded = true, type = BADGE) {
  const group = `team-${index % 300}`;
  const all = { __provider: SERIALIZED, group, name, linkUrl: `https://ci.example.com/${group}/${name}`, imageUrl: `https://ci.example.com/${group}/${name}.svg`, ...inputs };
  return {
    urn: urnOf(name, type),
    custom: true,
    // A state the engine has recorded has an id; a step's new state has none yet.
    ...(recorded ? { id: `groups/${group}/badges/${index + 1}` } : {}),
    type,
    inputs: all,
    outputs: { ...all, badgeId: index + 1, renderedLinkUrl: all.linkUrl, renderedImageUrl: all.imageUrl },
    parent: STACK,
    dependencies: [],
    provider: PROVIDER,
    propertyDependencies: Object.fromEntries(Object.keys(all).map((key) => [key, []])),
    created: "2026-11-26T12:25:26.544405729Z",
    modified: "2026-11-26T12:25:33.494260019Z",
    sourcePosition: `project:///index.ts#${index},1`,
    stackTrace: TRACE,
  };
}

/** The kinds of change a large preview cycles through by default. */
const MIX: StepKind[] = ["create", "create", "update", "update", "delete", "replace"];
type StepKind = Exclude<keyof LargeCounts, "removal">;

/** The step of change `index`, of the given kind. */
function stepOf(index: number, kind: StepKind): unknown {
  const name = `badge-${index}`;
  switch (kind) {
    case "create":
      return { op: "create", urn: urnOf(name), provider: PROVIDER, newState: state(name, index, {}, false), detailedDiff: null };
    case "update":
      return { op: "update", urn: urnOf(name), provider: PROVIDER, oldState: state(name, index, {}), newState: state(name, index, { linkUrl: `https://ci.example.com/new/${index}` }, false), diffReasons: ["linkUrl"], detailedDiff: null };
    case "delete":
      return { op: "delete", urn: urnOf(name), provider: PROVIDER, oldState: state(name, index, {}), detailedDiff: null };
    case "replace":
      return { op: "replace", urn: urnOf(name), provider: PROVIDER, oldState: state(name, index, {}), newState: state(name, index, { group: `moved-${index % 7}` }, false), replaceReasons: ["group"], detailedDiff: null };
  }
}

/**
 * Writes a preview of about `bytes` (or of `changes` changes, whichever comes
 * first) to `file`, its changes cycling through `kinds` (creates, updates,
 * deletes and replacements by default), with one only-these set that deletes
 * `removals` badges besides; the counts of each kind of change it proposes.
 */
export function writeLargePreview(
  file: string,
  { bytes = Infinity, changes = Infinity, removals = 0, kinds = MIX }: { bytes?: number; changes?: number; removals?: number; kinds?: StepKind[] },
): LargeCounts {
  const counts: LargeCounts = { create: 0, update: 0, delete: 0, replace: 0, removal: removals };
  const fd = openSync(file, "w");
  try {
    let written = 0;
    const write = (text: string) => {
      writeSync(fd, text);
      written += Buffer.byteLength(text);
    };
    write(`{"config":{"platform:url":"https://platform.example.com"},"steps":[`);
    write(JSON.stringify({ op: "same", urn: STACK, oldState: { urn: STACK, type: "pulumi:pulumi:Stack" }, newState: { urn: STACK, type: "pulumi:pulumi:Stack" } }));
    if (removals > 0) {
      const set = "pulumi-nodejs:dynamic/platform:ExclusiveBadges";
      const unexpected = Array.from({ length: removals }, (_, index) => ({ badgeId: 100_000 + index, name: `stray-${index}`, linkUrl: `https://stray.example.com/${index}` }));
      const setState = (inputs: Record<string, unknown>) => ({ urn: urnOf("only-these", set), type: set, id: "groups/acme/badges", inputs: { __provider: SERIALIZED, group: "acme", keep: [], ...inputs } });
      write(`,${JSON.stringify({ op: "update", urn: urnOf("only-these", set), provider: PROVIDER, oldState: setState({ unexpected }), newState: setState({ unexpected: [] }) })}`);
    }
    for (let index = 0; index < changes && written < bytes; index++) {
      const kind = kinds[index % kinds.length]!;
      counts[kind]++;
      write(`,${JSON.stringify(stepOf(index, kind))}`);
    }
    write(`],"diagnostics":[],"changeSummary":{},"duration":1}`);
  } finally {
    closeSync(fd);
  }
  return counts;
}
