/**
 * The review report, from previews the real CLI wrote against the emulator
 * (./fixtures, made by scripts/make-review-fixtures.mts and, for what the
 * report must name right, scripts/make-review-naming-fixtures.mts) and from
 * the hostile corpus (./hostile-corpus.ts): each report checked
 * as text against its golden copy (`UPDATE_GOLDEN=1` rewrites them), what each
 * kind of step reads as, the secrets, a very large preview within the note's
 * size, and the guard that compares a new preview with the reviewed one.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reviewOf, type Review } from "../../src/review/changes";
import { main } from "../../src/review/cli";
import { code, markdownOf, markerOf, NOTE_LIMIT, reportOf, sentenceOf } from "../../src/review/markdown";
import { parsePreview, type PreviewOutput, type PreviewStep } from "../../src/review/preview";
import { parseSummary, summaryOf } from "../../src/review/summary";
import { differences } from "../../src/review/guard";
import { HOSTILE, hostilePreview } from "./hostile-corpus";

const fixtures = path.join(__dirname, "fixtures");
const read = (name: string) => readFileSync(path.join(fixtures, name), "utf8");
const reviewOfFixture = (name: string) => reviewOf(parsePreview(read(`${name}.json`)));
const sentences = (review: Review) => summaryOf(review).sentences;

/** A report checked against its golden copy (`UPDATE_GOLDEN=1` rewrites it). */
function expectGolden(name: string, report: string): void {
  const golden = path.join(fixtures, `${name}.md`);
  if (process.env.UPDATE_GOLDEN) writeFileSync(golden, report);
  expect(report).toBe(readFileSync(golden, "utf8"));
}

describe("golden reports", () => {
  for (const name of ["new-stack", "change", "change-refresh", "drift", "refused", "applied", "naming", "naming-strayed"]) {
    it(name, () => {
      const preview = parsePreview(read(`${name}.json`));
      expectGolden(name, markdownOf(reviewOf(preview), { stack: "e2e", applied: preview.applied }));
    });
  }

  it("hostile: names, owners, kinds, field paths, values and messages of ./hostile-corpus.ts, in every kind of change", () => {
    expectGolden("hostile", markdownOf(reviewOf(parsePreview(JSON.stringify(hostilePreview(HOSTILE)))), { stack: "e2e" }));
  });
});

describe("what each step reads as", () => {
  it("a change: destructive steps first, as what they destroy; then takeovers, updates, creates", () => {
    const review = reviewOfFixture("change");
    expect(review.ok).toBe(true);
    expect(sentences(review)).toEqual([
      "deletes badge 1 `legacy` of group acme",
      "replaces SAML group link `platform-admins` of group acme (provider changes)",
      "takes over badge `handmade` of group acme",
      "updates only-these set of badges of group acme",
      "updates badge 2 `docs` of group acme",
      "updates pipeline schedule 1 `Nightly deploy (review test)` of project acme/web",
      "creates badge `status` of group acme",
    ]);
    const docs = review.changes.find((change) => change.name === "docs")!;
    expect(docs.fields).toEqual([{ path: "name", before: { value: "docs" }, after: { value: "documentation" } }]);
  });

  it("with --refresh: the objects an only-these set deletes, each named, and what drifted apart from the program's changes", () => {
    const review = reviewOfFixture("change-refresh");
    const removals = review.changes.filter((change) => change.kind === "removal");
    // Badge 3 `handmade` is the one this run takes over, which `keep` names once it is known: no deletion.
    expect(removals.map((change) => change.object)).toEqual(["badge 4 `stray`"]);
    // Another value of `keep` is known only at apply (the badge this run creates): the report says so.
    expect(removals.every((change) => change.note?.includes("known only at apply"))).toBe(true);
    const drift = review.changes.filter((change) => change.kind === "drift");
    expect(drift.map((change) => [change.object, change.fields.map((field) => field.path)])).toEqual([["badge 2 `docs`", ["linkUrl", "renderedLinkUrl"]]]);
    expect(drift[0]!.fields[0]).toEqual({ path: "linkUrl", before: { value: "https://docs.example.com" }, after: { value: "https://drifted.example.com" } });
  });

  it("a preview refused at verification fails, naming the resource and the rule", () => {
    const review = reviewOfFixture("refused");
    expect(review.ok).toBe(false);
    expect(review.problems).toEqual([{ resource: "orphan (Badge)", message: expect.stringMatching(/^group: group "no-such-group" does not exist/) }]);
  });

  it("an apply's events: what it did, in the past tense; the object it kept is not reported deleted", () => {
    const preview = parsePreview(read("applied.json"));
    expect(preview.applied).toBe(true);
    const review = reviewOf(preview);
    expect(review.ok).toBe(true);
    expect(review.changes.filter((change) => change.kind === "removal").map((change) => change.object)).toEqual(["badge 4 `stray`"]);
    expect(markdownOf(review, { applied: true })).toMatch(/^\*\*Applied:\*\* 2 deleted, 1 replaced, 1 taken over, 3 updated, 1 created/m);
  });

  it("a new stack only creates: its five objects, not the stack's own resource (the engine's record of the program)", () => {
    const review = reviewOfFixture("new-stack");
    expect(Object.entries(review.counts).filter(([, count]) => count > 0)).toEqual([["create", 5]]);
    expect(review.changes.map((change) => change.type)).not.toContain("resource");
  });
});

describe("what the report names (./fixtures/naming*.json: the real CLI, test/e2e/programs/review-naming)", () => {
  const naming = () => reviewOfFixture("naming");

  it("a badge moved to another project: the badge of the old project is destroyed, a new one created in the new", () => {
    const moved = naming().changes.find((change) => change.name === "moved")!;
    expect(moved.kind).toBe("replace");
    expect(moved.owner).toBe("project acme/web");
    expect(sentences({ ...naming(), changes: [moved] })).toEqual(["replaces badge 1 `moved` of project acme/web by a new one of project acme/api (project changes)"]);
    const report = markdownOf(naming());
    expect(report).toContain("**project <code>acme/web</code>**\n\n- `+-` replaces badge 1 <code>moved</code> of project <code>acme/web</code> by a new one of project <code>acme/api</code>");
  });

  it("a takeover that an only-these set keeps is no deletion: the set's keep depends on the resource that takes the badge over", () => {
    const review = naming();
    expect(review.changes.filter((change) => change.kind === "takeover").map((change) => change.object)).toEqual(["badge `handmade`"]);
    expect(review.changes.filter((change) => change.kind === "removal")).toEqual([]);
    expect(review.counts.removal).toBe(0);
  });

  it("a schedule changed with takeOwnership, owned by someone else: whom its pipelines run as, before and after", () => {
    const schedule = naming().changes.find((change) => change.name === "nightly")!;
    expect(schedule.fields).toContainEqual({ path: "owner (whom its pipelines run as)", before: { value: "alice" }, after: { tokenUser: true } });
    expect(schedule.note).toMatch(/takes ownership/);
    const applied = reviewOfFixture("naming-strayed").changes.find((change) => change.name === "nightly")!;
    expect(applied.fields).toContainEqual({ path: "owner (whom its pipelines run as)", before: { value: "alice" }, after: { value: "maintainer" } });
  });

  it("an engine message naming a resource is that resource's problem, whichever resource it came attached to", () => {
    const text = read("naming-strayed.json");
    expect(reviewOf(parsePreview(text)).problems).toEqual([{ resource: "extra (Badge)", message: expect.stringMatching(/^expected resource operations for urn:\S+::extra but none were seen$/) }]);
    const elsewhere = text.replace(/"urn":"urn:pulumi:e2e::review-naming::pulumi-nodejs:dynamic\/platform:Badge::extra","prefix":"error: "/, '"urn":"urn:pulumi:e2e::review-naming::pulumi-nodejs:dynamic/platform:PipelineSchedule::nightly","prefix":"error: "');
    expect(elsewhere).not.toBe(text);
    expect(reviewOf(parsePreview(elsewhere)).problems.map((problem) => problem.resource)).toEqual(["extra (Badge)"]);
  });
});

describe("text from a program or a server", () => {
  it("is a code element: what would be Markdown or HTML as character references, the rest as it is; invisible characters as their escape", () => {
    expect(code("[click](https://x.example.com) @all #1 :smile: `a` | <b>")).toBe(
      "<code>&#91;click&#93;(https&#58;//x.example.com) &#64;all #1 :smile: &#96;a&#96; &#124; &#60;b></code>",
    );
    expect(code("a\u202Eb\u0000c\nd\u200Be\u{E0041}")).toBe("<code>a\\u202Eb\\u0000c\\u000Ad\\u200Be\\u{E0041}</code>");
    expect(code("x".repeat(250), 200)).toBe(`<code>${"x".repeat(200)}</code>… <em>(250 characters, shown shortened)</em>`);
  });

  it("reads as it is where nothing in it is Markdown: paths, URLs, cron lines, variable names, times", () => {
    for (const text of ["acme/platform-infra", "variables.DEPLOY_ENVIRONMENT.value", "0 2 * * 1-5", "Europe/Berlin 12:30", "https&x=1", "%{project_path}/coverage.svg", "a > b"]) {
      expect(code(text), text).toBe(`<code>${text}</code>`);
    }
    expect(code("https://ci.example.com/a.svg?b=1&c=2")).toBe("<code>https&#58;//ci.example.com/a.svg?b=1&c=2</code>");
    expect(code("www.example.com someone@example.com")).toBe("<code>www&#46;example.com someone&#64;example.com</code>");
    // A backslash at the end would escape the `<` of the closing tag.
    expect(code("C:\\dir\\")).toBe("<code>C:\\dir&#92;</code>");
    // Emphasis that could open or close, a backslash escape, an entity: each a reference.
    expect(code("_em_ *em* ~~s~~ \\* &lt; $x$")).toBe("<code>&#95;em&#95; &#42;em&#42; &#126;&#126;s&#126;&#126; &#92;&#42; &#38;lt; &#36;x&#36;</code>");
  });

  it("characters that display as nothing or as blank are shown as their escape: the whole class, not a list", () => {
    const blank = ["\u034F", "\uFE0F", "\u{E0100}", "\u115F", "\u1160", "\u3164", "\uFFA0", "\u2800", "\u00A0", "\u2003", "\u180E", "\u{E0001}", "\u{E0020}", "\u{F0000}", "\u0378"];
    for (const character of blank) {
      const point = character.codePointAt(0)!.toString(16).toUpperCase();
      expect(code(`a${character}b`), point).toBe(`<code>a\\u${point.length > 4 ? `{${point}}` : point.padStart(4, "0")}b</code>`);
    }
    expect(code("ä é ß 漢字 😀 a b")).toBe("<code>ä é ß 漢字 😀 a b</code>");
  });

  it("the line under the verdict, read back from data, can hide nothing after it: no comment, no HTML, no fence", () => {
    const review = reviewOfFixture("change");
    for (const context of ["Previewed at commit abc. <!--", "```", "  ~~~", "<details><summary>x</summary>", "a\n\n<!--"]) {
      const report = markdownOf(review, { stack: "e2e", context });
      expect(report, context).toContain("- `-` deletes badge 1 <code>legacy</code> of group <code>acme</code>");
      // Between the marker and the first section: the heading, the verdict and the line under it.
      const head = report.slice(report.indexOf("\n") + 1, report.indexOf("#### ")).replace("<code>e2e</code>", "");
      expect(head, context).not.toMatch(/<|^\s*(?:```|~~~)/m);
    }
    expect(markdownOf(review, { context: "Applied commit `abc` ([job](https://ci.example.com/j/1))." })).toContain("\nApplied commit `abc` ([job](https://ci.example.com/j/1)).\n");
  });

  it("a report rendered again from data: names taken apart by the tool's own words, anything else shown whole as code", () => {
    const summary = summaryOf(reviewOfFixture("change"));
    const forged = { ...summary, changes: [{ ...summary.changes[0]!, object: "badge 1 `a` of group `b`", owner: "<img src=x>", note: "<b>@all</b>" }] };
    const report = markdownOf({ ...summary, ...parseSummary(JSON.stringify(forged)) } as Review);
    expect(report).toContain("- `-` deletes badge 1 <code>a&#96; of group &#96;b</code> of <code>&#60;img src=x></code>, <em>&#60;b>&#64;all&#60;/b></em>");
  });

  it("a stack's name cannot end the note's marker", () => {
    expect(markerOf("a --> <b>")).toBe('<!-- platform-review stack="a --\\u003e \\u003cb\\u003e" -->');
  });
});

describe("a rotation", () => {
  it("an access token's update reads as a rotation that revokes the current token; the token is named, never shown", () => {
    const type = "pulumi-nodejs:dynamic/platform:ProjectAccessToken";
    const base = { project: "acme/web", name: "deploy", scopes: ["api"], rotateBeforeDays: 14 };
    const review = reviewOf({
      steps: [
        {
          op: "update",
          urn: `urn:pulumi:dev::infra::${type}::deploy`,
          oldState: { type, id: "projects/acme%2Fweb/access_tokens/12", inputs: { ...base, plannedExpiresAt: "2027-12-06" }, outputs: { ...base, plannedExpiresAt: "2027-12-06", token: "glpat-old-token-value", tokenId: 12 } },
          newState: { type, inputs: { ...base, plannedExpiresAt: "2028-11-21" } },
        },
      ],
    } as PreviewOutput);
    expect(sentences(review)).toEqual(["rotates project access token 12 `deploy` of project acme/web"]);
    expect(review.changes[0]!.fields).toEqual([{ path: "plannedExpiresAt", before: { value: "2027-12-06" }, after: { value: "2028-11-21" } }]);
    const report = markdownOf(review);
    expect(report).toContain("rotates project access token 12 <code>deploy</code> of project <code>acme/web</code>, <em>revokes the current token; what reads the token gets the new one in this run</em>");
    expect(report + JSON.stringify(summaryOf(review))).not.toContain("glpat-old-token-value");
    expect(sentenceOf(review.changes[0]!, true)).toBe("rotated project access token 12 `deploy` of project acme/web");
  });
});

describe("secrets", () => {
  it("a value the CLI masks, and a property the resource declares secret, are never shown", () => {
    const preview: PreviewOutput = {
      steps: [
        {
          op: "update",
          urn: "urn:pulumi:dev::infra::pulumi-nodejs:dynamic/platform:GroupIntegration::chat",
          oldState: { id: "groups/acme/integrations/mattermost", inputs: { group: "acme", slug: "mattermost", webhook: "https://hooks.example.com/old-secret", channel: "ci" } },
          newState: { inputs: { group: "acme", slug: "mattermost", webhook: "https://hooks.example.com/new-secret", channel: "[secret]" } },
        } as PreviewStep,
      ],
    };
    const review = reviewOf(preview);
    const everything = markdownOf(review) + JSON.stringify(summaryOf(review));
    expect(everything).not.toContain("old-secret");
    expect(everything).not.toContain("new-secret");
    expect(review.changes[0]!.fields).toEqual([
      { path: "channel", before: { value: "ci" }, after: { secret: true } },
      { path: "webhook", before: { secret: true }, after: { secret: true } },
    ]);
  });
});

describe("a webhook: its token named only, with why its drift cannot be read", () => {
  const HOOK = "pulumi-nodejs:dynamic/platform:ProjectHook";
  const urn = "urn:pulumi:dev::infra::pulumi-nodejs:dynamic/platform:ProjectHook::ci";
  const base = { project: "acme/web", url: "https://ci.example.com/hooks", mergeRequestsEvents: true };

  it("a create names the token and each header value without showing them, shows the plain URL and header names, and says the token is never shown", () => {
    const review = reviewOf({
      steps: [{ op: "create", urn, newState: { type: HOOK, inputs: { ...base, token: "hook-token-value", customHeaders: { "X-Receiver-Key": "[secret]" } } } }],
    } as PreviewOutput);
    const change = review.changes[0]!;
    expect(change.fields).toEqual(
      expect.arrayContaining([
        { path: "token", before: { absent: true }, after: { secret: true } },
        { path: "url", before: { absent: true }, after: { value: "https://ci.example.com/hooks" } },
        { path: "customHeaders.X-Receiver-Key", before: { absent: true }, after: { secret: true } },
      ]),
    );
    expect(change.note).toBe("customHeaders, token are never shown by the server: the values it holds now cannot be read back, and a change made to them outside this program is not seen as drift");
    const everything = markdownOf(review) + JSON.stringify(summaryOf(review));
    expect(everything).not.toContain("hook-token-value");
    expect(markdownOf(review)).toContain("never shown by the server");
  });

  it("an update of the URL alone says nothing of the token; a URL with credentials (masked by the CLI) is named only", () => {
    const update = (url: string) =>
      reviewOf({ steps: [{ op: "update", urn, oldState: { type: HOOK, id: "projects/acme%2Fweb/hooks/1", inputs: { ...base, token: "[secret]" } }, newState: { type: HOOK, inputs: { ...base, url, token: "[secret]" } } }] } as PreviewOutput).changes[0]!;
    const moved = update("https://ci.example.com/moved");
    expect(moved.fields).toEqual([{ path: "url", before: { value: "https://ci.example.com/hooks" }, after: { value: "https://ci.example.com/moved" } }]);
    expect(moved.note).toBeUndefined();
    expect(update("[secret]").fields).toEqual([{ path: "url", before: { value: "https://ci.example.com/hooks" }, after: { secret: true } }]);
  });
});

describe("a value holding a secret among plain values: each part shown, only the secrets masked", () => {
  const SCHEDULE = "pulumi-nodejs:dynamic/platform:PipelineSchedule";
  const scheduleUrn = "urn:pulumi:dev::infra::pulumi-nodejs:dynamic/platform:PipelineSchedule::nightly";
  const base = { project: "acme/web", description: "Nightly", ref: "main", cron: "0 2 * * *" };
  // The CLI's other JSON form of a secret (`pulumi up --json`), which may carry the plain value: never read into.
  const wrapped = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", plaintext: '"leaked-token-value"' };

  it("a create: every variable's name, type and plain value; the secret value named only", () => {
    const variables = { DEPLOY_ENVIRONMENT: { value: "staging", variableType: "env_var" }, DEPLOY_TOKEN: { value: "[secret]", variableType: "env_var" }, SIGNING: { value: wrapped, variableType: "file" } };
    const review = reviewOf({ steps: [{ op: "create", urn: scheduleUrn, newState: { type: SCHEDULE, inputs: { ...base, variables } } }] } as PreviewOutput);
    expect(review.changes[0]!.fields.filter((field) => field.path.startsWith("variables"))).toEqual([
      { path: "variables.DEPLOY_ENVIRONMENT.value", before: { absent: true }, after: { value: "staging" } },
      { path: "variables.DEPLOY_ENVIRONMENT.variableType", before: { absent: true }, after: { value: "env_var" } },
      { path: "variables.DEPLOY_TOKEN.value", before: { absent: true }, after: { secret: true } },
      { path: "variables.DEPLOY_TOKEN.variableType", before: { absent: true }, after: { value: "env_var" } },
      { path: "variables.SIGNING.value", before: { absent: true }, after: { secret: true } },
      { path: "variables.SIGNING.variableType", before: { absent: true }, after: { value: "file" } },
    ]);
    const everything = markdownOf(review) + JSON.stringify(summaryOf(review));
    expect(everything).not.toContain("leaked-token-value");
    expect(markdownOf(review)).toContain("| <code>variables.DEPLOY_ENVIRONMENT.value</code> | <code>staging</code> |");
  });

  it("an update the engine gave no detailed diff for: the parts that differ, each secret named only", () => {
    const before = { DEPLOY_ENVIRONMENT: { value: "staging", variableType: "env_var" }, DEPLOY_TOKEN: { value: "[secret]", variableType: "env_var" } };
    const after = { DEPLOY_ENVIRONMENT: { value: "production", variableType: "env_var" }, DEPLOY_TOKEN: { value: "[secret]", variableType: "env_var" }, LEVEL: { value: "[secret]", variableType: "env_var" } };
    const review = reviewOf({
      steps: [{ op: "update", urn: scheduleUrn, oldState: { type: SCHEDULE, id: "projects/acme%2Fweb/pipeline_schedules/1", inputs: { ...base, variables: before } }, newState: { type: SCHEDULE, inputs: { ...base, variables: after } } }],
    } as PreviewOutput);
    expect(review.changes[0]!.fields).toEqual([
      { path: "variables.DEPLOY_ENVIRONMENT.value", before: { value: "staging" }, after: { value: "production" } },
      { path: "variables.LEVEL.value", before: { absent: true }, after: { secret: true } },
      { path: "variables.LEVEL.variableType", before: { absent: true }, after: { value: "env_var" } },
    ]);
  });

  it("a property the resource declares secret stays one masked value; a list nested thousands deep with a secret at its bottom is shown by parts without a stack", () => {
    const integration = reviewOf({
      steps: [{ op: "create", urn: "urn:pulumi:dev::infra::pulumi-nodejs:dynamic/platform:GroupIntegration::chat", newState: { type: "pulumi-nodejs:dynamic/platform:GroupIntegration", inputs: { group: "acme", slug: "mattermost", webhook: "https://hooks.example.com/plain-looking" } } }],
    } as PreviewOutput);
    expect(integration.changes[0]!.fields.find((field) => field.path === "webhook")).toEqual({ path: "webhook", before: { absent: true }, after: { secret: true } });
    let deep: unknown = ["[secret]", "plain"];
    for (let i = 0; i < 3000; i++) deep = [deep];
    const review = reviewOf({ steps: [{ op: "create", urn: "urn:pulumi:dev::infra::other:index:Deep::deep", newState: { type: "other:index:Deep", inputs: { deep } } }] } as PreviewOutput);
    expect(review.changes[0]!.fields.map((field) => [field.path.length, field.after])).toEqual([
      [4 + 3 * 3001, { secret: true }],
      [4 + 3 * 3001, { value: "plain" }],
    ]);
  });
});

describe("an owner named by numeric id reads by its path (the preview's `ownerPath`, src/engine/envelope.ts)", () => {
  const BADGE = "pulumi-nodejs:dynamic/platform:Badge";
  const badgeUrn = (name: string) => `urn:pulumi:dev::infra::${BADGE}::${name}`;
  const badge = { name: "coverage", linkUrl: "https://ci.example.com", imageUrl: "https://ci.example.com/b.svg" };

  it("in every kind of change: the path check read, or the one the state's outputs keep; without either, the id", () => {
    const review = reviewOf({
      steps: [
        { op: "create", urn: badgeUrn("made"), newState: { type: BADGE, inputs: { ...badge, group: 12, ownerPath: "acme" } } },
        { op: "delete", urn: badgeUrn("gone"), oldState: { type: BADGE, id: "groups/12/badges/3", inputs: { ...badge, group: 12 }, outputs: { ...badge, group: 12, ownerPath: "acme" } } },
        {
          op: "replace",
          urn: badgeUrn("moved"),
          oldState: { type: BADGE, id: "projects/7/badges/4", inputs: { ...badge, project: 7 }, outputs: { project: 7, ownerPath: "acme/web" } },
          newState: { type: BADGE, inputs: { ...badge, project: "8", ownerPath: "acme/api" } },
          replaceReasons: ["project"],
        },
        { op: "create", urn: badgeUrn("unread"), newState: { type: BADGE, inputs: { ...badge, group: 13 } } },
      ],
    } as PreviewOutput);
    expect(summaryOf(review).sentences).toEqual([
      "deletes badge 3 `coverage` of group acme",
      "replaces badge 4 `coverage` of project acme/web by a new one of project acme/api (project changes)",
      "creates badge `coverage` of group 13",
      "creates badge `coverage` of group acme",
    ]);
    expect(review.changes.flatMap((change) => change.fields.map((field) => field.path))).not.toContain("ownerPath");
  });
});

/** A preview of `creates` new badges and `deletes` old ones, in many groups. */
function largePreview(creates: number, deletes: number): PreviewOutput {
  const step = (op: string, index: number): PreviewStep => {
    const state = { id: `groups/team-${index % 40}/badges/${index}`, inputs: { group: `team-${index % 40}`, name: `badge-${index}`, linkUrl: `https://ci.example.com/${index}`, imageUrl: `https://ci.example.com/${index}.svg` } };
    return { op, urn: `urn:pulumi:prod::infra::pulumi-nodejs:dynamic/platform:Badge::b${op}${index}`, ...(op === "delete" ? { oldState: state } : { newState: state }) } as PreviewStep;
  };
  return { steps: [...Array.from({ length: creates }, (_, i) => step("create", i)), ...Array.from({ length: deletes }, (_, i) => step("delete", creates + i))] };
}

describe("large previews", () => {
  it("golden: folded sections and a truncation that says so", () => {
    const report = markdownOf(reviewOf(largePreview(120, 3)), { stack: "prod", maxChars: 12_000 });
    const golden = path.join(fixtures, "large.md");
    if (process.env.UPDATE_GOLDEN) writeFileSync(golden, report);
    expect(report).toBe(readFileSync(golden, "utf8"));
  });

  it("fold long sections and stay within the note limit, every deletion shown", () => {
    const review = reviewOf(largePreview(3000, 60));
    const report = markdownOf(review, { stack: "prod" });
    expect(report.length).toBeLessThanOrEqual(NOTE_LIMIT);
    expect(report).toContain("<details><summary>3000 changes: show</summary>");
    for (let i = 3000; i < 3060; i++) expect(report).toContain(`deletes badge ${i} <code>badge-${i}</code>`);
  });

  it("past a smaller limit, leave out the fields of creates, then creates, never what destroys, and say what is left out", () => {
    const review = reviewOf(largePreview(3000, 60));
    const { text: comment, leftOut } = reportOf(review, { maxChars: 65_536 });
    expect(comment.length).toBeLessThanOrEqual(65_536);
    expect(leftOut.fields.length + leftOut.changes.length).toBeGreaterThan(0);
    expect([...leftOut.fields, ...leftOut.changes].every((change) => change.kind === "create")).toBe(true);
    expect(comment).toContain(`**Not shown** (the note's size limit): the fields of ${leftOut.fields.length} changes, and ${leftOut.changes.length} changes; an apply is held to every value`);
    for (let i = 3000; i < 3060; i++) expect(comment).toContain(`deletes badge ${i} <code>badge-${i}</code>`);
    // The creates that keep their fields are the first ones: the last are cut first.
    const shortened = reportOf(reviewOf(largePreview(500, 5)), { maxChars: 100_000 });
    expect(shortened.leftOut.changes).toEqual([]);
    expect(shortened.leftOut.fields.length).toBeGreaterThan(0);
    expect(shortened.leftOut.fields.length).toBeLessThan(500);
    const createLines = shortened.text.split("\n").flatMap((line, index, lines) => (line.startsWith("- `+` creates") ? [lines[index + 2]?.startsWith("| field") ?? false] : []));
    expect(createLines[0]).toBe(true);
    expect(createLines.at(-1)).toBe(false);
    expect(shortened.text).toContain(`**Not shown** (the note's size limit): the fields of ${shortened.leftOut.fields.length} changes; an apply is held to every value`);
  });
});

describe("the guard: the preview before the apply against the reviewed one", () => {
  it("agrees with itself, and names each difference", () => {
    const reviewed = parseSummary(JSON.stringify(summaryOf(reviewOfFixture("change"))));
    expect(differences(reviewed.changes, reviewOfFixture("change").changes)).toEqual([]);
    const found = differences(reviewed.changes, reviewOfFixture("change-refresh").changes);
    expect(found).toContain("not reviewed: deletes badge 4 `stray` of group acme");
    expect(found).toContain("updates badge 2 `docs` of group acme: fields differ from the review: linkUrl");
  });
});

describe("long values: shown shortened, compared in full", () => {
  const update = (after: string, secret = false) =>
    parsePreview(
      JSON.stringify({
        steps: [
          {
            op: "update",
            urn: "urn:pulumi:dev::infra::pulumi-nodejs:dynamic/platform:PipelineSchedule::nightly",
            oldState: { type: "pulumi-nodejs:dynamic/platform:PipelineSchedule", id: "projects/acme%2Fweb/pipeline_schedules/1", inputs: { project: "acme/web", description: "short" } },
            newState: { type: "pulumi-nodejs:dynamic/platform:PipelineSchedule", inputs: { project: "acme/web", description: secret ? "[secret]" : after } },
          },
        ],
      }),
    );
  const long = "a".repeat(1234);

  it("the report shows the start and says it shortened; the data holds the length and the digest, not the tail", () => {
    const review = reviewOf(update(long));
    const after = review.changes[0]!.fields[0]!.after;
    expect(after).toEqual({ value: "a".repeat(299), characters: 1234, sha256: createHash("sha256").update(long).digest("hex") });
    expect(markdownOf(review)).toContain(`<code>${"a".repeat(299)}</code>… <em>(1,234 characters, shown shortened)</em>`);
  });

  it("two plans that differ after the 297th character differ for the guard, also read back from the data", () => {
    const reviewed = parseSummary(JSON.stringify(summaryOf(reviewOf(update(`${long}x`)))));
    expect(differences(reviewed.changes, reviewOf(update(`${long}x`)).changes)).toEqual([]);
    expect(differences(reviewed.changes, reviewOf(update(`${long}y`)).changes)).toEqual(["updates pipeline schedule 1 `short` of project acme/web: fields differ from the review: description"]);
  });

  it("a secret is never digested", () => {
    expect(reviewOf(update(long, true)).changes[0]!.fields[0]!.after).toEqual({ secret: true });
  });
});

describe("the command", () => {
  const run = async (...args: string[]) => {
    let out = "";
    const code = await main(args, {}, (text) => (out += text));
    return { code, out };
  };

  it("exits 0 for a preview that succeeded, 1 for one that failed, 3 when it is not what was reviewed", async () => {
    const file = (name: string) => path.join(fixtures, `${name}.json`);
    expect((await run("--preview", file("change"))).code).toBe(0);
    expect((await run("--preview", file("refused"))).code).toBe(1);
    const summary = path.join(mkdtempSync(path.join(tmpdir(), "review-")), "summary.json");
    await run("--preview", file("change"), "--json", summary, "--quiet");
    const guarded = await run("--preview", file("change-refresh"), "--reviewed", summary);
    expect(guarded.code).toBe(3);
    expect(guarded.out).toContain("#### Stopped: this is not what was reviewed");
  });

  it("the guard's notice names what differs as text: a hostile name stays inert there too", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "review-"));
    const [summary, hostile] = [path.join(dir, "summary.json"), path.join(dir, "hostile.json")];
    await run("--preview", path.join(fixtures, "change.json"), "--json", summary, "--quiet");
    writeFileSync(hostile, JSON.stringify(hostilePreview(HOSTILE)));
    const guarded = await run("--preview", hostile, "--reviewed", summary);
    expect(guarded.code).toBe(3);
    const notice = guarded.out.slice(guarded.out.indexOf("#### Stopped"), guarded.out.indexOf("#### Deletes"));
    expect(notice).toContain("- <code>not reviewed: deletes group &#96;&#60;img src=x onerror=alert(1)>&#96; of group &#60;img src=x onerror=alert(1)></code>");
    expect(notice).toContain("- <code>not reviewed: deletes group &#96;!12&#96; of group !12</code>");
    expect(notice).not.toMatch(/<img|<script|<!--|@all|\[click\]/);
  });

  it("refuses wrong usage before reading anything", async () => {
    await expect(run("--max-chars", "12")).rejects.toThrow("Give one of --preview <file> and --up <file>.");
    await expect(run("--preview", "x.json", "--max-chars", "12")).rejects.toThrow("--max-chars: must be a whole number of at least 1000");
    await expect(run("--preview", "/nonexistent/preview.json")).rejects.toThrow("Cannot read /nonexistent/preview.json: ENOENT");
  });
});

describe("what the engine narrates at preview (src/engine/import.ts, src/resources/exclusive-set.ts)", () => {
  const urn = (kind: string, name: string) => `urn:pulumi:e2e::review::pulumi-nodejs:dynamic/platform:${kind}::${name}`;
  const previewOf = (steps: unknown[]) => reviewOf(parsePreview(JSON.stringify({ steps, diagnostics: [], changeSummary: {} })));

  it("a takeover's `takeover` input gives the value each field has now; it is no field itself", () => {
    const inputs = { group: "acme", name: "handmade", linkUrl: "https://ci.example.com/new", imageUrl: "https://ci.example.com/b.svg" };
    const takeover = { id: "groups/acme/badges/3", overwrites: { linkUrl: "https://ci.example.com/old" } };
    const review = previewOf([{ op: "create", urn: urn("Badge", "handmade"), newState: { type: "pulumi-nodejs:dynamic/platform:Badge", inputs: { ...inputs, takeover } } }]);
    const change = review.changes.find((candidate) => candidate.name === "handmade")!;
    expect(change.kind).toBe("takeover");
    expect(change.fields).toEqual([{ path: "linkUrl", before: { value: "https://ci.example.com/old" }, after: { value: "https://ci.example.com/new" } }]);
  });

  it("the state an earlier version wrote (the upgrade fixture of commit b2bd4a8) reads as it did: its takeover, its only-these set's removals, no engine key as a field", () => {
    const fixture = JSON.parse(readFileSync(path.join(__dirname, "../e2e/fixtures/state-b2bd4a8.json"), "utf8")) as {
      deployment: { resources: { urn: string; type: string; id?: string; inputs?: Record<string, unknown> }[] };
    };
    const recorded = (name: string) => fixture.deployment.resources.find((resource) => resource.urn.endsWith(`::${name}`))!;
    const coverage = recorded("coverage");
    const set = recorded("only-these-badges");
    const cleanup = recorded("branch-builds");
    const stray = { badgeId: 9, name: "stray", linkUrl: "https://x.example.com" };
    const review = previewOf([
      // The takeover as that version's preview showed it: its create's inputs, `takeover` among them.
      { op: "create", urn: coverage.urn, newState: { type: coverage.type, inputs: coverage.inputs } },
      { op: "update", urn: set.urn, oldState: { type: set.type, id: set.id, inputs: { ...set.inputs, unexpected: [stray] } }, newState: { type: set.type, inputs: set.inputs } },
      { op: "update", urn: cleanup.urn, oldState: { type: cleanup.type, inputs: cleanup.inputs }, newState: { type: cleanup.type, inputs: { ...cleanup.inputs, keepN: 3 } } },
    ]);
    expect(review.changes.map((change) => [change.kind, change.name, change.object])).toEqual([
      ["removal", "only-these-badges", "badge 9 `stray`"],
      ["takeover", "coverage", "badge `coverage`"],
      ["update", "branch-builds", expect.any(String)],
    ]);
    expect(review.changes[1]!.fields.map((field) => [field.path, field.before])).toEqual([["linkUrl", { value: "https://coverage.example.com/old" }]]);
    expect(review.changes[2]!.fields.map((field) => field.path)).toEqual(["keepN"]);
  });

  it("an exclusive set's `deletes` is no field of an update: its removals are the changes", () => {
    const entry = { badgeId: 4, name: "legacy", linkUrl: "https://x.example.com" };
    const type = "pulumi-nodejs:dynamic/platform:ExclusiveBadges";
    const review = previewOf([
      {
        op: "update",
        urn: urn("ExclusiveBadges", "only-these"),
        oldState: { type, inputs: { group: "acme", keep: [], unexpected: [entry] } },
        newState: { type, inputs: { group: "acme", keep: [], unexpected: [], deletes: ["badge 4 `legacy`"] } },
      },
    ]);
    expect(review.changes.map((change) => [change.kind, change.object])).toEqual([["removal", "badge 4 `legacy`"]]);
  });

  // The import id as the engine's envelope carries it, and as earlier versions wrote it.
  it.each([
    ["the envelope", { __engine: { importId: "groups/acme/badges/7" } }],
    ["the earlier `__import` key", { __import: "groups/acme/badges/7" }],
  ])("an object an `import` takes over (its id in %s), kept by an only-these set through that resource's id, is no deletion; another one is", (_, imported) => {
    const set = "pulumi-nodejs:dynamic/platform:ExclusiveBadges";
    const taker = urn("Badge", "imported");
    const review = previewOf([
      { op: "create", urn: taker, newState: { type: "pulumi-nodejs:dynamic/platform:Badge", inputs: { group: "acme", name: "old", ...imported } } },
      {
        op: "update",
        urn: urn("ExclusiveBadges", "only-these"),
        oldState: { type: set, id: "groups/acme/badges", inputs: { group: "acme", keep: [], unexpected: [{ badgeId: 7, name: "old" }, { badgeId: 8, name: "stray" }] } },
        newState: { type: set, inputs: { group: "acme", keep: ["04da6b54-80e4-46f7-96ec-b56ff0331ba9"], unexpected: [] }, propertyDependencies: { keep: [taker] } },
      },
    ]);
    expect(review.changes.map((change) => [change.kind, change.object])).toEqual([
      ["removal", "badge 8 `stray`"],
      ["takeover", "badge `old`"],
      ["update", "only-these set of badges"],
    ]);
  });
});
