/**
 * Text an attacker with a Developer's access could put in a report: names,
 * owners, kinds, field paths, values and messages that would be Markdown,
 * HTML, links, mentions, references, emoji, table breaks or hidden text if
 * the report let them through, invisible and reordering characters, very
 * long strings, and a value nested 3,000 deep. `hostilePreview` puts each in
 * every place of a preview (in the shape `pulumi preview --json` writes, as in
 * ./fixtures) that reaches the report; given harmless strings of the same
 * lengths instead, it builds the same report with nothing to defuse.
 */
import type { PreviewOutput } from "../../src/review/preview";

export const HOSTILE: readonly string[] = [
  "<!-- the rest of the note is hidden",
  "-->",
  "a | b || c",
  "`code` ``two`` ```",
  "[x](javascript:alert(1))",
  "![img](https://evil.example.com/i.png)",
  "<img src=x onerror=alert(1)>",
  "<script>alert(1)</script>",
  "@all",
  "#1",
  "!12",
  ":smile:",
  "**bold** __strong__ _em_ *em*",
  "line one\nline two",
  "carriage\rreturn",
  "right-to-left \u202Eevil.exe",
  "nul \u0000 here",
  "https://evil.example.com/steal",
  "[click](https://evil.example.com)",
  "<details><summary>open me</summary>",
  "</code></td></tr></table>",
  "# heading",
  "- item",
  "&lt;b&gt; &amp; &#60;",
  "~~strike~~ ~label %milestone $snippet &epic ^alert",
  "www.evil.example.com",
  "someone@example.com",
  "back\\slash \\| \\`",
  "zero\u200Bwidth\uFEFF and \u2066isolate\u2069",
  "c1 \u0085 \u009B controls",
  "<http://evil.example.com>",
  "x".repeat(5000),
  "blank \u034F\uFE0F\u{E0100}\u115F\u3164\u2800\u00A0 fillers",
  "_x_ a\\_b\\ \\\\`c` &amp;",
  "ends with a backslash\\",
];

/** A value nested `depth` deep: `{"a":{"a":…{"a":"bottom"}…}}`. */
export function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** Harmless strings of the same lengths (long ones are cut the same way). */
export const harmless = (strings: readonly string[]): string[] => strings.map((text, index) => (text.length > 150 ? "h".repeat(text.length) : `harmless${index}`));

const BADGE = "pulumi-nodejs:dynamic/platform:Badge";
const urnOf = (type: string, name: string) => `urn:pulumi:e2e::review-hostile::${type}::${name}`;

/**
 * A preview in which every string of `corpus` is a resource's name, a badge's
 * name, owner and link, a field path and a value of a foreign kind, a kind's
 * name, and a warning; the first is also an error; every change kind
 * carries one (create, update, replace, delete, an only-these set's removal,
 * a takeover, drift), and an update changes a value 3,000 deep.
 */
export function hostilePreview(corpus: readonly string[]): PreviewOutput {
  const steps: unknown[] = [];
  corpus.forEach((text, index) => {
    const inputs = { group: text, name: text, linkUrl: text, imageUrl: `https://ci.example.com/${index}.svg` };
    steps.push({ op: "create", urn: urnOf(BADGE, text), newState: { type: BADGE, inputs } });
    const foreign = `hostile:index:${text}`;
    steps.push({ op: "create", urn: urnOf(foreign, `${index}`), newState: { type: foreign, inputs: { [text]: text } } });
    steps.push({ op: "delete", urn: urnOf(BADGE, `deleted-${index}`), oldState: { type: BADGE, id: `groups/acme/badges/${index + 1}`, inputs } });
  });
  const [first] = corpus;
  const badge = (name: string, inputs: Record<string, unknown>, id = "groups/acme/badges/900") => ({ type: BADGE, id, inputs: { group: "acme", linkUrl: "https://ci.example.com", imageUrl: "https://ci.example.com/b.svg", ...inputs }, outputs: { name } });
  steps.push(
    {
      op: "update",
      urn: urnOf(BADGE, "updated"),
      oldState: badge("updated", { name: corpus.join(" ") }),
      newState: badge("updated", { name: [...corpus].reverse().join(" ") }),
    },
    {
      op: "update",
      urn: urnOf("hostile:index:Deep", "deep"),
      oldState: { type: "hostile:index:Deep", inputs: { deep: nested(3000) } },
      newState: { type: "hostile:index:Deep", inputs: { deep: { changed: nested(3000) } } },
    },
    {
      op: "replace",
      urn: urnOf(BADGE, "replaced"),
      oldState: badge("replaced", { name: first, group: first }, "groups/acme/badges/901"),
      newState: badge("replaced", { name: first, group: corpus.at(-2) }),
      replaceReasons: ["group"],
    },
    {
      op: "create",
      urn: urnOf(BADGE, "taken"),
      newState: badge("taken", { name: first, adoptExisting: true, takeover: { id: "groups/acme/badges/902", overwrites: { linkUrl: first } } }),
    },
    {
      op: "update",
      urn: urnOf("pulumi-nodejs:dynamic/platform:ExclusiveBadges", "only-these"),
      oldState: { type: "pulumi-nodejs:dynamic/platform:ExclusiveBadges", id: "groups/acme/badges", inputs: { group: "acme", keep: [], unexpected: corpus.map((text, index) => ({ badgeId: 1000 + index, name: text, linkUrl: text })) } },
      newState: { type: "pulumi-nodejs:dynamic/platform:ExclusiveBadges", inputs: { group: "acme", keep: [], unexpected: [] } },
    },
    { op: "refresh", urn: urnOf(BADGE, "drifted"), oldState: badge("drifted", { name: "drifted" }) },
    {
      op: "update",
      urn: urnOf(BADGE, "drifted"),
      oldState: { ...badge("drifted", { name: "drifted" }), outputs: { name: "drifted", linkUrl: first } },
      newState: badge("drifted", { name: "drifted", linkUrl: "https://ci.example.com/fixed" }),
    },
  );
  steps.push(...platformKindSteps(corpus));
  const diagnostics = corpus.map((text) => ({ urn: urnOf(BADGE, text), message: `warning: ${text}\n`, severity: "warning" }));
  diagnostics.push({ urn: urnOf(BADGE, first!), message: `error: ${first}\n`, severity: "error" });
  return { steps: steps as PreviewOutput["steps"], diagnostics, changeSummary: {} };
}

const platform = (kind: string) => `pulumi-nodejs:dynamic/platform:${kind}`;

/**
 * The inputs of each of the platform's own kinds (groups and projects, who may
 * do what, variables, hooks and credentials) with `text` in every place a
 * program or a server gives a string: names, paths, owners, users, label
 * names and colours, branch patterns, hook URLs, variable keys, token names.
 */
const KIND_INPUTS: Record<string, (text: string) => Record<string, unknown>> = {
  Group: (text) => ({ parent: text, path: text, name: text, description: text }),
  Project: (text) => ({ group: text, path: text, name: text, description: text, topics: [text] }),
  Label: (text) => ({ project: text, name: text, color: text, description: text }),
  GroupMember: (text) => ({ group: text, user: text, accessLevel: text, expiresAt: text }),
  ProjectMember: (text) => ({ project: text, user: text, accessLevel: "developer", expiresAt: text }),
  GroupShare: (text) => ({ group: text, sharedWith: text, groupAccess: text, expiresAt: text }),
  ProjectShare: (text) => ({ project: text, sharedWith: text, groupAccess: "reporter" }),
  ProtectedBranch: (text) => ({ project: text, name: `${text}/*`, pushAccessLevel: text, mergeAccessLevel: "maintainer" }),
  ProtectedTag: (text) => ({ project: text, name: `${text}-*`, createAccessLevel: text }),
  ApprovalRule: (text) => ({ project: text, name: text, approvalsRequired: 1, usernames: [text] }),
  ProjectVariable: (text) => ({ project: text, key: text, value: "[secret]", description: text, environmentScope: text }),
  GroupVariable: (text) => ({ group: text, key: text, value: "[secret]", description: text }),
  InstanceVariable: (text) => ({ key: text, value: "[secret]", description: text }),
  ProjectHook: (text) => ({ project: text, url: text, name: text, description: text, pushEventsBranchFilter: text }),
  GroupHook: (text) => ({ group: text, url: text, name: text }),
  GroupAccessToken: (text) => ({ group: text, name: text, scopes: [text], accessLevel: text, expiresAt: text }),
  ProjectAccessToken: (text) => ({ project: text, name: text, scopes: [text], expiresAt: text }),
  DeployToken: (text) => ({ project: text, name: text, username: text, scopes: [text] }),
  DeployKey: (text) => ({ project: text, title: text, key: text }),
  ProtectedEnvironment: (text) => ({ project: text, name: text, deployAccessLevels: [{ userId: text }, { groupId: text }, { accessLevel: text }], approvalRules: [{ userId: text, requiredApprovals: 1 }] }),
};

/** The kinds whose words say what a step gives or takes (who gains what role), or whose name is a path. */
const WORDED = ["Group", "Project", "GroupMember", "ProjectMember", "GroupShare", "ProjectShare"];
/** The kinds that carry every string: those, and those whose delete's words name what it opens. */
const EVERY_STRING = [...WORDED, "ProtectedEnvironment"];

/**
 * Steps of the platform's own kinds carrying each string: a create of every
 * kind, a delete, an update and a replacement of the kinds whose words say
 * who gains or loses what, what a refresh read from the server (a group's
 * name and description set by someone else, a member's username), and the
 * labels and members an only-these set deletes.
 */
function platformKindSteps(corpus: readonly string[]): unknown[] {
  const steps: unknown[] = [];
  const urn = (kind: string, name: string) => urnOf(platform(kind), name);
  const kinds = Object.keys(KIND_INPUTS);
  corpus.forEach((text, index) => {
    // Every string in each kind whose words name what it is about; the rest of the kinds take the strings in turn.
    const carrying = kinds.filter((kind, at) => EVERY_STRING.includes(kind) || at % (kinds.length - EVERY_STRING.length) === index % (kinds.length - EVERY_STRING.length));
    for (const kind of carrying) {
      const inputs = KIND_INPUTS[kind]!(text);
      steps.push({ op: "create", urn: urn(kind, `new-${index}`), newState: { type: platform(kind), inputs } });
      const old = { type: platform(kind), id: `${kind}/${index + 1}`, inputs, outputs: { ...inputs, fullPath: text, username: text, sharedWithPath: text } };
      steps.push({ op: "delete", urn: urn(kind, `gone-${index}`), oldState: old });
      if (!WORDED.includes(kind)) continue;
      const changed = { ...inputs, accessLevel: "maintainer", groupAccess: "maintainer", description: `${text} changed` };
      steps.push({ op: "update", urn: urn(kind, `changed-${index}`), oldState: old, newState: { type: platform(kind), inputs: changed } });
      steps.push({ op: "replace", urn: urn(kind, `moved-${index}`), oldState: old, newState: { type: platform(kind), inputs: { ...inputs, group: "acme", project: "acme/web" } }, replaceReasons: ["group", "project"] });
    }
    const group = { type: platform("Group"), id: `groups/${index + 1}`, inputs: { parent: "acme", path: "payments", name: "Payments" }, outputs: { parent: "acme", path: "payments", name: "Payments", fullPath: "acme/payments" } };
    const renamed = { ...group, outputs: { ...group.outputs, name: text, description: text } };
    steps.push({ op: "refresh", urn: urn("Group", `drifted-${index}`), oldState: group }, { op: "update", urn: urn("Group", `drifted-${index}`), oldState: renamed, newState: { type: group.type, inputs: group.inputs } });
    const member = { type: platform("GroupMember"), id: `groups/acme/members/${index + 1}`, inputs: { group: "acme", user: index + 1, accessLevel: "developer" }, outputs: { group: "acme", user: index + 1, accessLevel: 30, username: "someone" } };
    steps.push({ op: "refresh", urn: urn("GroupMember", `drifted-${index}`), oldState: member }, { op: "update", urn: urn("GroupMember", `drifted-${index}`), oldState: { ...member, outputs: { ...member.outputs, username: text } }, newState: { type: member.type, inputs: member.inputs } });
  });
  const removed = (kind: string, entries: Record<string, unknown>[]) => ({
    op: "update",
    urn: urn(kind, "only-these"),
    oldState: { type: platform(kind), id: "groups/acme/members", inputs: { group: "acme", keep: [], unexpected: entries } },
    newState: { type: platform(kind), inputs: { group: "acme", keep: [], unexpected: [] } },
  });
  steps.push(
    removed("ExclusiveGroupMembers", corpus.map((text, index) => ({ userId: 2000 + index, userName: text, accessLevel: 30 }))),
    removed("ExclusiveLabels", corpus.map((text, index) => ({ labelId: 3000 + index, name: text, color: text }))),
  );
  return steps;
}
