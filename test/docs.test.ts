/**
 * What the docs say that comes from the code, a benchmark or the template,
 * checked against its source so that it cannot drift: the number of
 * resources, the resources of the main example, a badge's bytes in the
 * state, the SDK the template pins, the exports documented, the README's
 * first-day path fitting on one screen, and what each resource needs at
 * preview (words derived from its `needs` declaration).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CLI_VERSION } from "../scripts/pulumi-workspace.mts";
import * as pkg from "pulumi-platform";
import * as actions from "../src/actions";
import { requirementsInWords, type FieldTraits } from "../src/api/fields";
import { roleInWords, tierInWords, type Needs } from "../src/api/needs";
import { definitions } from "../src/resources";

const root = path.resolve(__dirname, "..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const readme = read("README.md");

const WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty"];
/** A count as the docs write it: `nine`, `twenty`, `twenty-one`. */
function inWords(count: number): string {
  if (count < 20) return WORDS[count]!;
  const [tens, units] = [Math.floor(count / 10), count % 10];
  return units === 0 ? TENS[tens]! : `${TENS[tens]}-${WORDS[units]}`;
}

const resourceCount = Object.keys(pkg.providers).length;

/** The resource classes a program's files construct. */
function resourcesUsedIn(dir: string): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(path.join(root, dir)).filter((name) => name.endsWith(".ts"))) {
    for (const match of read(path.join(dir, file)).matchAll(/new (?:platform\.)?([A-Z]\w+)\(/g)) if (match[1]! in pkg.providers) names.add(match[1]!);
  }
  return names;
}

describe("counts in the docs", () => {
  it("the README names as many resources as the package has", () => {
    expect(readme).toMatch(new RegExp(`^${inWords(resourceCount).replace(/^./, (first) => first.toUpperCase())} resources, each with its own reference`, "m"));
    for (const match of readme.matchAll(/\b(\w+(?:-\w+)?) of the (\w+(?:-\w+)?) resources\b/g)) expect(match[2]).toBe(inWords(resourceCount));
    const tableRows = readme.split("\n## Resources")[1]!.split("\n## ")[0]!.match(/^\| `[A-Z]\w*`.*$/gm)!;
    expect(tableRows.flatMap((row) => row.split(" | ")[0]!.match(/`[A-Z]\w*`/g)!)).toHaveLength(resourceCount);
  });

  it("docs/resources.md counts the exclusive sets the package has", () => {
    const exclusive = Object.keys(pkg.providers).filter((name) => name.startsWith("Exclusive")).length;
    expect(read("docs/resources.md")).toContain(`${inWords(exclusive).replace(/^./, (first) => first.toUpperCase())} resources declare that the program's objects are the **only** ones`);
  });

  it("every data function has its row in the README's table and its section in docs/functions.md", () => {
    const functions = Object.keys(pkg).filter((name) => /^get[A-Z]\w*$/.test(name) && !name.endsWith("Output"));
    const functionsDoc = read("docs/functions.md");
    expect(functions.filter((name) => !readme.includes(`[\`${name}\`](docs/functions.md#${name.toLowerCase()})`))).toEqual([]);
    expect(functions.filter((name) => !new RegExp(`^#+ ${name}$`, "m").test(functionsDoc))).toEqual([]);
  });

  it("the main example uses as many resources as the README says", () => {
    const used = inWords(resourcesUsedIn("examples/platform-team").size);
    expect(readme).toContain(`examples/platform-team, ${used} of the ${inWords(resourceCount)} resources`);
    expect(readme).toContain(`with ${used} of the resources together`);
  });

  it("a badge's bytes in the state: the README's one figure is BENCHMARKS.md's", () => {
    const rows = [...read("BENCHMARKS.md").matchAll(/^\| \d+ \| (\d+) \| \d+ \| \d+ \|$/gm)].map((match) => Number(match[1]));
    expect(rows.length).toBeGreaterThan(0);
    const kilobytes = (rows.reduce((sum, bytes) => sum + bytes, 0) / rows.length / 1000).toFixed(1);
    const figures = [...`${readme}\n${read("docs/own-repository.md")}`.matchAll(/badge[^.]*?(\d+(?:\.\d+)?) KB/gi)].map((match) => match[1]);
    expect(figures).toEqual([kilobytes]);
  });
});

describe("the template and the README's first-day path", () => {
  it("the suite's CLI is the one of the SDK the template pins, which the docs name; the repository's own SDK is the newer of the range", () => {
    const lock = JSON.parse(read("package-lock.json")) as { packages: Record<string, { version: string }> };
    const installed = lock.packages["node_modules/@pulumi/pulumi"]!.version;
    const pinned = (JSON.parse(read("templates/platform/package.json")) as { dependencies: Record<string, string> }).dependencies["@pulumi/pulumi"]!;
    expect(CLI_VERSION).toBe(pinned);
    expect(read("docs/own-repository.md")).toContain(`pins \`@pulumi/pulumi\` to **${pinned}**`);
    expect(read("README.md")).toContain(`the template pins ${pinned}`);
    expect(read("README.md")).toContain(`this repository's lockfile has ${installed}`);
    const newer = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true }) >= 0;
    expect(newer(installed, pinned), `${installed} older than the template's ${pinned}`).toBe(true);
  });

  it("the emulator's port is one setting: the template's script reads it from platform:url in Pulumi.yaml", () => {
    const template = JSON.parse(read("templates/platform/package.json")) as { scripts: Record<string, string> };
    expect(template.scripts.emulator).toContain("--port-from Pulumi.yaml");
    expect(read("templates/platform/Pulumi.yaml").match(/127\.0\.0\.1:\d+/g)).toHaveLength(1);
  });

  it("each report job installs platform-review in a directory of its own, outside the checkout (the branch's files)", () => {
    const ci = parse(read("templates/platform/.gitlab-ci.yml")) as { variables: Record<string, string>; ".review-tool": { after_script?: string[] } };
    expect(ci.variables.REVIEW_TOOL).toContain("$CI_JOB_ID");
    expect(ci.variables.REVIEW_TOOL).not.toContain("$CI_PROJECT_DIR");
    expect(ci[".review-tool"].after_script).toEqual(['rm -rf "$REVIEW_TOOL"']);
  });

  it("the template runs its pipeline under gitlab-ci-local from npm scripts, and ignores what the jobs and the rehearsal write", () => {
    const template = JSON.parse(read("templates/platform/package.json")) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
    const ours = (JSON.parse(read("package.json")) as { devDependencies: Record<string, string> }).devDependencies["gitlab-ci-local"];
    expect(template.devDependencies["gitlab-ci-local"]).toBe(ours);
    // The jobs run in the project's directory: CI_PROJECT_DIR (the jobs' caches) must be it, not gitlab-ci-local's /builds/... of an image.
    for (const name of ["ci:merge-request", "ci:apply", "ci:drift"]) expect(template.scripts[name], name).toMatch(/^gitlab-ci-local --force-shell-executor .*--variable CI_PROJECT_DIR="\$PWD" /);
    const ignored = read("templates/platform/.gitignore").split("\n");
    for (const written of ["preview.json", "preview-*.json", "review-*.json", "drift-*.json", "plan.json", "merged.json", "up.json", "up-events*.json", ".gitlab-ci-local/", ".gitlab-ci-local-variables.yml", "rehearse.sh", "rehearse.mjs", "rehearse-pipeline.sh"]) {
      expect(ignored, written).toContain(written);
    }
    // The rehearsal reads the port and the address it uses from the project, as `npm run emulator` does.
    const review = read("docs/review.md");
    expect(review).toContain('startEmulator({ port: portFromProject("Pulumi.yaml") })');
    expect(review).toContain("config get platform:url");
    const block = (marker: string) => review.split(`<!-- user-project: ${marker} -->`)[1]!.split("\n```\n")[0]!;
    for (const marker of ["rehearsal", "rehearsal-from-code", "pipeline-rehearsal"]) expect(block(marker), marker).not.toContain("8080");
    // The rehearsal covers every stack of the pipeline, on a branch of its own each run.
    const stacks = (parse(read("templates/platform/.gitlab-ci.yml")) as { ".stacks": { parallel: { matrix: { STACK: string[] }[] } } })[".stacks"].parallel.matrix[0]!.STACK;
    expect(block("rehearsal")).toContain(`STACKS="${stacks.join(" ")}"`);
    expect(block("rehearsal")).toContain('BRANCH="${BRANCH:-platform-change-$(date +%s)}"');
    expect(block("rehearsal").match(/npm run --silent pulumi -- (preview|up) --stack "\$STACK" /g)).toHaveLength(3);
  });

  it("the template's stacks are environments: each has its own file naming its own objects, and the jobs write no config", () => {
    const project = (stack: string) => /\$\{PROJECT\}:project: (\S+)/.exec(read(`templates/platform/Pulumi.${stack}.yaml`))?.[1];
    expect([project("dev"), project("prod")]).toEqual(["acme/web", "acme/api"]);
    expect(read("templates/platform/.gitlab-ci.yml")).not.toMatch(/config set/);
    // Nor select a stack: a shell runner's selection (gitlab-ci-local's, in the user's own checkout) would be the user's.
    const ci = read("templates/platform/.gitlab-ci.yml");
    expect(ci).not.toMatch(/pulumi -- stack select/);
    const commands = ci.match(/npm run --silent pulumi -- \S+/g)!;
    expect(commands.length).toBeGreaterThanOrEqual(4);
    expect(ci.match(/npm run --silent pulumi -- (preview|up) --stack "\$STACK" /g)).toHaveLength(commands.length);
    expect(read("templates/platform/Pulumi.yaml")).not.toMatch(/^\s*platform:token:/m);
  });

  it("the section fits on one screen (at most 50 lines)", () => {
    const section = readme.split("\n## Use it in your own repository\n")[1]!.split("\n## ")[0]!;
    expect(section.trim().split("\n").length).toBeLessThanOrEqual(50);
  });
});

describe("exports", () => {
  it("every action has its section in docs/actions.md and its link in the README", () => {
    const actionsDoc = read("docs/actions.md");
    expect(Object.keys(actions).length).toBeGreaterThan(0);
    for (const name of Object.keys(actions)) {
      expect(actionsDoc, name).toMatch(new RegExp(`^## .*\\b${name}\\b`, "m"));
      expect(readme, name).toMatch(new RegExp(`\\[[^\\]]*\`${name}\`[^\\]]*\\]\\(docs/actions\\.md#`));
    }
  });

  it("every export besides the resources, the data functions and the actions is documented in docs/api.md", () => {
    const api = read("docs/api.md");
    const others = Object.keys(pkg).filter((name) => !(name in pkg.providers) && !/^get[A-Z]\w*$/.test(name) && !(name in actions));
    expect(others.length).toBeGreaterThan(0);
    for (const name of others) expect(api, name).toContain(`\`${name}`);
  });
});

/** Inputs for any resource's `needs`: a project's and a group's resources take the one they name. */
const SAMPLE_INPUTS = { project: "acme/web", group: "acme", registry: 1, scheduleId: 1, epicIid: 1, childEpicId: 2, sourceBranch: "feature", targetBranch: "main", assigneeIds: [1, 2], version: "1.0.0" };

const OPERATIONS = ["create", "update", "delete", "read"] as const;

/** What one operation needs, in the table's words: the role, and the ownership of the object where it is the object's. */
function operationCell(needs: Needs): string {
  if (needs.noRequest) return "no request";
  const role = needs.role ? roleInWords(needs.role) : "";
  return needs.ownership ? `${role}${role ? ", and " : ""}${needs.phrase}` : role;
}

/**
 * The cells of the preview's table that a resource's declaration says: owner (property), what each operation
 * needs (create, update, delete, refresh), and the tier and feature flag of a create.
 */
function previewCells(needsOf: (operation: (typeof OPERATIONS)[number]) => Needs): string[] {
  const needs = needsOf("create");
  const on = needs.on;
  const owner = on.kind === "instance" ? "the instance" : on.kind === "described" ? on.what : `\`${on.property}\`${on.kind === "group object" ? " (its group)" : ""}`;
  return [owner, ...OPERATIONS.map((operation) => operationCell(needsOf(operation))), needs.tier ? tierInWords(needs.tier) : "", needs.featureFlag ? `\`${needs.featureFlag}\`` : ""];
}

describe("what each resource needs, as docs/resources.md lists it", () => {
  const doc = read("docs/resources.md");
  const section = doc.slice(doc.indexOf("## What the preview verifies"));
  const rows = new Map([...section.matchAll(/^\| `(\w+)` \| (.*) \|$/gm)].map((match) => [match[1]!, match[2]!.split("|").map((cell) => cell.trim())]));

  it("the owner, each operation's needs, the tier and the flag of each resource are the words of its declaration", () => {
    for (const [name, definition] of Object.entries(definitions)) {
      const shape = definition.schema.shape as Record<string, unknown>;
      // What names a project or a group is declared per owner: `project` / `group`.
      const owners = "project" in shape && "group" in shape ? [{ project: "acme/web" }, { group: "acme" }] : [{}];
      const cells = owners.map((owner) => previewCells((operation) => definition.needs!({ ...SAMPLE_INPUTS, ...(owners.length > 1 ? { project: undefined, group: undefined } : {}), ...owner } as never, operation)));
      const expected = cells[0]!.map((_, column) => [...new Set(cells.map((cell) => cell[column]))].filter(Boolean).join(" / "));
      const row = rows.get(name);
      expect(row, `a row for ${name}`).toBeDefined();
      // A cell may say more after the derived words (a setting's own tier, an administrator for some inputs).
      expected.forEach((words, column) => expect(row![column], `${name}, column ${column + 2}`).toMatch(new RegExp(`^${words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`)));
    }
  });
});

describe("the settings' own needs and secrets, as the docs list them, are their fields' traits", () => {
  const doc = read("docs/resources.md");
  const section = doc.slice(doc.indexOf("## GroupSettings and ApplicationSettings"), doc.indexOf("\n## ", doc.indexOf("## GroupSettings and ApplicationSettings") + 1));
  const fieldsOf = (name: string) => (definitions as Record<string, { fields: Record<string, FieldTraits> }>)[name]!.fields;
  const named = (text: string) => [...text.matchAll(/`(\w+)`/g)].map((match) => match[1]!);

  it("each GroupSettings setting with needs of its own has its row, its aliases in parentheses, and its needs in the engine's words", () => {
    const fields = fieldsOf("GroupSettings");
    const table = section.split("| setting | needs |")[1]!.split("\n\n")[0]!;
    const rows = [...table.matchAll(/^\| `(\w+)`(?: \(([^)]*)\))? \| (.*) \|$/gm)].map((match) => ({ name: match[1]!, aliases: named(match[2] ?? ""), needs: match[3]! }));
    const expected = Object.keys(fields)
      .filter((name) => requirementsInWords(fields[name]).length > 0 && !fields[name]!.aliasOf)
      .map((name) => ({ name, aliases: Object.keys(fields).filter((alias) => fields[alias]!.aliasOf?.property === name), needs: requirementsInWords(fields[name]).join(", ") }));
    expect(rows).toEqual(expected);
  });

  it("the ApplicationSettings licences and credentials are the settings with those traits", () => {
    const fields = fieldsOf("ApplicationSettings");
    const settings = (fact: (traits: FieldTraits) => unknown) => Object.keys(fields).filter((name) => fact(fields[name]!) && !fields[name]!.aliasOf);
    const licences = section.split("| licence | settings |")[1]!.split("\n\n")[0]!;
    expect(named(licences.split("\n").find((line) => line.startsWith("| Ultimate |"))!)).toEqual(settings((traits) => traits.tier === "ultimate"));
    expect(named(licences.split("\n").find((line) => line.startsWith("| Premium or Ultimate |"))!)).toEqual(settings((traits) => traits.tier === "premium"));
    const [shown, hidden] = section.split("Its credentials are secret")[1]!.split("\n\n")[0]!.split("never shown by the server");
    expect(named(shown!).filter((name) => name !== "restoreSecrets")).toEqual(settings((traits) => traits.secret && !traits.writeOnly));
    expect(named(hidden!)).toEqual(settings((traits) => traits.secret && traits.writeOnly));
  });

  it("docs/functions.md names every credential that makes getApplicationSettingsOutput secret", () => {
    const fields = fieldsOf("ApplicationSettings");
    const paragraph = read("docs/functions.md").split("Secrets: the settings hold credentials")[1]!.split("\n\n")[0]!;
    const [secret, never] = paragraph.split("Real servers never show");
    expect(named(secret!).sort()).toEqual(Object.keys(fields).filter((name) => fields[name]!.secret && !fields[name]!.writeOnly).sort());
    expect(named(never!).sort()).toEqual(Object.keys(fields).filter((name) => fields[name]!.secret && fields[name]!.writeOnly).sort());
  });
});
