/**
 * Repository content over real HTTP (spec document 1, part 4.6): tree, blobs
 * and archives of the projects' real git repositories, every parameter and
 * error, the part 8 limits, and the `repositories` seed in each form. The
 * repositories are checked with the system's git, the archives unpacked with
 * the system's tar, bzip2 and unzip.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultSeed, selfManagedSeed, SeedError, startEmulator, stateFromSeed, type Seed } from "../../src/emulator";
import { repositoryOf } from "../../src/emulator/areas/repository/model";
import { call, useEmulator } from "./helpers";

// Self-managed: archive downloads are not rate-limited there (the hosted limit has its own test below).
const server = useEmulator({ seed: selfManagedSeed });
const WEB = "/projects/acme%2Fweb/repository";
const scratch = mkdtempSync(join(tmpdir(), "repository-content-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const gitOut = (gitdir: string, ...args: string[]): string => execFileSync("git", [`--git-dir=${gitdir}`, ...args], { encoding: "utf8" }).trim();
const webGitdir = async (): Promise<string> => (await repositoryOf(server.emulator.state, server.emulator.state.projectByFullPath("acme/web")!)).gitdir;

/** Downloads an archive and unpacks it with the system's tools; returns the directory it was unpacked into. */
async function unpack(path: string, as: string | null = "alice"): Promise<{ dir: string; headers: Headers; status: number }> {
  const headers: Record<string, string> = as ? { "PRIVATE-TOKEN": server.emulator.tokens[as]! } : {};
  const response = await fetch(server.emulator.apiUrl + path, { headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  const dir = mkdtempSync(join(scratch, "unpacked-"));
  if (response.status === 200) {
    const file = join(dir, "archive");
    writeFileSync(file, bytes);
    if (response.headers.get("content-type") === "application/zip") execFileSync("unzip", ["-q", file, "-d", dir]);
    else execFileSync("tar", ["-xf", file, "-C", dir]);
    rmSync(file);
  }
  return { dir, headers: response.headers, status: response.status };
}

const listFiles = (dir: string, prefix = ""): string[] =>
  readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full, `${prefix}${name}/`) : [`${prefix}${name}`];
  });

describe("GET /projects/:id/repository/tree", () => {
  it("lists the default branch's root, trees first, with git's own ids and modes", async () => {
    const result = await call(server.emulator, `${WEB}/tree`, { as: "alice" });
    expect(result.status).toBe(200);
    const lsTree = gitOut(await webGitdir(), "ls-tree", "main")
      .split("\n")
      .map((line) => {
        const [mode, type, id, name] = line.split(/\s+/);
        return { id, name, type, path: name, mode };
      });
    const sorted = [...lsTree].sort((a, b) => (a.type === b.type ? 0 : a.type === "tree" ? -1 : 1));
    expect(result.body).toEqual(sorted);
    expect(result.body.map((e: { name: string }) => e.name)).toEqual(["assets", "bin", "config", "src", ".gitattributes", "README.md", "VERSION", "package.json"]);
    expect(result.headers.get("x-total")).toBe("8");
  });

  it("path, ref (tag, branch, sha) and recursive", async () => {
    const atTag = await call(server.emulator, `${WEB}/tree?path=src&ref=v1.3.0`, { as: "alice" });
    expect(atTag.body.map((e: { path: string }) => e.path)).toEqual(["src/views", "src/app.js", "src/auth.js", "src/home.js"]);
    const head = server.emulator.state.projectByFullPath("acme/web")!.lastCommitSha!;
    const atSha = await call(server.emulator, `${WEB}/tree?path=src/&ref=${head.slice(0, 8)}`, { as: "alice" });
    expect(atSha.body.map((e: { path: string }) => e.path)).toEqual(["src/views", "src/app.js", "src/footer.js", "src/home.js", "src/session.js"]);
    const onBranch = await call(server.emulator, `${WEB}/tree?ref=release%2F1.x&path=src`, { as: "alice" });
    expect(onBranch.body.map((e: { name: string }) => e.name)).toContain("footer.js");
    const emptyRef = await call(server.emulator, `${WEB}/tree?ref=&path=src`, { as: "alice" });
    expect(emptyRef.body).toEqual(atSha.body);
    const recursive = await call(server.emulator, `${WEB}/tree?recursive=true&per_page=100`, { as: "alice" });
    const lsTree = gitOut(await webGitdir(), "ls-tree", "-r", "-t", "main").split("\n").map((line) => ({ type: line.split(/\s+/)[1], path: line.split("\t")[1] }));
    const treesFirst = [...lsTree.filter((e) => e.type === "tree"), ...lsTree.filter((e) => e.type !== "tree")];
    expect(recursive.body.map((e: { type: string; path: string }) => ({ type: e.type, path: e.path }))).toEqual(treesFirst);
    expect(recursive.body.slice(0, 6).map((e: { path: string }) => e.path)).toEqual(["assets", "bin", "config", "src", "src/views", ".gitattributes"]);
  });

  it("offset pagination with its headers", async () => {
    const page = await call(server.emulator, `${WEB}/tree?recursive=true&per_page=5&page=2`, { as: "alice" });
    expect(page.body).toHaveLength(5);
    expect(page.headers.get("x-page")).toBe("2");
    const count = gitOut(await webGitdir(), "ls-tree", "-r", "-t", "--name-only", "main").split("\n").length;
    expect(page.headers.get("x-total")).toBe(String(count));
    expect(page.headers.get("x-next-page")).toBe("3");
    expect(page.headers.get("link")).toContain('rel="next"');
  });

  it("keyset pagination: page_token pages to the end, only a next link, none on the last page", async () => {
    const all = (await call(server.emulator, `${WEB}/tree?recursive=true&per_page=100`, { as: "alice" })).body;
    const seen: unknown[] = [];
    let url: string | undefined = `${server.emulator.apiUrl}${WEB}/tree?recursive=true&pagination=keyset&per_page=4`;
    let pages = 0;
    while (url) {
      const response = await fetch(url, { headers: { "PRIVATE-TOKEN": server.emulator.tokens["alice"]! } });
      const body = (await response.json()) as unknown[];
      seen.push(...body);
      expect(response.headers.get("x-total")).toBeNull();
      const link = response.headers.get("link");
      url = link ? /<([^>]+)>; rel="next"/.exec(link)?.[1] : undefined;
      if (url) expect(new URL(url).searchParams.get("page_token")).toBe((body[body.length - 1] as { id: string }).id);
      pages++;
    }
    expect(pages).toBe(5);
    expect(seen).toEqual(all);
    const bad = await call(server.emulator, `${WEB}/tree?pagination=keyset&page_token=${"0".repeat(40)}`, { as: "alice" });
    expect(bad.status).toBe(400);
  });

  it("pagination=none: every entry at once, recursive only; other values refused", async () => {
    const all = await call(server.emulator, `${WEB}/tree?recursive=true&pagination=none&per_page=5`, { as: "alice" });
    const count = gitOut(await webGitdir(), "ls-tree", "-r", "-t", "--name-only", "main").split("\n").length;
    expect(count).toBeGreaterThan(5);
    expect(all.body).toHaveLength(count);
    // Unpaginated: git's own order, not trees first.
    expect(all.body.map((e: { path: string }) => e.path)).toEqual(gitOut(await webGitdir(), "ls-tree", "-r", "-t", "--name-only", "main").split("\n"));
    expect(all.headers.get("x-total")).toBeNull();
    expect(await call(server.emulator, `${WEB}/tree?pagination=none`, { as: "alice" })).toMatchObject({ status: 400, body: { error: 'pagination cannot be "none" unless "recursive" is true' } });
    expect(await call(server.emulator, `${WEB}/tree?pagination=pages`, { as: "alice" })).toMatchObject({ status: 400, body: { error: "pagination does not have a valid value" } });
  });

  it("a missing path, a file path and an unknown ref are 404 Tree Not Found", async () => {
    for (const query of ["path=nowhere", "path=README.md", "ref=no-such-branch", "ref=v9.9.9&path=src"]) {
      const result = await call(server.emulator, `${WEB}/tree?${query}`, { as: "alice" });
      expect([query, result.status, result.body]).toEqual([query, 404, { message: "404 Tree Not Found" }]);
    }
  });

  it("public repositories need no token; private ones are 404 to outsiders and anonymous, 403 to guests", async () => {
    const anonymous = await call(server.emulator, "/projects/beta%2Fsite/repository/tree", { as: null });
    expect(anonymous.body.map((e: { name: string }) => e.name)).toEqual(["README.md", "about.html", "index.html"]);
    expect((await call(server.emulator, `${WEB}/tree`, { as: null })).body).toEqual({ message: "404 Project Not Found" });
    expect((await call(server.emulator, `${WEB}/tree`, { as: "outsider" })).status).toBe(404);
    expect(await call(server.emulator, `${WEB}/tree`, { as: "guest" })).toMatchObject({ status: 403, body: { message: "403 Forbidden" } });
    expect((await call(server.emulator, `${WEB}/tree`, { as: "dev" })).status).toBe(200);
  });
});

describe("GET /projects/:id/repository/blobs/:sha[/raw]", () => {
  const blobOf = async (path: string, ref = "main"): Promise<string> => gitOut(await webGitdir(), "rev-parse", `${ref}:${path}`);

  it("the blob as Base64 with its size and sha, by full or abbreviated sha", async () => {
    const sha = await blobOf("config/deploy.json");
    const result = await call(server.emulator, `${WEB}/blobs/${sha}`, { as: "alice" });
    const text = '{\n  "environment": "production",\n  "region": "eu-west-1",\n  "replicas": 3\n}\n';
    expect(result.body).toEqual({ size: text.length, encoding: "base64", content: Buffer.from(text).toString("base64"), sha });
    expect((await call(server.emulator, `${WEB}/blobs/${sha.slice(0, 10)}`, { as: "alice" })).body.sha).toBe(sha);
  });

  it("raw: the bytes, text as text/plain, inline", async () => {
    const response = await fetch(`${server.emulator.apiUrl}${WEB}/blobs/${await blobOf("bin/deploy")}/raw`, { headers: { "PRIVATE-TOKEN": server.emulator.tokens["alice"]! } });
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe("inline");
    expect(await response.text()).toBe("#!/bin/sh\necho deploying\n");
  });

  it("unknown, malformed and non-blob shas are 404 Blob Not Found", async () => {
    const tree = await blobOf("src");
    for (const sha of ["0".repeat(40), "not-a-sha", tree]) {
      for (const suffix of ["", "/raw"]) {
        const result = await call(server.emulator, `${WEB}/blobs/${sha}${suffix}`, { as: "alice" });
        expect([sha, suffix, result.status, result.body]).toEqual([sha, suffix, 404, { message: "404 Blob Not Found" }]);
      }
    }
  });
});

describe("GET /projects/:id/repository/archive[.format]", () => {
  const head = (): string => server.emulator.state.projectByFullPath("acme/web")!.lastCommitSha!;

  it.each([
    ["", "tar.gz"],
    [".tar.gz", "tar.gz"],
    [".tar", "tar"],
    [".zip", "zip"],
    [".bz2", "tar.bz2"],
    [".tar.bz2", "tar.bz2"],
    [".tb2", "tar.bz2"],
    [".tbz", "tar.bz2"],
    [".tbz2", "tar.bz2"],
  ])("archive%s: a real %s archive under <project>-<ref>-<sha>/", async (suffix, extension) => {
    const { dir, headers, status } = await unpack(`${WEB}/archive${suffix}`);
    expect(status).toBe(200);
    const prefix = `web-main-${head()}`;
    expect(headers.get("content-disposition")).toBe(`attachment; filename="${prefix}.${extension}"`);
    expect(headers.get("content-type")).toBe(extension === "zip" ? "application/zip" : "application/octet-stream");
    expect(readdirSync(dir)).toEqual([prefix]);
    const files = listFiles(join(dir, prefix)).sort();
    expect(files).toEqual(gitOut(await webGitdir(), "ls-tree", "-r", "--name-only", "main").split("\n").sort());
    expect(readFileSync(join(dir, prefix, "VERSION"), "utf8")).toBe("1.4.0\n");
    expect(statSync(join(dir, prefix, "bin/deploy")).mode & 0o111).not.toBe(0);
  });

  it("sha (a tag), path and exclude_paths", async () => {
    const tagSha = gitOut(await webGitdir(), "rev-parse", "v1.3.0^{commit}");
    const { dir, headers } = await unpack(`${WEB}/archive.tar?sha=v1.3.0&path=src&exclude_paths=src/views,src/home.js`);
    const prefix = `web-v1.3.0-${tagSha}-src`;
    expect(headers.get("content-disposition")).toBe(`attachment; filename="${prefix}.tar"`);
    expect(listFiles(join(dir, prefix)).sort()).toEqual(["src/app.js", "src/auth.js"]);
    const bySha = await unpack(`${WEB}/archive.zip?sha=${tagSha}&exclude_paths=src,config,assets,bin`);
    expect(listFiles(join(bySha.dir, `web-${tagSha}-${tagSha}`)).sort()).toEqual([".gitattributes", "README.md", "VERSION", "package.json"]);
  });

  it("path: a directory or a file, with the directories above it, as git archive lists them", async () => {
    const response = await fetch(`${server.emulator.apiUrl}${WEB}/archive.tar?path=src/views`, { headers: { "PRIVATE-TOKEN": server.emulator.tokens["alice"]! } });
    const file = join(scratch, "views.tar");
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    const prefix = `web-main-${head()}-src-views`;
    expect(execFileSync("tar", ["-tf", file], { encoding: "utf8" }).trim().split("\n")).toEqual([`${prefix}/`, `${prefix}/src/`, `${prefix}/src/views/`, `${prefix}/src/views/comment.js`]);
    const single = await unpack(`${WEB}/archive.zip?path=config/deploy.json`);
    expect(listFiles(join(single.dir, `web-main-${head()}-config-deploy.json`))).toEqual(["config/deploy.json"]);
  });

  it("include_lfs_blobs: the object's content by default and with true, the pointer with false", async () => {
    const withLfs = await unpack(`${WEB}/archive.tar.gz?path=assets`);
    expect(readFileSync(join(withLfs.dir, `web-main-${head()}-assets/assets/banner.bin`), "utf8")).toBe("BANNER-IMAGE-BYTES\n");
    const pointers = await unpack(`${WEB}/archive.zip?path=assets&include_lfs_blobs=false`);
    const pointer = readFileSync(join(pointers.dir, `web-main-${head()}-assets/assets/banner.bin`), "utf8");
    expect(pointer).toMatch(/^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:[0-9a-f]{64}\nsize 19\n$/);
  });

  it("an unknown sha or path is 404 File Not Found; an unknown format is no route; anonymous reads public archives", async () => {
    expect(await call(server.emulator, `${WEB}/archive?sha=nope`, { as: "alice" })).toMatchObject({ status: 404, body: { message: "404 File Not Found" } });
    expect(await call(server.emulator, `${WEB}/archive.zip?path=nowhere`, { as: "alice" })).toMatchObject({ status: 404, body: { message: "404 File Not Found" } });
    expect(await call(server.emulator, `${WEB}/archive.rar`, { as: "alice" })).toMatchObject({ status: 404, body: { error: "404 Not Found" } });
    expect((await call(server.emulator, `${WEB}/archive`, { as: null })).status).toBe(404);
    const site = await unpack("/projects/beta%2Fsite/repository/archive.tar.gz", null);
    expect(readdirSync(site.dir)[0]).toMatch(/^site-main-[0-9a-f]{40}$/);
  });
});

describe("streamed archives", () => {
  it("a client that goes away mid-download leaves the emulator serving", async () => {
    const noise = randomBytes(4 * 1024 * 1024).toString("base64");
    const emulator = await startEmulator({ seed: { ...selfManagedSeed, repositories: { "acme/api": { files: { "a.bin": { base64: noise }, "b.bin": { base64: noise.split("").reverse().join("") } } } } } });
    try {
      for (const format of ["tar.bz2", "zip", "tar.gz"]) {
        const aborter = new AbortController();
        const response = await fetch(`${emulator.apiUrl}/projects/acme%2Fapi/repository/archive.${format}`, { headers: { "PRIVATE-TOKEN": emulator.tokens["alice"]! }, signal: aborter.signal });
        expect(response.headers.get("content-length")).toBeNull();
        const reader = response.body!.getReader();
        await reader.read();
        aborter.abort();
        await reader.closed.catch(() => undefined);
      }
      expect((await call(emulator, "/projects/acme%2Fapi/repository/tree", { as: "alice" })).body.map((e: { name: string }) => e.name)).toEqual(["a.bin", "b.bin"]);
    } finally {
      await emulator.stop();
    }
  });
});

describe("part 8 limits", () => {
  it("archives on the hosted offering: 5 a minute per project and user, then 429; self-managed: no limit", async () => {
    let now = Date.parse("2025-01-01T00:00:10Z");
    const hosted = await startEmulator({ clock: () => now });
    const selfManaged = await startEmulator({ seed: selfManagedSeed });
    try {
      const get = (emulator: typeof hosted) => call(emulator, "/projects/acme%2Fapi/repository/archive.tar", { as: "alice" });
      for (let i = 0; i < 5; i++) expect((await get(hosted)).status).toBe(200);
      expect(await get(hosted)).toMatchObject({ status: 429, body: { message: { error: "This archive has been requested too many times. Try again later." } } });
      expect((await call(hosted, "/projects/acme%2Fweb/repository/archive.tar", { as: "alice" })).status).toBe(200);
      now += 60_000;
      expect((await get(hosted)).status).toBe(200);
      for (let i = 0; i < 7; i++) expect((await get(selfManaged)).status).toBe(200);
    } finally {
      await hosted.stop();
      await selfManaged.stop();
    }
  });

  it("blobs over 10 MB: 5 fetches a minute, then 429; smaller blobs are not counted", async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, "a");
    // A clock held still: the limit counts in minute windows, and a real minute could turn between the fetches.
    const now = Date.parse("2025-01-01T00:00:10Z");
    const emulator = await startEmulator({
      clock: () => now,
      seed: { ...defaultSeed, repositories: { ...(defaultSeed["repositories"] as object), "acme/api": { files: { "big.txt": { base64: big.toString("base64") }, "small.txt": "small\n" } } } },
    });
    try {
      const tree = (await call(emulator, "/projects/acme%2Fapi/repository/tree", { as: "alice" })).body as { name: string; id: string }[];
      const bigSha = tree.find((e) => e.name === "big.txt")!.id;
      const smallSha = tree.find((e) => e.name === "small.txt")!.id;
      for (let i = 0; i < 5; i++) {
        const raw = await fetch(`${emulator.apiUrl}/projects/acme%2Fapi/repository/blobs/${bigSha}/raw`, { headers: { "PRIVATE-TOKEN": emulator.tokens["alice"]! } });
        expect(Buffer.from(await raw.arrayBuffer()).length).toBe(big.length);
      }
      expect(await call(emulator, `/projects/acme%2Fapi/repository/blobs/${bigSha}`, { as: "alice" })).toMatchObject({ status: 429, body: { message: { error: "This endpoint has been requested too many times. Try again later." } } });
      for (let i = 0; i < 6; i++) expect((await call(emulator, `/projects/acme%2Fapi/repository/blobs/${smallSha}`, { as: "alice" })).status).toBe(200);
    } finally {
      await emulator.stop();
    }
  });
});

describe("the repositories seed", () => {
  const base: Seed = {
    users: [{ username: "root", admin: true, token: "glpat-root" }],
    groups: [{ path: "g", visibility: "public" }],
    projects: [{ path: "p", namespace: "g", visibility: "public", createdAt: "2024-01-01T00:00:00Z" }],
  };
  const withRepository = (repository: unknown): Seed => ({ ...base, repositories: { "g/p": repository } });

  it("files: one commit, executable and binary files; the same seed gives the same SHAs", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    const binary = Buffer.from([0, 1, 2, 0xff, 0]);
    const seed = withRepository({ files: { "run.sh": { content: "echo\n", executable: true }, "logo.png": { base64: png.toString("base64") }, "data.bin": { base64: binary.toString("base64") } } });
    const first = await startEmulator({ seed });
    const second = await startEmulator({ seed });
    try {
      const project = first.state.projectByFullPath("g/p")!;
      expect(project.lastCommitSha).toMatch(/^[0-9a-f]{40}$/);
      expect(second.state.projectByFullPath("g/p")!.lastCommitSha).toBe(project.lastCommitSha);
      const tree = (await call(first, "/projects/g%2Fp/repository/tree", { as: null })).body as { name: string; id: string; mode: string }[];
      expect(tree.map((e) => [e.name, e.mode])).toEqual([["data.bin", "100644"], ["logo.png", "100644"], ["run.sh", "100755"]]);
      const raw = await fetch(`${first.apiUrl}/projects/g%2Fp/repository/blobs/${tree[1]!.id}/raw`);
      expect(raw.headers.get("content-type")).toBe("image/png");
      expect(Buffer.from(await raw.arrayBuffer())).toEqual(png);
      const rawBinary = await fetch(`${first.apiUrl}/projects/g%2Fp/repository/blobs/${tree[0]!.id}/raw`);
      expect([rawBinary.headers.get("content-type"), rawBinary.headers.get("x-content-type-options")]).toEqual(["application/octet-stream", "nosniff"]);
      expect(Buffer.from(await rawBinary.arrayBuffer())).toEqual(binary);
    } finally {
      await first.stop();
      await second.stop();
    }
  });

  it("directory: the files of a directory on disk in one commit", async () => {
    const dir = join(scratch, "source-dir");
    mkdirSync(join(dir, "docs"), { recursive: true });
    writeFileSync(join(dir, "README.md"), "# From disk\n");
    writeFileSync(join(dir, "docs", "guide.md"), "guide\n");
    const emulator = await startEmulator({ seed: withRepository({ directory: dir }) });
    try {
      const tree = await call(emulator, "/projects/g%2Fp/repository/tree?recursive=true", { as: null });
      expect(tree.body.map((e: { path: string }) => e.path)).toEqual(["docs", "README.md", "docs/guide.md"]);
    } finally {
      await emulator.stop();
    }
  });

  it("clone: an existing repository with every ref and its own SHAs", async () => {
    const source = join(scratch, "source-repo");
    mkdirSync(source, { recursive: true });
    const git = (...args: string[]): string => execFileSync("git", ["-C", source, ...args], { encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "S", GIT_AUTHOR_EMAIL: "s@x", GIT_COMMITTER_NAME: "S", GIT_COMMITTER_EMAIL: "s@x" } }).trim();
    git("init", "-q", "-b", "main");
    writeFileSync(join(source, "a.txt"), "a\n");
    git("add", "a.txt");
    git("commit", "-q", "-m", "first");
    git("tag", "v1");
    const head = git("rev-parse", "HEAD");
    const emulator = await startEmulator({ seed: withRepository({ clone: source }) });
    try {
      const project = emulator.state.projectByFullPath("g/p")!;
      expect([project.lastCommitSha, project.tags, project.latestTag]).toEqual([head, ["v1"], "v1"]);
      expect((await call(emulator, "/projects/g%2Fp/repository/tree?ref=v1", { as: null })).body.map((e: { name: string }) => e.name)).toEqual(["a.txt"]);
    } finally {
      await emulator.stop();
    }
  });

  it("a history: trailers, authors, dates, deletes, renames, a merge, branches and an annotated tag", async () => {
    const emulator = await startEmulator({
      seed: withRepository({
        files: { "a.txt": "a\n", "old.txt": "old\n" },
        commits: [
          { id: "feature-1", branch: "feature", from: "main", message: "Add b", trailers: { Changelog: "added" }, author: { name: "Bo", email: "bo@example.test" }, date: "2024-02-01T12:00:00Z", files: { "b.txt": "b\n" } },
          { message: "Rename and delete", date: "2024-02-02T12:00:00Z", rename: { "old.txt": "new.txt" }, files: { "a.txt": null } },
          { message: "Merge branch 'feature'", merge: "feature", date: "2024-02-03T12:00:00Z" },
        ],
        branches: { "release/1": "feature-1" },
        tags: [{ name: "v1.0.0", message: "Version 1.0.0" }, { name: "v0.1.0", target: "feature-1" }],
      }),
    });
    try {
      const project = emulator.state.projectByFullPath("g/p")!;
      expect([project.branches, project.tags, project.latestTag]).toEqual([["feature", "main", "release/1"], ["v0.1.0", "v1.0.0"], "v1.0.0"]);
      const { gitdir } = await repositoryOf(emulator.state, project);
      expect(gitOut(gitdir, "log", "--format=%an|%aI|%s|%P", "main").split("\n").map((line) => line.split("|").slice(0, 3))).toEqual([
        ["Administrator", "2024-02-03T12:00:00+00:00", "Merge branch 'feature'"],
        ["Administrator", "2024-02-02T12:00:00+00:00", "Rename and delete"],
        ["Bo", "2024-02-01T12:00:00+00:00", "Add b"],
        ["Administrator", "2024-01-01T01:00:00+00:00", "Initial commit"],
      ]);
      expect(gitOut(gitdir, "log", "-1", "--format=%P", "main").split(" ")).toHaveLength(2);
      expect(gitOut(gitdir, "log", "-1", "--format=%(trailers:key=Changelog,valueonly)", "feature")).toBe("added");
      expect(gitOut(gitdir, "cat-file", "-t", "v1.0.0")).toBe("tag");
      expect(gitOut(gitdir, "ls-tree", "--name-only", "main").split("\n")).toEqual(["b.txt", "new.txt"]);
      expect(gitOut(gitdir, "fsck", "--strict")).toBe("");
    } finally {
      await emulator.stop();
    }
  });

  it("a project without a description gets a README commit with its branches and tags; commitSha null stays empty", async () => {
    const emulator = await startEmulator({
      seed: { ...base, projects: [{ path: "p", namespace: "g", visibility: "public", branches: ["main", "dev"], latestTag: "v2" }, { path: "e", namespace: "g", visibility: "public", commitSha: null }] },
    });
    try {
      const project = emulator.state.projectByFullPath("g/p")!;
      expect([project.branches, project.tags, project.latestTag]).toEqual([["dev", "main"], ["v2"], "v2"]);
      expect((await call(emulator, "/projects/g%2Fp/repository/tree?ref=v2", { as: null })).body.map((e: { name: string }) => e.name)).toEqual(["README.md"]);
      expect(emulator.state.projectByFullPath("g/e")!.lastCommitSha).toBeNull();
      expect(await call(emulator, "/projects/g%2Fe/repository/tree", { as: null })).toMatchObject({ status: 404, body: { message: "404 Tree Not Found" } });
    } finally {
      await emulator.stop();
    }
  });

  it.each([
    [{ file: {} }, 'repositories["g/p"]: unknown key(s) file'],
    [{ files: { "../x": "x" } }, '"../x" is not a valid file path'],
    [{ files: { "a.txt": { text: "x" } } }, 'repositories["g/p"].files["a.txt"]: unknown key(s) text'],
    [{ commits: [{ message: "m", merge: "x", files: { "a": "b" } }] }, "a merge commit takes no files or rename"],
    [{ commits: [{ message: "m", auther: { name: "x" } }] }, 'repositories["g/p"].commits[0]: unknown key(s) auther'],
    [{ tags: [{ name: "v1", taget: "main" }] }, 'repositories["g/p"].tags[0]: unknown key(s) taget'],
    [{ directory: "/no/such/dir" }, "/no/such/dir does not exist"],
    [{ files: { "a": "a" }, commits: [{ message: "m", rename: { a: "../b" } }] }, 'repositories["g/p"].commits[0].rename["a"]: "../b" is not a valid file path'],
  ])("a bad description is refused naming the key: %j", (repository, message) => {
    expect(() => stateFromSeed(withRepository(repository))).toThrow(SeedError);
    expect(() => stateFromSeed(withRepository(repository))).toThrow(message);
  });

  it("an unknown project, and an unknown target found while building, are refused", async () => {
    expect(() => stateFromSeed({ ...base, repositories: { "g/nope": { files: {} } } })).toThrow('repositories["g/nope"]: unknown project g/nope');
    await expect(startEmulator({ seed: withRepository({ files: { "a": "a" }, tags: [{ name: "v1", target: "missing" }] }) })).rejects.toThrow('tags[0].target: unknown commit, branch or tag "missing"');
  });
});

describe("repositoryOf: writes, refs in step, where repositories live", () => {
  it("a commit through the accessor moves the project's head and shows in the tree; temporary repositories go at stop", async () => {
    const emulator = await startEmulator();
    const project = emulator.state.projectByFullPath("acme/platform/infra")!;
    const repo = await repositoryOf(emulator.state, project);
    const before = project.lastCommitSha;
    const sha = await repo.commit({ branch: "main", message: "Add outputs", date: "2024-06-01T00:00:00Z", actions: [{ action: "create", filePath: "outputs.tf", content: "output \"x\" {}\n" }] });
    expect(project.lastCommitSha).toBe(sha);
    expect(gitOut(repo.gitdir, "rev-parse", `${sha}^`)).toBe(before);
    const tree = await call(emulator, "/projects/acme%2Fplatform%2Finfra/repository/tree", { as: "dev" });
    expect(tree.body.map((e: { name: string }) => e.name)).toContain("outputs.tf");
    await repo.commit({ branch: "hotfix", message: "Tag me", actions: [{ action: "update", filePath: "main.tf", content: "terraform { }\n" }] });
    expect(project.branches).toEqual(["hotfix", "main"]);
    await emulator.stop();
    expect(existsSync(repo.gitdir)).toBe(false);
  });

  it("a state file saved before projects had repositories: each project gets its generated repository and real head", async () => {
    const stateFile = join(scratch, "old-state.json");
    const old = stateFromSeed(defaultSeed).toJSON();
    delete (old.stores as Record<string, unknown>)["repositories"];
    old.projects[0]!.lastCommitSha = "6104942438c14ec7bd21c6cd5bd995272b3faff6";
    writeFileSync(stateFile, JSON.stringify(old));
    const emulator = await startEmulator({ stateFile });
    try {
      const web = emulator.state.projectByFullPath("acme/web")!;
      const { gitdir } = await repositoryOf(emulator.state, web);
      expect(web.lastCommitSha).toBe(gitOut(gitdir, "rev-parse", "main"));
      expect(gitOut(gitdir, "ls-tree", "--name-only", "v1.4.0")).toBe("README.md");
    } finally {
      await emulator.stop();
    }
  });

  it("with a state file, repositories live beside it and survive a restart", async () => {
    const stateFile = join(scratch, "state.json");
    const first = await startEmulator({ stateFile });
    const project = first.state.projectByFullPath("acme/api")!;
    const repo = await repositoryOf(first.state, project);
    expect(repo.gitdir).toBe(join(`${stateFile}.repositories`, `${project.id}.git`));
    const sha = await repo.commit({ branch: "develop", message: "Persist me", actions: [{ action: "create", filePath: "kept.txt", content: "kept\n" }] });
    await first.stop();
    const second = await startEmulator({ stateFile });
    try {
      expect(second.state.projectByFullPath("acme/api")!.lastCommitSha).toBe(sha);
      const tree = await call(second, "/projects/acme%2Fapi/repository/tree", { as: "alice" });
      expect(tree.body.map((e: { name: string }) => e.name)).toContain("kept.txt");
    } finally {
      await second.stop();
    }
  });
});
