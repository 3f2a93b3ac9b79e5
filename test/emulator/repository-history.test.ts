/**
 * Repository history in the emulator (spec document 1, parts 2.3 and 4.6):
 * compare, contributors, merge_base and changelog (GET and POST), over real
 * HTTP against real git repositories seeded with a small history. Diff hunks
 * are checked against the git command line's own `git diff` of the same
 * repository.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as git from "isomorphic-git";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultSeed, mergeRequestStore, type Seed } from "../../src/emulator";
import { repositoryOf } from "../../src/emulator/areas/repository/model";
import { call, useEmulator } from "./helpers";

const T0 = Date.parse("2025-03-01T00:00:00.000Z");
let now = T0;
const clock = (): number => now;

const ALICE = { name: "Alice Owner", email: "alice@example.test" };
const DEV = { name: "Dev Developer", email: "dev@example.test" };
const EVE = { name: "Eve External", email: "eve@example.org" };
const OLGA = { name: "Olga Outsider", email: "outsider@example.test" };

/** A 30-line script whose line 10 is a function header (git prints it after the hunk range). */
const appJs = (changed: Record<number, string> = {}): string =>
  Array.from({ length: 30 }, (_, i) => changed[i + 1] ?? (i === 9 ? "function main() {" : `  step(${i + 1});`)).join("\n") + "\n";

const siteHistory = {
  commits: [
    {
      id: "base",
      message: "Initial site",
      files: {
        "README.md": "# Site\n",
        "src/app.js": appJs(),
        "docs/guide.md": "Guide\n\nline a\nline b\n",
        "assets/logo.bin": { base64: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]).toString("base64") },
      },
    },
    { id: "search", message: "Add search", trailers: { Changelog: "added" }, author: ALICE, files: { "src/search.js": "export const search = () => [];\n", "src/app.js": appJs({ 20: "  search();" }) } },
    { id: "typo", message: "Fix typo in guide", trailers: { Changelog: "fixed" }, author: EVE, files: { "docs/guide.md": "Guide\n\nline A\nline b\n" } },
    { id: "login", branch: "feature/login", from: "search", message: "Add login", trailers: { Changelog: "added" }, author: DEV, files: { "src/login.js": "export const login = true;\n" } },
    { id: "move", message: "Move the guide", rename: { "docs/guide.md": "docs/manual.md" } },
    { id: "merge", merge: "feature/login", message: "Merge branch 'feature/login'" },
    { id: "logo", message: "Remove the logo", trailers: { Changelog: "removed" }, author: OLGA, files: { "assets/logo.bin": null } },
    { id: "hotfix", branch: "hotfix", from: "base", message: "Hotfix the readme", files: { "README.md": "# Site (hotfix)\n" } },
  ],
  tags: [
    { name: "v1.0.0", target: "base" },
    { name: "v1.1.0-rc1", target: "search", message: "Release candidate" },
    { name: "not-a-version", target: "typo" },
  ],
};

const webHistory = {
  commits: [
    { id: "base", message: "Initial commit", files: { "README.md": "# Web\n" } },
    { message: "Add the API client", trailers: { Changelog: "added" }, files: { "src/api.js": "export {};\n" } },
    { message: "Fix the retry loop", trailers: { Changelog: "fixed" }, files: { "src/api.js": "export const retry = 3;\n" } },
  ],
  branches: { feature: "main" },
  tags: [{ name: "v1.0.0", target: "base" }],
};

const seed: Seed = {
  ...defaultSeed,
  repositories: {
    ...((defaultSeed as { repositories?: Record<string, unknown> }).repositories ?? {}),
    "beta/site": siteHistory,
    "acme/web": webHistory,
  },
};

const site = "/projects/beta%2Fsite/repository";
const web = "/projects/acme%2Fweb/repository";
const infra = "/projects/acme%2Fplatform%2Finfra/repository";

const server = useEmulator({ seed, clock });

/** Commit ids of the seeded history by label, read back from the repository. */
const sha: Record<string, string> = {};

async function projectRepo(path: string) {
  const project = server.emulator.state.projectByFullPath(path);
  if (!project) throw new Error(`no project ${path}`);
  return repositoryOf(server.emulator.state, project);
}

beforeAll(async () => {
  const repo = await projectRepo("beta/site");
  const log = await git.log({ fs, gitdir: repo.gitdir, ref: "main" });
  const byTitle = (title: string): string => log.find((entry) => entry.commit.message.startsWith(title))!.oid;
  Object.assign(sha, {
    base: byTitle("Initial site"),
    search: byTitle("Add search"),
    typo: byTitle("Fix typo"),
    login: byTitle("Add login"),
    move: byTitle("Move the guide"),
    merge: byTitle("Merge branch"),
    logo: byTitle("Remove the logo"),
  });
  sha["hotfix"] = (await repo.resolveRef("hotfix"))!;
  // A revert of the typo fix, naming its sha as `git revert` does.
  sha["revert"] = await repo.commit({
    branch: "main",
    message: `Revert "Fix typo in guide"\n\nThis reverts commit ${sha["typo"]}.\n`,
    author: { name: "Administrator", email: "admin@example.test" },
    date: "2024-06-01T00:00:00Z",
    actions: [{ action: "update", filePath: "docs/manual.md", content: "Guide\n\nline a\nline b\n" }],
  });
  // A branch with a history of its own (no common ancestor).
  const blob = await git.writeBlob({ fs, gitdir: repo.gitdir, blob: Buffer.from("orphan\n") });
  const tree = await git.writeTree({ fs, gitdir: repo.gitdir, tree: [{ mode: "100644", path: "ORPHAN", oid: blob, type: "blob" }] });
  const who = { name: "Root", email: "root@example.test", timestamp: 1_700_000_000, timezoneOffset: 0 };
  const orphan = await git.writeCommit({ fs, gitdir: repo.gitdir, commit: { message: "Orphan\n", tree, parent: [], author: who, committer: who } });
  await git.writeRef({ fs, gitdir: repo.gitdir, ref: "refs/heads/orphan", value: orphan });
  await repo.syncProject();
});

/** `git diff` of the same repository, by the git command line. */
function gitCli(path: string, ...args: string[]): string {
  const project = server.emulator.state.projectByFullPath(path)!;
  return execFileSync("git", ["--git-dir", `${repoDir(project.id)}`, "-c", "core.quotepath=off", ...args], { encoding: "utf8" });
}
const gitdirs = new Map<number, string>();
const repoDir = (id: number): string => gitdirs.get(id)!;
beforeAll(async () => {
  for (const path of ["beta/site", "acme/web", "acme/platform/infra"]) {
    const project = server.emulator.state.projectByFullPath(path)!;
    gitdirs.set(project.id, (await projectRepo(path)).gitdir);
  }
});

type Diff = { diff: string; new_path: string; old_path: string; a_mode: string; b_mode: string; new_file: boolean; renamed_file: boolean; deleted_file: boolean; collapsed: boolean; too_large: boolean; generated_file: boolean | null };
const byPath = (diffs: Diff[]): Record<string, Diff> => Object.fromEntries(diffs.map((d) => [d.new_path, d]));

// ---------------------------------------------------------------------------

describe("GET repository/compare", () => {
  it("from a tag to a branch: the commits oldest first, the last as `commit`, each file's diff entry", async () => {
    const res = await call(server.emulator, `${site}/compare?from=v1.0.0&to=main`, { as: null });
    expect(res.status).toBe(200);
    const titles = res.body.commits.map((c: { title: string }) => c.title);
    // git log v1.0.0..main, oldest first (the merge's second parent comes in by date).
    expect(titles).toEqual(["Add search", "Fix typo in guide", "Add login", "Move the guide", "Merge branch 'feature/login'", "Remove the logo", 'Revert "Fix typo in guide"']);
    expect(res.body.commit.id).toBe(sha["revert"]);
    expect(res.body).toMatchObject({ compare_timeout: false, compare_same_ref: false });
    expect(res.body.web_url).toBe(`https://platform.example.test/beta/site/-/compare/${sha["base"]}...${sha["revert"]}`);
    const files = byPath(res.body.diffs);
    expect(Object.keys(files).sort()).toEqual(["assets/logo.bin", "docs/manual.md", "src/app.js", "src/login.js", "src/search.js"]);
    expect(files["src/search.js"]).toMatchObject({ old_path: "src/search.js", a_mode: "0", b_mode: "100644", new_file: true, renamed_file: false, deleted_file: false, collapsed: false, too_large: false, generated_file: null });
    expect(files["src/search.js"]!.diff).toBe("@@ -0,0 +1 @@\n+export const search = () => [];\n");
    expect(files["assets/logo.bin"]).toMatchObject({ deleted_file: true, a_mode: "100644", b_mode: "0", diff: "Binary files a/assets/logo.bin and /dev/null differ\n" });
    // The guide came back to its first content and moved: an exact rename, no hunks.
    expect(files["docs/manual.md"]).toMatchObject({ old_path: "docs/guide.md", renamed_file: true, new_file: false, diff: "" });
    // git's hunk header carries the nearest function line above the hunk.
    expect(files["src/app.js"]!.diff).toBe("@@ -17,7 +17,7 @@ function main() {\n   step(17);\n   step(18);\n   step(19);\n-  step(20);\n+  search();\n   step(21);\n   step(22);\n   step(23);\n");
  });

  it("every hunk is what the git command line prints for the same diff (unidiff headers included)", async () => {
    for (const [from, to, straight] of [["v1.0.0", "main", false], ["typo", "move", true], ["hotfix", "main", true], ["search", "typo", true]] as const) {
      const fromRef = sha[from] ?? from;
      const toRef = sha[to] ?? to;
      const res = await call(server.emulator, `${site}/compare?from=${fromRef}&to=${toRef}&straight=${straight}&unidiff=true`);
      expect(res.status).toBe(200);
      const cli = gitCli("beta/site", "diff", "-M", "--no-color", "-U3", straight ? `${fromRef}..${toRef}` : `${fromRef}...${toRef}`);
      expect(res.body.diffs.length).toBeGreaterThan(0);
      for (const entry of res.body.diffs as Diff[]) {
        if (entry.diff === "") {
          expect(cli).toContain(`rename from ${entry.old_path}\nrename to ${entry.new_path}\n`);
          continue;
        }
        expect(cli).toContain(entry.diff);
      }
    }
  });

  it("a 50%-similar file moved and changed is a rename with its hunks", async () => {
    const res = await call(server.emulator, `${site}/compare?from=${sha["search"]}&to=${sha["move"]}&straight=true`);
    const moved = byPath(res.body.diffs)["docs/manual.md"]!;
    expect(moved).toMatchObject({ old_path: "docs/guide.md", renamed_file: true, a_mode: "100644", b_mode: "100644" });
    expect(moved.diff).toBe("@@ -1,4 +1,4 @@\n Guide\n \n-line a\n+line A\n line b\n");
  });

  it("renames are paired as git pairs them: exact first, then the most similar at 50% or more", async () => {
    const repo = await projectRepo("acme/platform/infra");
    const text = (tag: string, changed: number, total = 10, eol = "\n"): string =>
      Array.from({ length: total }, (_, i) => (i < changed ? `${tag} changed line ${i}` : `shared line ${i} of the ${tag.split("-")[0]} module`) + eol).join("");
    await repo.commit({ branch: "moves-base", message: "Files to move", actions: [
      { action: "create", filePath: "alpha.txt", content: text("alpha", 0) },
      { action: "create", filePath: "beta.txt", content: text("beta", 0) },
      { action: "create", filePath: "gamma.txt", content: text("gamma", 0) },
      { action: "create", filePath: "twin-1.txt", content: "same\n" },
      { action: "create", filePath: "crlf.txt", content: text("crlf", 0) },
    ] });
    await repo.commit({ branch: "moves", startRef: "moves-base", message: "Move them", actions: [
      { action: "delete", filePath: "alpha.txt" },
      { action: "create", filePath: "lib/alpha.txt", content: text("alpha-2", 4) },
      { action: "delete", filePath: "beta.txt" },
      { action: "create", filePath: "lib/beta.txt", content: text("beta-2", 6) },
      { action: "delete", filePath: "gamma.txt" },
      { action: "create", filePath: "lib/gamma.txt", content: text("gamma", 0) + "one more line\n" },
      { action: "delete", filePath: "twin-1.txt" },
      { action: "create", filePath: "twin-2.txt", content: "same\n" },
      { action: "delete", filePath: "crlf.txt" },
      { action: "create", filePath: "lib/crlf.txt", content: text("crlf", 0, 10, "\r\n") },
    ] });
    const res = await call(server.emulator, `${infra}/compare?from=moves-base&to=moves`);
    const mine = (res.body.diffs as Diff[])
      .map((d) => (d.renamed_file ? `R\t${d.old_path}\t${d.new_path}` : d.new_file ? `A\t${d.new_path}` : d.deleted_file ? `D\t${d.old_path}` : `M\t${d.new_path}`))
      .sort();
    const cli = gitCli("acme/platform/infra", "diff", "-M", "--name-status", "moves-base", "moves")
      .trim()
      .split("\n")
      .map((line) => line.replace(/^R\d+/, "R"))
      .sort();
    expect(mine).toEqual(cli);
    // 60% kept: a rename; 40% kept: a deletion and an addition; CRLF line ends do not count against similarity.
    expect(mine).toEqual([
      "A\tlib/beta.txt",
      "D\tbeta.txt",
      "R\talpha.txt\tlib/alpha.txt",
      "R\tcrlf.txt\tlib/crlf.txt",
      "R\tgamma.txt\tlib/gamma.txt",
      "R\ttwin-1.txt\ttwin-2.txt",
    ]);
  });

  it("straight=false diffs from the merge base; straight=true from `from` itself", async () => {
    const threeDot = await call(server.emulator, `${site}/compare?from=hotfix&to=main`);
    expect(Object.keys(byPath(threeDot.body.diffs))).not.toContain("README.md");
    expect(threeDot.body.web_url).toContain(`/-/compare/${sha["base"]}...`);
    const twoDot = await call(server.emulator, `${site}/compare?from=hotfix&to=main&straight=true`);
    expect(byPath(twoDot.body.diffs)["README.md"]!.diff).toBe("@@ -1 +1 @@\n-# Site (hotfix)\n+# Site\n");
    expect(twoDot.body.web_url).toContain(`/-/compare/${sha["hotfix"]}...`);
    // The commits are from..to in both modes.
    expect(twoDot.body.commits.map((c: { id: string }) => c.id)).toEqual(threeDot.body.commits.map((c: { id: string }) => c.id));
  });

  it("the same commit twice: compare_same_ref, no commits, no diffs, commit null", async () => {
    const res = await call(server.emulator, `${site}/compare?from=main&to=${sha["revert"]}`);
    expect(res.body).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true, compare_timeout: false });
  });

  it("unrelated histories diff from the empty tree; web_url is null without a merge base", async () => {
    const res = await call(server.emulator, `${site}/compare?from=main&to=orphan`);
    expect(res.status).toBe(200);
    expect(res.body.diffs).toEqual([expect.objectContaining({ new_path: "ORPHAN", new_file: true, diff: "@@ -0,0 +1 @@\n+orphan\n" })]);
    expect(res.body.web_url).toBeNull();
  });

  it("unidiff=true adds the ---/+++ header (/dev/null for an added file), not to binary notices", async () => {
    const res = await call(server.emulator, `${site}/compare?from=v1.0.0&to=main&unidiff=true`);
    const files = byPath(res.body.diffs);
    expect(files["src/search.js"]!.diff.startsWith("--- /dev/null\n+++ b/src/search.js\n@@ -0,0 +1 @@\n")).toBe(true);
    expect(files["src/app.js"]!.diff.startsWith("--- a/src/app.js\n+++ b/src/app.js\n@@")).toBe(true);
    expect(files["assets/logo.bin"]!.diff).toBe("Binary files a/assets/logo.bin and /dev/null differ\n");
  });

  it("errors: unknown ref 404, missing parameters 400, a from_project_id outside the fork network 400", async () => {
    expect(await call(server.emulator, `${site}/compare?from=nope&to=main`)).toMatchObject({ status: 404, body: { message: "404 Ref Not Found" } });
    expect(await call(server.emulator, `${site}/compare?from=main&to=${"f".repeat(40)}`)).toMatchObject({ status: 404, body: { message: "404 Ref Not Found" } });
    expect(await call(server.emulator, `${site}/compare?to=main`)).toMatchObject({ status: 400, body: { error: "from is missing" } });
    expect(await call(server.emulator, `${site}/compare`)).toMatchObject({ status: 400, body: { error: "from is missing, to is missing" } });
    expect(await call(server.emulator, `${site}/compare?from=a&to=b&straight=maybe`)).toMatchObject({ status: 400, body: { error: "straight is invalid" } });
    const other = server.emulator.state.projectByFullPath("acme/web")!.id;
    const siteId = server.emulator.state.projectByFullPath("beta/site")!.id;
    expect(await call(server.emulator, `${site}/compare?from=v1.0.0&to=main&from_project_id=${other}`)).toMatchObject({
      status: 400,
      body: { message: `Target project id:${other} is not a fork of project id:beta/site` },
    });
    const self = await call(server.emulator, `/projects/${siteId}/repository/compare?from=v1.0.0&to=main&from_project_id=${siteId}`);
    expect(self.status).toBe(200);
    expect(self.body.commits).toHaveLength(7);
  });

  it("reads: public without a token; private 404 for non-members and anonymous callers, 403 for a Guest", async () => {
    expect((await call(server.emulator, `${site}/compare?from=v1.0.0&to=main`, { as: null })).status).toBe(200);
    expect(await call(server.emulator, `${web}/compare?from=v1.0.0&to=main`, { as: null })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await call(server.emulator, `${web}/compare?from=v1.0.0&to=main`, { as: "outsider" })).toMatchObject({ status: 404, body: { message: "404 Project Not Found" } });
    expect(await call(server.emulator, `${web}/compare?from=v1.0.0&to=main`, { as: "guest" })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await call(server.emulator, `${web}/compare?from=v1.0.0&to=main`, { as: "dev" })).status).toBe(200);
  });
});

describe("compare: the diff limits", () => {
  const line = (n: number): string => `${String(n).padStart(6, "0")} ${"x".repeat(40)}\n`;
  const lines = (count: number): string => Array.from({ length: count }, (_, i) => line(i)).join("");

  beforeAll(async () => {
    const repo = await projectRepo("acme/platform/infra");
    const files = (count: number, prefix: string) =>
      Array.from({ length: count }, (_, i) => ({ action: "create" as const, filePath: `${prefix}/file-${String(i).padStart(4, "0")}.txt`, content: `file ${i}\n` }));
    await repo.commit({ branch: "thousand", message: "1,000 files", actions: files(1000, "many") });
    await repo.commit({ branch: "thousand-and-one", message: "1,001 files", actions: files(1001, "many") });
    // 4,300 lines of 48 bytes: a patch of about 206 KiB, over diff_max_patch_bytes (204,800).
    await repo.commit({ branch: "big", message: "Big files", actions: [
      { action: "create", filePath: "huge.txt", content: lines(4_300) },
      { action: "create", filePath: "medium.txt", content: lines(500) },
      { action: "create", filePath: "small.txt", content: "small\n" },
    ] });
    await repo.commit({ branch: "one-medium", message: "One medium file", actions: [{ action: "create", filePath: "medium.txt", content: lines(500) }] });
  });

  it("a compare of 1,000 changed files: every file listed; past the first 100 (safe_max_files) collapsed, diff empty", async () => {
    const res = await call(server.emulator, `${infra}/compare?from=main&to=thousand`);
    expect(res.status).toBe(200);
    expect(res.body.compare_timeout).toBe(false);
    const diffs = res.body.diffs as Diff[];
    expect(diffs).toHaveLength(1000);
    expect(diffs.slice(0, 100).every((d) => !d.collapsed && d.diff.startsWith("@@ -0,0 +1 @@\n+file "))).toBe(true);
    expect(diffs.slice(100).every((d) => d.collapsed && d.diff === "" && !d.too_large)).toBe(true);
    expect(diffs.every((d) => d.new_file)).toBe(true);
  });

  it("1,001 files: the 1,001st is past max_files (1,000): left out, and compare_timeout is true", async () => {
    const res = await call(server.emulator, `${infra}/compare?from=main&to=thousand-and-one`);
    expect(res.body.diffs).toHaveLength(1000);
    expect(res.body.compare_timeout).toBe(true);
  });

  it("a patch of 204,800 bytes or more is too_large; one of 20,480 or more collapsed; both with an empty diff", async () => {
    const res = await call(server.emulator, `${infra}/compare?from=main&to=big`);
    const files = byPath(res.body.diffs);
    expect(files["huge.txt"]).toMatchObject({ too_large: true, collapsed: false, diff: "" });
    expect(files["medium.txt"]).toMatchObject({ too_large: false, collapsed: true, diff: "" });
    expect(files["small.txt"]).toMatchObject({ too_large: false, collapsed: false, diff: "@@ -0,0 +1 @@\n+small\n" });
    expect(res.body.compare_timeout).toBe(false);
  });

  it("a compare of a single file is always expanded", async () => {
    const res = await call(server.emulator, `${infra}/compare?from=main&to=one-medium`);
    const [only] = res.body.diffs as Diff[];
    expect(only).toMatchObject({ collapsed: false, too_large: false });
    expect(only!.diff.split("\n").filter((l) => l.startsWith("+"))).toHaveLength(500);
  });
});

// ---------------------------------------------------------------------------

describe("GET repository/contributors", () => {
  it("authors of the default branch, merge commits left out, by commit count ascending by default", async () => {
    const res = await call(server.emulator, `${site}/contributors`, { as: null });
    expect(res.status).toBe(200);
    // main, newest first: revert, logo, (merge, skipped), move, login, typo, search, base. Ties keep
    // that order (the authors' first appearance), as the grouping does.
    expect(res.body).toEqual([
      { name: "Olga Outsider", email: "outsider@example.test", commits: 1, additions: 0, deletions: 0 },
      { name: "Dev Developer", email: "dev@example.test", commits: 1, additions: 0, deletions: 0 },
      { name: "Eve External", email: "eve@example.org", commits: 1, additions: 0, deletions: 0 },
      { name: "Alice Owner", email: "alice@example.test", commits: 1, additions: 0, deletions: 0 },
      { name: "Administrator", email: "admin@example.test", commits: 3, additions: 0, deletions: 0 },
    ]);
  });

  it("order_by name / email, sort desc, ref, pagination", async () => {
    const byName = await call(server.emulator, `${site}/contributors?order_by=name`);
    expect(byName.body.map((c: { name: string }) => c.name)).toEqual(["Administrator", "Alice Owner", "Dev Developer", "Eve External", "Olga Outsider"]);
    const byEmailDesc = await call(server.emulator, `${site}/contributors?order_by=email&sort=desc`);
    expect(byEmailDesc.body.map((c: { email: string }) => c.email)).toEqual(["outsider@example.test", "eve@example.org", "dev@example.test", "alice@example.test", "admin@example.test"]);
    const commitsDesc = await call(server.emulator, `${site}/contributors?order_by=commits&sort=desc`);
    expect(commitsDesc.body[0]).toMatchObject({ email: "admin@example.test", commits: 3 });
    const atTag = await call(server.emulator, `${site}/contributors?ref=v1.0.0`);
    expect(atTag.body).toEqual([{ name: "Administrator", email: "admin@example.test", commits: 1, additions: 0, deletions: 0 }]);
    const onBranch = await call(server.emulator, `${site}/contributors?ref=feature%2Flogin`);
    expect(onBranch.body.map((c: { email: string }) => c.email).sort()).toEqual(["admin@example.test", "alice@example.test", "dev@example.test"]);
    const page = await call(server.emulator, `${site}/contributors?order_by=name&per_page=2&page=2`);
    expect(page.body.map((c: { name: string }) => c.name)).toEqual(["Dev Developer", "Eve External"]);
    expect(page.headers.get("x-total")).toBe("5");
    expect(page.headers.get("x-next-page")).toBe("3");
  });

  it("errors: unknown ref 404, bad order_by or sort 400, private 404 / 403", async () => {
    expect(await call(server.emulator, `${site}/contributors?ref=nope`)).toMatchObject({ status: 404, body: { message: "404 Not Found" } });
    expect(await call(server.emulator, `${site}/contributors?order_by=date`)).toMatchObject({ status: 400, body: { error: "order_by does not have a valid value" } });
    expect(await call(server.emulator, `${site}/contributors?sort=up`)).toMatchObject({ status: 400, body: { error: "sort does not have a valid value" } });
    expect((await call(server.emulator, `${web}/contributors`, { as: null })).status).toBe(404);
    expect((await call(server.emulator, `${web}/contributors`, { as: "guest" })).status).toBe(403);
    expect((await call(server.emulator, `${web}/contributors`, { as: "dev" })).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------

describe("GET repository/merge_base", () => {
  it("the common ancestor of two or more refs, as a commit with its trailers", async () => {
    const res = await call(server.emulator, `${site}/merge_base?refs[]=hotfix&refs[]=main`, { as: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: sha["base"],
      short_id: sha["base"]!.slice(0, 8),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000\+00:00$/),
      parent_ids: [],
      title: "Initial site",
      message: "Initial site\n",
      author_name: "Administrator",
      author_email: "admin@example.test",
      authored_date: res.body.created_at,
      committer_name: "Administrator",
      committer_email: "admin@example.test",
      committed_date: res.body.created_at,
      trailers: {},
      extended_trailers: {},
      web_url: `https://platform.example.test/beta/site/-/commit/${sha["base"]}`,
    });
    const withTrailers = await call(server.emulator, `${site}/merge_base?refs[]=feature%2Flogin&refs[]=main&refs[]=v1.1.0-rc1`);
    expect(withTrailers.body).toMatchObject({ id: sha["search"], title: "Add search", trailers: { Changelog: "added" }, extended_trailers: { Changelog: ["added"] } });
    // One comma-separated value works too (CommaSeparatedToArray).
    // (feature/login was merged into main: its head is the merge base, as `git merge-base` says.)
    const comma = await call(server.emulator, `${site}/merge_base?refs=feature%2Flogin,main`);
    expect(comma.body.id).toBe(sha["login"]);
    expect(gitCli("beta/site", "merge-base", "feature/login", "main").trim()).toBe(sha["login"]);
  });

  it("errors: fewer than two refs 400, unknown refs 400 naming them, unrelated histories 404", async () => {
    expect(await call(server.emulator, `${site}/merge_base?refs[]=main`)).toMatchObject({ status: 400, body: { message: "Provide at least 2 refs" } });
    expect(await call(server.emulator, `${site}/merge_base`)).toMatchObject({ status: 400, body: { error: "refs is missing" } });
    expect(await call(server.emulator, `${site}/merge_base?refs[]=main&refs[]=nope`)).toMatchObject({ status: 400, body: { message: "Could not find ref: nope" } });
    expect(await call(server.emulator, `${site}/merge_base?refs[]=x&refs[]=main&refs[]=y`)).toMatchObject({ status: 400, body: { message: "Could not find refs: x, y" } });
    expect(await call(server.emulator, `${site}/merge_base?refs[]=main&refs[]=orphan`)).toMatchObject({ status: 404, body: { message: "404 Merge Base Not Found" } });
    expect((await call(server.emulator, `${web}/merge_base?refs[]=main&refs[]=feature`, { as: "outsider" })).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------

/** Changelog calls, each a minute after the previous one (the endpoint allows 5 a minute per user and project). */
async function changelog(path: string, options: Parameters<typeof call>[2] = {}) {
  now += 61_000;
  return call(server.emulator, path, options);
}

const commitUrl = (key: string): string => `https://platform.example.test/beta/site/-/commit/${sha[key]}`;

describe("GET repository/changelog", () => {
  it("notes since the last stable tag: grouped by trailer, newest first, reverted commits left out", async () => {
    const res = await changelog(`${site}/changelog?version=1.1.0&date=2024-05-01T10:00:00Z`, { as: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      notes:
        "## 1.1.0 (2024-05-01)\n\n" +
        "### removed (1 change)\n\n" +
        `- [Remove the logo](${commitUrl("logo")})\n\n` +
        "### added (2 changes)\n\n" +
        `- [Add login](${commitUrl("login")})\n` +
        `- [Add search](${commitUrl("search")})\n`,
    });
  });

  it("from and to given: from excluded, to included; a reverted commit outside the range stays", async () => {
    const res = await changelog(`${site}/changelog?version=1.0.1&from=${sha["search"]}&to=${sha["typo"]}&date=2024-05-01`);
    expect(res.body.notes).toBe(`## 1.0.1 (2024-05-01)\n\n### fixed (1 change)\n\n- [Fix typo in guide](${commitUrl("typo")})\n`);
  });

  it("trailer: another trailer key; none found gives `No changes.`", async () => {
    const res = await changelog(`${site}/changelog?version=1.1.0&trailer=Type&date=2024-05-01`);
    expect(res.body.notes).toBe("## 1.1.0 (2024-05-01)\n\nNo changes.\n");
  });

  it("date keeps its own offset; `v` before the version is accepted", async () => {
    const res = await changelog(`${site}/changelog?version=v1.1.0&date=${encodeURIComponent("2024-05-01T23:30:00-05:00")}&trailer=Type`);
    expect(res.body.notes).toBe("## v1.1.0 (2024-05-01)\n\nNo changes.\n");
  });

  it("the config file: categories renamed and ordered, date_format, a template of its own, include_groups crediting authors; config_file and config_file_ref", async () => {
    const repo = await projectRepo("beta/site");
    await repo.commit({
      branch: "config",
      startRef: "main",
      message: "Changelog config",
      actions: [
        {
          action: "create",
          filePath: ".gitlab/changelog_config.yml",
          content: "---\ndate_format: '%B %-d, %Y'\ncategories:\n  added: Features\n  removed: Removals\ninclude_groups:\n  - acme\n",
        },
        {
          action: "create",
          filePath: "ci/changelog.yml",
          content: "template: |\n  {% each categories %}\n  * {{ title }}: {{ count }}\n  {% each entries %}\n    - {{ title }}\n  {% end %}\n  {% end %}\n",
        },
      ],
    });
    const res = await changelog(`${site}/changelog?version=1.1.0&date=2024-05-01&config_file_ref=config`);
    // dev and alice are members of acme (include_groups); Olga is not.
    expect(res.body.notes).toBe(
      "## 1.1.0 (May 1, 2024)\n\n" +
        "### Features (2 changes)\n\n" +
        `- [Add login](${commitUrl("login")}) by @dev\n` +
        `- [Add search](${commitUrl("search")}) by @alice\n\n` +
        "### Removals (1 change)\n\n" +
        `- [Remove the logo](${commitUrl("logo")})\n`,
    );
    const custom = await changelog(`${site}/changelog?version=1.1.0&date=2024-05-01&config_file=ci%2Fchangelog.yml&config_file_ref=config`);
    expect(custom.body.notes).toBe("## 1.1.0 (2024-05-01)\n\n* removed: 1\n  - Remove the logo\n* added: 2\n  - Add login\n  - Add search\n");
    // Without config_file_ref the default branch is read, which has no config: the defaults.
    const defaults = await changelog(`${site}/changelog?version=1.1.0&date=2024-05-01`);
    expect(defaults.body.notes.startsWith("## 1.1.0 (2024-05-01)\n\n### removed (1 change)")).toBe(true);
  });

  it("an entry links the merged merge request that has its commit, and credits an author who is an outside contributor", async () => {
    const { state } = server.emulator;
    const project = state.projectByFullPath("beta/site")!;
    const outsider = state.users.find((u) => u.username === "outsider")!;
    const store = mergeRequestStore.of(state);
    const template = store.mergeRequests[0]!;
    // Olga is no member of beta/site; a merged merge request of hers makes her a contributor (team.contributor?).
    store.mergeRequests.push({ ...template, id: 9_001, iid: 41, projectId: project.id, state: "merged", authorId: outsider.id, mergeCommitSha: sha["logo"]!, squashCommitSha: null, sha: sha["logo"]! });
    // A later merged one with the same commit is not the oldest: the link stays on !41.
    store.mergeRequests.push({ ...template, id: 9_002, iid: 42, projectId: project.id, state: "merged", authorId: outsider.id, mergeCommitSha: null, squashCommitSha: null, sha: sha["logo"]! });
    // An open one does not count.
    store.mergeRequests.push({ ...template, id: 9_000, iid: 40, projectId: project.id, state: "opened", authorId: outsider.id, mergeCommitSha: null, squashCommitSha: null, sha: sha["search"]! });
    try {
      const res = await changelog(`${site}/changelog?version=1.1.0&date=2024-05-01`);
      expect(res.body.notes).toContain(
        `- [Remove the logo](${commitUrl("logo")}) by @outsider ([merge request](https://platform.example.test/beta/site/-/merge_requests/41))\n`,
      );
      expect(res.body.notes).toContain(`- [Add search](${commitUrl("search")})\n`);
    } finally {
      store.mergeRequests.splice(store.mergeRequests.findIndex((mr) => mr.id === 9_001), 1);
      store.mergeRequests.splice(store.mergeRequests.findIndex((mr) => mr.id === 9_002), 1);
      store.mergeRequests.splice(store.mergeRequests.findIndex((mr) => mr.id === 9_000), 1);
    }
  });

  it("a config whose template does not parse, or whose tag_regex is invalid: 422", async () => {
    const repo = await projectRepo("beta/site");
    await repo.commit({
      branch: "bad-config",
      startRef: "main",
      message: "Bad changelog config",
      actions: [
        { action: "create", filePath: "broken-template.yml", content: "template: '{% if categories %}no end'\n" },
        { action: "create", filePath: "broken-regex.yml", content: "tag_regex: '^v(?P<major>\\d+'\n" },
      ],
    });
    const template = await changelog(`${site}/changelog?version=1.1.0&config_file=broken-template.yml&config_file_ref=bad-config`);
    expect(template).toMatchObject({ status: 422, body: { message: "Failed to generate the changelog: An if or each tag is not closed with an end tag" } });
    const regex = await changelog(`${site}/changelog?version=1.1.0&config_file=broken-regex.yml&config_file_ref=bad-config`);
    expect(regex.status).toBe(422);
    expect(regex.body.message).toMatch(/^Failed to generate the changelog: The regular expression to use for finding the previous tag for a version is invalid: /);
  });

  it("errors: version missing, empty or not semantic 400; no previous tag or a version the tag format refuses 422", async () => {
    expect(await changelog(`${site}/changelog`)).toMatchObject({ status: 400, body: { error: "version is missing" } });
    expect(await changelog(`${site}/changelog?version=`)).toMatchObject({ status: 400, body: { error: "version is empty" } });
    expect(await changelog(`${site}/changelog?version=1.0`)).toMatchObject({ status: 400, body: { error: "version is invalid" } });
    expect(await changelog(`${site}/changelog?version=1.2.0&date=yesterday`)).toMatchObject({ status: 400, body: { error: "date is invalid" } });
    expect(await changelog(`${site}/changelog?version=0.9.0`)).toMatchObject({
      status: 422,
      body: { message: "Failed to generate the changelog: The commit start range is unspecified, and no previous tag could be found to use instead" },
    });
    expect(await changelog(`${site}/changelog?version=release-1.2.3`)).toMatchObject({
      status: 422,
      body: { message: "Failed to generate the changelog: The requested `version` attribute format is not correct. Use formats such as `1.0.0` or `v1.0.0`." },
    });
    expect(await changelog(`${site}/changelog?version=1.1.0&from=nope`)).toMatchObject({
      status: 422,
      body: { message: "Failed to generate the changelog: The commit range nope..main names no commit" },
    });
    expect((await changelog(`${web}/changelog?version=1.1.0`, { as: null })).status).toBe(404);
    expect((await changelog(`${web}/changelog?version=1.1.0`, { as: "guest" })).status).toBe(403);
  });

  it("more than 5 requests a minute by one user on one project: 429", async () => {
    now += 120_000;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(server.emulator, `${web}/changelog?version=1.1.0`, { as: "dev" })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const limited = await call(server.emulator, `${web}/changelog?version=1.1.0`, { as: "dev" });
    expect(limited.body).toEqual({ error: "This changelog has been requested too many times. Try again later." });
    // Another user is counted apart.
    expect((await call(server.emulator, `${web}/changelog?version=1.1.0`, { as: "maintainer" })).status).toBe(200);
  });
});

describe("POST repository/changelog", () => {
  const blobAt = async (ref: string, path: string): Promise<string> => {
    const repo = await projectRepo("acme/web");
    const commit = (await repo.resolveRef(ref))!;
    return Buffer.from((await git.readBlob({ fs, gitdir: repo.gitdir, oid: commit, filepath: path })).blob).toString("utf8");
  };

  it("commits the notes to CHANGELOG.md on the default branch, as the caller, with the default message; 200", async () => {
    const repo = await projectRepo("acme/web");
    const before = await repo.resolveRef("main");
    const res = await changelog(`${web}/changelog`, { as: "maintainer", method: "POST", body: { version: "1.1.0", date: "2024-05-01" } });
    expect(res.status).toBe(200);
    expect(res.text).toBe("200");
    const head = (await repo.resolveRef("main"))!;
    expect(head).not.toBe(before);
    const { commit } = await repo.readCommit(head);
    expect(commit).toMatchObject({ message: "Add changelog for version 1.1.0\n", parent: [before], author: { name: "Mia Maintainer", email: "maintainer@example.test" } });
    const notes = await blobAt("main", "CHANGELOG.md");
    expect(notes).toMatch(/^## 1\.1\.0 \(2024-05-01\)\n\n### fixed \(1 change\)\n\n- \[Fix the retry loop\]\(https:\/\/platform\.example\.test\/acme\/web\/-\/commit\/[0-9a-f]{40}\)\n\n### added \(1 change\)\n\n- \[Add the API client\]\(.*\)\n$/);
    // The same notes as the GET form gives for that range.
    const get = await changelog(`${web}/changelog?version=1.1.0&date=2024-05-01&to=${before}`);
    expect(notes).toBe(get.body.notes);
    // The project's refs follow the new commit.
    expect(server.emulator.state.projectByFullPath("acme/web")!.lastCommitSha).toBe(head);
  });

  it("sections are kept in version order; a version already there is not added again", async () => {
    const repo = await projectRepo("acme/web");
    await changelog(`${web}/changelog`, { as: "maintainer", method: "POST", body: { version: "1.2.0", date: "2024-06-01", from: "v1.0.0" } });
    await changelog(`${web}/changelog`, { as: "maintainer", method: "POST", body: { version: "1.0.5", date: "2024-04-01", from: "v1.0.0", trailer: "Nothing" } });
    const notes = await blobAt("main", "CHANGELOG.md");
    const headings = notes.split("\n").filter((l) => l.startsWith("## "));
    expect(headings).toEqual(["## 1.2.0 (2024-06-01)", "## 1.1.0 (2024-05-01)", "## 1.0.5 (2024-04-01)"]);
    expect(notes.endsWith("## 1.0.5 (2024-04-01)\n\nNo changes.\n")).toBe(true);
    const head = await repo.resolveRef("main");
    const again = await changelog(`${web}/changelog`, { as: "maintainer", method: "POST", body: { version: "1.2.0", from: "v1.0.0" } });
    expect(again.status).toBe(200);
    expect(await repo.resolveRef("main")).toBe(head);
  });

  it("branch, file and message; a Developer may commit to a branch other than the protected default one", async () => {
    const res = await changelog(`${web}/changelog`, {
      as: "dev",
      method: "POST",
      body: new URLSearchParams({ version: "2.0.0", branch: "feature", file: "docs/NEWS.md", message: "News for 2.0.0", date: "2024-07-01" }),
    });
    expect(res.status).toBe(200);
    const repo = await projectRepo("acme/web");
    const { commit } = await repo.readCommit((await repo.resolveRef("feature"))!);
    expect(commit.message).toBe("News for 2.0.0\n");
    expect(await blobAt("feature", "docs/NEWS.md")).toMatch(/^## 2\.0\.0 \(2024-07-01\)\n\n### fixed/);
  });

  it("refused: anonymous 401, a Developer on the protected default branch 403, a Guest 403, a missing branch 422", async () => {
    expect((await changelog(`${site}/changelog`, { as: null, method: "POST", body: { version: "1.1.0" } })).status).toBe(401);
    expect(await changelog(`${web}/changelog`, { as: "dev", method: "POST", body: { version: "1.3.0" } })).toMatchObject({
      status: 403,
      body: { message: "403 Forbidden - You are not allowed to commit a changelog on this branch" },
    });
    expect((await changelog(`${web}/changelog`, { as: "guest", method: "POST", body: { version: "1.3.0" } })).status).toBe(403);
    expect((await changelog(`${site}/changelog`, { as: "outsider", method: "POST", body: { version: "1.1.0" } })).status).toBe(403);
    expect((await changelog(`${web}/changelog`, { as: "outsider", method: "POST", body: { version: "1.1.0" } })).status).toBe(404);
    expect(await changelog(`${web}/changelog`, { as: "maintainer", method: "POST", body: { version: "1.3.0", branch: "nope" } })).toMatchObject({ status: 422 });
    expect(await changelog(`${web}/changelog`, { as: "maintainer", method: "POST", body: { version: "x" } })).toMatchObject({ status: 400, body: { error: "version is invalid" } });
  });
});
