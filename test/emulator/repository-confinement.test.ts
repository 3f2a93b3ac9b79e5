/**
 * Every path-like parameter of the repository endpoints stays inside the
 * project's repository. isomorphic-git reads a ref as the file of that name
 * under the git directory, so a `ref` such as `../../../../leak` read a file
 * beside the repository, and one reaching `/dev/zero` read until memory ran
 * out; a changelog `branch` of `../../HEAD` wrote a commit over the
 * repository's HEAD file. Refs are taken only as git takes them (git
 * check-ref-format), paths only without `..`, and each is answered as
 * GitLab answers an unknown ref or path. Driven with @gitbeaker/rest where it
 * has the call (tree, compare, merge base, archive, changelog), and raw HTTP
 * for the forms a client would not send and for contributors (its call takes no ref).
 */
import * as fs from "node:fs";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Gitlab } from "@gitbeaker/rest";
import * as git from "isomorphic-git";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRefName, MAX_REF_BYTES } from "../../src/emulator/areas/repository/refs";
import { call, useEmulator } from "./helpers";

// With a state file, the repositories live at `<state file>.repositories/<project id>.git`: a known place to aim at.
const dir = mkdtempSync(join(tmpdir(), "repository-confinement-"));
// Registered first, so it runs after the emulator has stopped (and saved its state there).
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const server = useEmulator({ stateFile: join(dir, "state.json") });

const api = () => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens["root"]! });
const project = () => server.emulator.state.projectByFullPath("acme/web")!;
const gitdir = () => join(dir, "state.json.repositories", `${project().id}.git`);
const tree = (query: string) => call(server.emulator, `/projects/acme%2Fweb/repository/tree?${query}`);

let head: string;

beforeAll(async () => {
  // The repository is made on first use; then a file beside it holds a real commit's sha, as a ref file would.
  expect((await tree("ref=main")).status).toBe(200);
  head = project().lastCommitSha!;
  writeFileSync(join(dir, "leak"), `${head}\n`);
});

describe("refs are taken as git takes them (check-ref-format)", () => {
  it("the rules, one by one", () => {
    for (const name of ["main", "v1.4.0", "release/1.x", "refs/heads/main", "HEAD", "a".repeat(40), "feature-@x", "x.lock.y"]) expect(isRefName(name), name).toBe(true);
    const refused = [
      "",
      "..",
      "../../../../leak",
      "refs/heads/../../HEAD",
      "a..b",
      "/main",
      "main/",
      "a//b",
      "-main",
      ".hidden",
      "refs/.x",
      "main.",
      "main.lock",
      "refs/heads/x.lock/y",
      "a@{1}",
      "@",
      "with space",
      "tab\there",
      "nul\0",
      "del\x7f",
      "main~1",
      "main^",
      "a:b",
      "a?",
      "a*",
      "a[b",
      "a\\b",
      "x".repeat(MAX_REF_BYTES + 1),
    ];
    for (const name of refused) expect(isRefName(name), JSON.stringify(name)).toBe(false);
  });
});

describe("a ref never names a file outside the repository, or a ref file by a detour", () => {
  it("tree: a ref climbing out to a file that holds a sha is an unknown ref (404 Tree Not Found), with @gitbeaker/rest and raw", async () => {
    await expect(api().Repositories.allRepositoryTrees("acme/web", { ref: "../../../../leak" })).rejects.toMatchObject({
      cause: { response: { status: 404 }, description: "404 Tree Not Found" },
    });
    for (const ref of ["../../../../leak", "refs/tags/../../../../leak", "refs/heads/../../HEAD", "refs/../HEAD", "%2e%2e/%2e%2e/HEAD"]) {
      const answer = await tree(`ref=${encodeURIComponent(ref)}`);
      expect([answer.status, answer.body], ref).toEqual([404, { message: "404 Tree Not Found" }]);
    }
  });

  it("a ref reaching /dev/zero is refused at once: no read, bounded time and memory", async () => {
    const ref = `${"../".repeat(40)}dev/zero`;
    const before = process.memoryUsage().rss;
    // A read of /dev/zero never ends: the answers coming at all, and memory, are the bound (no wall-clock bound: it measures the machine).
    for (let i = 0; i < 3; i++) expect((await tree(`ref=${encodeURIComponent(ref)}`)).status).toBe(404);
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
  });

  it("a ref file that is a symlink to a device or to a file outside reads as missing: only regular files inside the repository are read", async () => {
    fs.symlinkSync("/dev/zero", join(gitdir(), "refs", "tags", "zero"));
    fs.symlinkSync(join(dir, "leak"), join(gitdir(), "refs", "tags", "outside"));
    try {
      for (const ref of ["zero", "refs/tags/zero", "outside"]) {
        const answer = await tree(`ref=${ref}`);
        expect([answer.status, answer.body], ref).toEqual([404, { message: "404 Tree Not Found" }]);
      }
      expect((await tree("ref=main")).status).toBe(200);
    } finally {
      fs.rmSync(join(gitdir(), "refs", "tags", "zero"));
      fs.rmSync(join(gitdir(), "refs", "tags", "outside"));
    }
  });

  it("an overlong ref is refused without a read", async () => {
    expect((await tree(`ref=${"a".repeat(MAX_REF_BYTES + 1)}`)).status).toBe(404);
  });

  it("compare, merge base, contributors and archive answer a climbing ref as any unknown ref", async () => {
    await expect(api().Repositories.compare("acme/web", "../../../../leak", "main")).rejects.toMatchObject({ cause: { response: { status: 404 }, description: "404 Ref Not Found" } });
    await expect(api().Repositories.mergeBase("acme/web", ["main", "../../../../leak"])).rejects.toMatchObject({
      cause: { response: { status: 400 }, description: "Could not find ref: ../../../../leak" },
    });
    // gitbeaker's allContributors takes no ref.
    expect((await call(server.emulator, `/projects/acme%2Fweb/repository/contributors?ref=${encodeURIComponent("../../../../leak")}`)).status).toBe(404);
    await expect(api().Repositories.showArchive("acme/web", { sha: "../../../../leak", fileType: "zip" })).rejects.toMatchObject({
      cause: { response: { status: 404 }, description: "404 File Not Found" },
    });
  });

  it("a changelog commit on a branch that climbs to the HEAD file is refused, and HEAD is untouched", async () => {
    const headFile = readFileSync(join(gitdir(), "HEAD"), "utf8");
    await expect(api().Repositories.editChangelog("acme/web", "9.9.9", { from: head, to: head, branch: "../../HEAD" })).rejects.toMatchObject({
      cause: { response: { status: 422 }, description: "Failed to generate the changelog: the branch ../../HEAD does not exist" },
    });
    const answer = await call(server.emulator, "/projects/acme%2Fweb/repository/changelog", {
      method: "POST",
      body: { version: "9.9.9", from: head, to: head, branch: "refs/../HEAD" },
    });
    expect([answer.status, answer.body]).toEqual([422, { message: "Failed to generate the changelog: the branch refs/../HEAD does not exist" }]);
    expect(readFileSync(join(gitdir(), "HEAD"), "utf8")).toBe(headFile);
    expect(project().lastCommitSha).toBe(head);
  });
});

describe("a path never leaves the repository", () => {
  it("tree: a path with a .. segment is Gitaly's traversal error, answered 404 (with @gitbeaker/rest and raw)", async () => {
    await expect(api().Repositories.allRepositoryTrees("acme/web", { path: "../.." })).rejects.toMatchObject({
      cause: { response: { status: 404 }, description: "404 Path cannot include traversal syntax Not Found" },
    });
    for (const path of ["..", "../x", "a/../..", "/../", "a/..", `x\0y`]) {
      const answer = await tree(`path=${encodeURIComponent(path)}`);
      expect([answer.status, answer.body], path).toEqual([404, { message: "404 Path cannot include traversal syntax Not Found" }]);
    }
  });

  it("archive: a path or an excluded path with a .. segment is 404 File Not Found", async () => {
    for (const query of ["path=..", "path=a%2F..%2F..", "exclude_paths=README.md,..%2F..%2Fx"]) {
      const answer = await call(server.emulator, `/projects/acme%2Fweb/repository/archive.tar.gz?${query}`);
      expect([answer.status, answer.body], query).toEqual([404, { message: "404 File Not Found" }]);
    }
  });

  it("changelog: a file that climbs out cannot be committed (the commit fails as GitLab's does), and the branch is unchanged", async () => {
    await expect(api().Repositories.editChangelog("acme/web", "9.9.9", { from: head, to: head, file: "../outside.md" })).rejects.toMatchObject({ cause: { response: { status: 500 } } });
    for (const file of ["../outside.md", "docs/../../outside.md", "./CHANGELOG.md", "/CHANGELOG.md"]) {
      // As alice: the changelog takes 5 requests a minute per user.
      const answer = await call(server.emulator, "/projects/acme%2Fweb/repository/changelog", { as: "alice", method: "POST", body: { version: "9.9.9", from: head, to: head, file } });
      expect(answer.status, file).toBe(500);
    }
    expect(project().lastCommitSha).toBe(head);
    expect(await git.resolveRef({ fs, gitdir: gitdir(), ref: "refs/heads/main" })).toBe(head);
  });
});
