/**
 * The repository content lookups against the emulator's real git
 * repositories: results, pages, refs, archives on disk, refusals, bad
 * arguments (no request sent).
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import * as pulumi from "@pulumi/pulumi";
import { extract } from "tar-stream";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import {
  getRepositoryArchive,
  getRepositoryArchiveOutput,
  getRepositoryBlob,
  getRepositoryBlobOutput,
  getRepositoryChangelog,
  getRepositoryCompare,
  getRepositoryContributors,
  getRepositoryMergeBase,
  getRepositoryTree,
} from "pulumi-platform";
import { defaultSeed, type Seed } from "pulumi-platform/emulator";
import { useEmulator } from "../support";

// acme/api (default branch develop): 250 files under many/ (three pages of
// 100), a binary file, and a small history with trailers, a feature branch
// merged back, a rename and a deletion; v0.9.0 tags the fix.
const MANY = 250;
const manyFile = (i: number) => `many/file-${String(i).padStart(3, "0")}.txt`;
const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0xc3]);
const alice = { name: "Alice Owner", email: "alice@example.test" };
const bob = { name: "Bob Builder", email: "bob@example.test" };
const carol = { name: "Carol Coder", email: "carol@example.test" };
const PROJECT = "acme/api";
const CROWDED = "acme/platform/infra";
const CROWD = 120;

const seed: Seed = {
  ...defaultSeed,
  repositories: {
    ...((defaultSeed as { repositories?: object }).repositories ?? {}),
    [PROJECT]: {
      files: {
        "README.md": "# API\n",
        "config/schedule.json": '{ "cron": "0 2 * * *" }\n',
        "config/legacy.yml": "legacy: true\n",
        "assets/logo.png": { base64: LOGO.toString("base64") },
        "src/lib/util.ts": "export const limit = 1;\n",
        ...Object.fromEntries(Array.from({ length: MANY }, (_, i) => [manyFile(i), `file ${i}\n`])),
      },
      commits: [
        { id: "login", message: "Add login", trailers: { Changelog: "added" }, author: alice, files: { "src/login.ts": "export const login = () => true;\n" } },
        { id: "fix", message: "Fix crash on empty input", trailers: { Changelog: "fixed" }, author: alice, files: { "src/lib/util.ts": "export const limit = 2;\n" } },
        { id: "search", branch: "feature/search", from: "login", message: "Add search", trailers: { Changelog: "added" }, author: carol, files: { "src/search.ts": "export const search = 1;\n" } },
        { branch: "develop", merge: "feature/search", message: "Merge branch 'feature/search' into develop", author: bob },
        { id: "tidy", message: "Remove the legacy config, rename the readme", author: carol, files: { "config/legacy.yml": null }, rename: { "README.md": "README.markdown" } },
      ],
      tags: [{ name: "v0.9.0", target: "fix" }],
    },
    // 120 people with one commit each: the contributors take two pages.
    [CROWDED]: {
      files: { "README.md": "# Infra\n" },
      commits: Array.from({ length: CROWD }, (_, i) => ({
        message: `Change ${i}`,
        author: { name: `Person ${String(i).padStart(3, "0")}`, email: `person-${i}@example.test` },
        files: { [`changes/${i}.txt`]: `${i}\n` },
      })),
    },
  },
} as Seed;

/** The emulator's time, held still where a test counts requests in the server's one-minute windows. */
let heldAt: number | undefined;
const server = useEmulator({ seed, clock: () => heldAt ?? Date.now() });
const scratch = mkdtempSync(join(tmpdir(), "repository-functions-"));

beforeAll(async () => {
  await server.configureProviders("alice");
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Git's blob id of some bytes: what the tree lists as a file's `id`. */
const gitBlobId = (bytes: Buffer) => createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");

async function noRequestFor(action: () => Promise<unknown>, message: RegExp): Promise<void> {
  const mark = server.emulator.mark();
  await expect(action()).rejects.toThrow(message);
  expect(server.emulator.requestsSince(mark)).toEqual([]);
}

const asOutsider = <T>(action: () => Promise<T>) => server.actingAs("outsider", action);

describe("getRepositoryTree", () => {
  it("a directory's entries in camelCase, every page by keyset, 100 a request", async () => {
    let entries: Awaited<ReturnType<typeof getRepositoryTree>> = [];
    const mark = server.emulator.mark();
    entries = await getRepositoryTree({ project: PROJECT, path: "many" });
    const requests = server.emulator.requestsSince(mark);
    expect(entries).toHaveLength(MANY);
    expect(new Set(entries.map((entry) => entry.path))).toEqual(new Set(Array.from({ length: MANY }, (_, i) => manyFile(i))));
    expect(entries[0]).toEqual({ id: expect.stringMatching(/^[0-9a-f]{40}$/), name: expect.any(String), type: "blob", path: expect.stringMatching(/^many\//), mode: "100644" });
    expect(requests.map((request) => request.path)).toEqual(Array(3).fill("/api/v4/projects/acme%2Fapi/repository/tree"));
    for (const request of requests) expect(request.query).toMatch(/pagination=keyset/);
    expect(requests[0]!.query).toMatch(/per_page=100/);
    expect(requests[1]!.query).toMatch(/page_token=/);
  });

  it("recursive lists every entry below; the root alone lists its children; ref reads another branch", async () => {
    const all = await getRepositoryTree({ project: PROJECT, recursive: true });
    const paths = all.map((entry) => entry.path);
    expect(paths).toEqual(expect.arrayContaining(["src", "src/lib", "src/lib/util.ts", "src/search.ts", "README.markdown", "assets/logo.png", manyFile(249)]));
    expect(paths).not.toContain("config/legacy.yml");
    expect(all.find((entry) => entry.path === "src/lib")).toMatchObject({ type: "tree", mode: "040000" });
    const root = (await getRepositoryTree({ project: PROJECT })).map((entry) => entry.path).sort();
    expect(root).toEqual(["README.markdown", "assets", "config", "many", "src"]);
    const atTag = (await getRepositoryTree({ project: PROJECT, ref: "v0.9.0" })).map((entry) => entry.path);
    expect(atTag).toContain("README.md");
    expect(atTag).not.toContain("README.markdown");
  });

  it("limit reads only the pages it needs", async () => {
    const requests = await server.requestsDuring(async () => {
      expect(await getRepositoryTree({ project: PROJECT, path: "many", limit: 150 })).toHaveLength(150);
    });
    expect(requests).toHaveLength(2);
  });

  it("a missing directory, a missing project and a private project's outsider are named as not found", async () => {
    await expect(getRepositoryTree({ project: PROJECT, path: "nope" })).rejects.toThrow(/getRepositoryTree: could not read directory nope of the repository of project acme\/api: GET .* answered 404/);
    await expect(getRepositoryTree({ project: "acme/nope" })).rejects.toThrow(/could not read the tree of the repository of project acme\/nope/);
    await asOutsider(async () => {
      await expect(getRepositoryTree({ project: PROJECT })).rejects.toThrow(/project acme\/api does not exist, or the token's user cannot see it.*hidden from non-members/);
      // A public project's repository is readable by anyone.
      expect((await getRepositoryTree({ project: "beta/site" })).length).toBeGreaterThan(0);
    });
    // A Guest of a private project sees it, but not its code.
    await server.actingAs("guest", async () => {
      await expect(getRepositoryTree({ project: PROJECT })).rejects.toThrow(/could not read the tree of the repository of project acme\/api: .*403.*needs at least the Reporter role/);
    });
  });

  it("bad arguments are refused before any request, unknown names with the nearest known one", async () => {
    await noRequestFor(() => getRepositoryTree({ project: PROJECT, recursiv: true } as never), /getRepositoryTree: invalid arguments: .*recursiv.*did you mean recursive\?.*No request was sent/);
    await noRequestFor(() => getRepositoryTree({ project: PROJECT, path: "/etc" }), /path: must be a path inside the repository/);
    await noRequestFor(() => getRepositoryTree({ project: PROJECT, limit: 0 }), /limit/);
  });
});

describe("getRepositoryBlob", () => {
  it("by SHA: the text, the Base64 bytes, size and sha", async () => {
    const entry = (await getRepositoryTree({ project: PROJECT, path: "config" })).find((candidate) => candidate.name === "schedule.json")!;
    const blob = await getRepositoryBlob({ project: PROJECT, sha: entry.id });
    expect(blob).toMatchObject({ sha: entry.id, size: 24, encoding: "base64", text: '{ "cron": "0 2 * * *" }\n' });
    expect(Buffer.from(blob.content, "base64").toString("utf8")).toBe(blob.text);
  });

  it("by path and ref: the file as it is at that ref, in two requests (its directory, then the blob)", async () => {
    let blob: Awaited<ReturnType<typeof getRepositoryBlob>> | undefined;
    const requests = await server.requestsDuring(async () => {
      blob = await getRepositoryBlob({ project: PROJECT, path: "src/lib/util.ts", ref: "v0.9.0" });
    });
    expect(blob).toMatchObject({ path: "src/lib/util.ts", text: "export const limit = 2;\n" });
    expect(requests.map((request) => request.path)).toEqual(["/api/v4/projects/acme%2Fapi/repository/tree", `/api/v4/projects/acme%2Fapi/repository/blobs/${blob!.sha}`]);
    expect((await getRepositoryBlob({ project: PROJECT, path: "src/lib/util.ts", ref: "feature/search" })).text).toBe("export const limit = 1;\n");
  });

  it("a binary file: text null, bytes exact in Base64", async () => {
    const blob = await getRepositoryBlob({ project: PROJECT, path: "assets/logo.png" });
    expect(blob.text).toBeNull();
    expect(Buffer.from(blob.content, "base64").equals(LOGO)).toBe(true);
    expect(blob).toMatchObject({ size: LOGO.length, sha: gitBlobId(LOGO) });
  });

  it("the Output form resolves to the same blob", async () => {
    const text = await new Promise<string | null>((resolve) => getRepositoryBlobOutput({ project: pulumi.output(PROJECT), path: "README.markdown" }).apply((blob) => resolve(blob.text)));
    expect(text).toBe("# API\n");
  });

  it("missing: a SHA, a file, a directory instead of a file; a private project to an outsider", async () => {
    await expect(getRepositoryBlob({ project: PROJECT, sha: "0".repeat(40) })).rejects.toThrow(/getRepositoryBlob: could not read blob 0{40} of the repository of project acme\/api: .*404/);
    await expect(getRepositoryBlob({ project: PROJECT, path: "src/nope.ts" })).rejects.toThrow(/getRepositoryBlob: could not read file src\/nope.ts of the repository of project acme\/api: it does not exist: its directory holds no such entry/);
    await expect(getRepositoryBlob({ project: PROJECT, path: "src/lib" })).rejects.toThrow(/could not read file src\/lib .*: it is a directory, not a file/);
    await expect(getRepositoryBlob({ project: PROJECT, path: "nowhere/file.txt" })).rejects.toThrow(/could not read file nowhere\/file.txt of the repository of project acme\/api: .*404 Tree Not Found\): the tree does not exist/);
    await asOutsider(async () => {
      await expect(getRepositoryBlob({ project: PROJECT, path: "README.markdown" })).rejects.toThrow(/does not exist, or the token's user cannot see it \(private groups and projects are hidden from non-members\)/);
    });
    await server.actingAs("guest", async () => {
      await expect(getRepositoryBlob({ project: PROJECT, sha: "abcdef" })).rejects.toThrow(/could not read blob abcdef .*403.*Reporter role/);
    });
  });

  it("exactly one of sha and path; ref only with path; a SHA is hexadecimal; nothing sent", async () => {
    await noRequestFor(() => getRepositoryBlob({ project: PROJECT }), /sha: set exactly one of sha and path/);
    await noRequestFor(() => getRepositoryBlob({ project: PROJECT, sha: "abcd", path: "README.md" }), /sha: set exactly one of sha and path/);
    await noRequestFor(() => getRepositoryBlob({ project: PROJECT, sha: "abcd", ref: "develop" }), /ref: only with path/);
    await noRequestFor(() => getRepositoryBlob({ project: PROJECT, sha: "not-a-sha" }), /sha: must be a blob SHA/);
    await noRequestFor(() => getRepositoryBlob({ project: PROJECT, pth: "README.md" } as never), /pth.*did you mean path\?/);
  });
});

/** The files of a tar.gz archive, by path below its top directory. */
async function unpackTarGz(file: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const unpack = extract();
  unpack.on("entry", (header, stream, next) => {
    const parts: Buffer[] = [];
    stream.on("data", (chunk: unknown) => {
      parts.push(chunk as Buffer);
    });
    stream.on("end", () => {
      if (header.type === "file") files.set(header.name.split("/").slice(1).join("/"), Buffer.concat(parts));
      next();
    });
  });
  await pipeline(createReadStream(file), createGunzip(), unpack);
  return files;
}

const sha256Of = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("getRepositoryArchive", () => {
  it("a tar.gz on disk: its bytes hash to the returned SHA-256 and unpack to the repository's files", async () => {
    const destination = join(scratch, "nested", "api.tar.gz");
    const archive = await getRepositoryArchive({ project: PROJECT, destination });
    expect(archive).toEqual({ path: destination, size: readFileSync(destination).length, sha256: sha256Of(destination), format: "tar.gz" });
    const files = await unpackTarGz(destination);
    const blobs = (await getRepositoryTree({ project: PROJECT, recursive: true })).filter((entry) => entry.type === "blob");
    expect([...files.keys()].sort()).toEqual(blobs.map((entry) => entry.path).sort());
    for (const entry of blobs) expect(gitBlobId(files.get(entry.path)!), entry.path).toBe(entry.id);
    expect(files.get("assets/logo.png")!.equals(LOGO)).toBe(true);
    // Only the finished file is left: no partial download beside it.
    expect(readdirSync(join(scratch, "nested"))).toEqual(["api.tar.gz"]);
  });

  it("a ref, a subdirectory and excluded paths; the format asked for", async () => {
    const atTag = await unpackTarGz((await getRepositoryArchive({ project: PROJECT, sha: "v0.9.0", path: "src", destination: join(scratch, "src.tar.gz") })).path);
    expect([...atTag.keys()].sort()).toEqual(["src/lib/util.ts", "src/login.ts"]);
    const without = await unpackTarGz((await getRepositoryArchive({ project: PROJECT, excludePaths: ["many", "assets"], destination: join(scratch, "lean.tar.gz") })).path);
    expect([...without.keys()].some((path) => path.startsWith("many/") || path.startsWith("assets/"))).toBe(false);
    expect(without.has("README.markdown")).toBe(true);
    const zip = await getRepositoryArchive({ project: PROJECT, format: "zip", destination: join(scratch, "api.zip") });
    expect(readFileSync(zip.path).subarray(0, 4).toString("latin1")).toBe("PK\x03\x04");
    expect(zip).toMatchObject({ format: "zip", sha256: sha256Of(zip.path) });
  });

  // The hosted offering allows 5 archive downloads a minute per project and user: alice has used 4 above, so these are root's.
  it("without a destination: a name derived from the arguments, the same each time; the Output form gives it too", async () => {
    await server.actingAs("root", async () => {
      const first = await getRepositoryArchive({ project: PROJECT, sha: "v0.9.0" });
      expect(first.path).toBe(join(tmpdir(), "pulumi-platform", "archives", "acme-api-v0.9.0.tar.gz"));
      const again = await new Promise<{ path: string; sha256: string }>((resolve) => getRepositoryArchiveOutput({ project: PROJECT, sha: "v0.9.0" }).apply(resolve));
      expect(again).toMatchObject({ path: first.path, sha256: first.sha256 });
      rmSync(first.path, { force: true });
    });
  });

  it("a missing project or ref, or an outsider, leaves no file behind", async () => {
    const destination = join(scratch, "missing.tar.gz");
    await expect(getRepositoryArchive({ project: "acme/nope", destination })).rejects.toThrow(/getRepositoryArchive: could not read the tar.gz archive of the repository of project acme\/nope/);
    await expect(getRepositoryArchive({ project: PROJECT, sha: "no-such-ref", destination })).rejects.toThrow(/at no-such-ref: .*404/);
    await asOutsider(async () => {
      await expect(getRepositoryArchive({ project: PROJECT, destination })).rejects.toThrow(/does not exist, or the token's user cannot see it \(private groups and projects are hidden from non-members\)/);
    });
    await server.actingAs("guest", async () => {
      await expect(getRepositoryArchive({ project: PROJECT, destination })).rejects.toThrow(/could not read the tar.gz archive .*403.*needs at least the Reporter role/);
    });
    expect(existsSync(destination)).toBe(false);
  });

  it("past the hosted offering's 5 downloads a minute, the server's refusal is explained and no file is left", async () => {
    // One window for all six requests and the retries: a minute boundary between them would reset the count.
    heldAt = Date.now();
    onTestFinished(() => {
      heldAt = undefined;
    });
    await server.actingAs("maintainer", async () => {
      for (let i = 0; i < 5; i++) await getRepositoryArchive({ project: PROJECT, format: "tar", destination: join(scratch, `limit-${i}.tar`) });
      const destination = join(scratch, "limit-6.tar");
      // The 429 carries no wait hint, so the client backs off within platform:retryTimeout (120 s by default,
      // enough to wait out the minute): a short one makes it give up and explain here.
      await server.configureProviders("maintainer", { "platform:retryTimeout": "3" });
      await expect(getRepositoryArchive({ project: PROJECT, format: "tar", destination })).rejects.toThrow(/could not read the tar archive .*429: This archive has been requested too many times/);
      expect(existsSync(destination)).toBe(false);
    });
  });

  it("bad arguments: nothing sent", async () => {
    await noRequestFor(() => getRepositoryArchive({ project: PROJECT, format: "rar" as never }), /format/);
    await noRequestFor(() => getRepositoryArchive({ project: PROJECT, excludePaths: [] }), /excludePaths/);
    await noRequestFor(() => getRepositoryArchive({ project: PROJECT, destinaton: "x" } as never), /did you mean destination\?/);
  });
});

describe("getRepositoryCompare", () => {
  it("from a tag to a branch: commits and diffs with new, renamed and deleted files", async () => {
    const comparison = await getRepositoryCompare({ project: PROJECT, from: "v0.9.0", to: "develop" });
    expect(comparison.commits.map((commit) => commit.title)).toEqual(expect.arrayContaining(["Add search", "Remove the legacy config, rename the readme"]));
    expect(comparison.commits.map((commit) => commit.title)).not.toContain("Fix crash on empty input");
    expect(comparison.commit).toMatchObject({ title: "Remove the legacy config, rename the readme", authorName: carol.name });
    const byPath = Object.fromEntries(comparison.diffs.map((diff) => [diff.newPath, diff]));
    expect(byPath["src/search.ts"]).toMatchObject({ newFile: true, renamedFile: false, deletedFile: false, oldPath: "src/search.ts" });
    expect(byPath["config/legacy.yml"]).toMatchObject({ deletedFile: true });
    expect(byPath["README.markdown"]).toMatchObject({ renamedFile: true, oldPath: "README.md" });
    expect(byPath["src/search.ts"]!.diff).toContain("+export const search = 1;");
    expect(comparison.compareSameRef).toBe(false);
  });

  it("straight compares the two directly; otherwise from their merge base", async () => {
    const viaBase = await getRepositoryCompare({ project: PROJECT, from: "feature/search", to: "v0.9.0" });
    expect(viaBase.diffs.map((diff) => diff.newPath)).toEqual(["src/lib/util.ts"]);
    const straight = await getRepositoryCompare({ project: PROJECT, from: "feature/search", to: "v0.9.0", straight: true });
    expect(straight.diffs.find((diff) => diff.newPath === "src/search.ts")).toMatchObject({ deletedFile: true });
  });

  it("the same ref twice says so; a missing ref or project is not found; bad arguments send nothing", async () => {
    expect(await getRepositoryCompare({ project: PROJECT, from: "develop", to: "develop" })).toMatchObject({ compareSameRef: true, commits: [], diffs: [] });
    await expect(getRepositoryCompare({ project: "acme/nope", from: "a", to: "b" })).rejects.toThrow(/could not read the comparison a...b of the repository of project acme\/nope/);
    await asOutsider(async () => {
      await expect(getRepositoryCompare({ project: PROJECT, from: "v0.9.0", to: "develop" })).rejects.toThrow(/does not exist, or the token's user cannot see it \(private groups and projects are hidden from non-members\)/);
    });
    await server.actingAs("guest", async () => {
      await expect(getRepositoryCompare({ project: PROJECT, from: "v0.9.0", to: "develop" })).rejects.toThrow(/could not read the comparison .*403.*Reporter role/);
    });
    await noRequestFor(() => getRepositoryCompare({ project: PROJECT, from: "v0.9.0" } as never), /to:/);
    await noRequestFor(() => getRepositoryCompare({ project: PROJECT, from: "a", to: "b", straigt: true } as never), /did you mean straight\?/);
  });
});

describe("getRepositoryContributors", () => {
  it("authors with their counts, merge commits left out, ordered as asked", async () => {
    const contributors = await getRepositoryContributors({ project: PROJECT, orderBy: "commits", sort: "desc" });
    expect(contributors.map((contributor) => contributor.email)).not.toContain(bob.email);
    // Alice and Carol have two commits each (Carol's merge-free ones), the seed's first commit one: Bob's merge counts for nothing.
    expect(contributors.slice(0, 2).map((contributor) => contributor.email).sort()).toEqual([alice.email, carol.email]);
    expect(contributors.map((contributor) => contributor.commits)).toEqual([2, 2, 1]);
    expect(contributors.find((contributor) => contributor.email === carol.email)).toMatchObject({ name: carol.name, additions: expect.any(Number), deletions: expect.any(Number) });
    const byName = await getRepositoryContributors({ project: PROJECT, orderBy: "name" });
    expect(byName.map((contributor) => contributor.name)).toEqual([...byName.map((contributor) => contributor.name)].sort());
    const atTag = await getRepositoryContributors({ project: PROJECT, ref: "v0.9.0" });
    expect(atTag.map((contributor) => contributor.email)).not.toContain(carol.email);
  });

  it("every page: 121 contributors in two requests of 100", async () => {
    let contributors: Awaited<ReturnType<typeof getRepositoryContributors>> = [];
    const requests = await server.requestsDuring(async () => {
      contributors = await getRepositoryContributors({ project: CROWDED, orderBy: "name" });
    });
    expect(requests).toHaveLength(2);
    // The seed's first commit is the Administrator's.
    expect(contributors).toHaveLength(CROWD + 1);
    expect(new Set(contributors.map((contributor) => contributor.email)).size).toBe(CROWD + 1);
  });

  it("limit, a private project's outsider, bad arguments", async () => {
    expect(await getRepositoryContributors({ project: PROJECT, limit: 1 })).toHaveLength(1);
    await asOutsider(async () => {
      await expect(getRepositoryContributors({ project: PROJECT })).rejects.toThrow(/could not read the contributors of the repository of project acme\/api/);
    });
    await server.actingAs("guest", async () => {
      await expect(getRepositoryContributors({ project: PROJECT })).rejects.toThrow(/could not read the contributors .*403.*Reporter role/);
    });
    await noRequestFor(() => getRepositoryContributors({ project: PROJECT, orderBy: "date" as never }), /orderBy/);
  });
});

describe("getRepositoryMergeBase", () => {
  it("the common ancestor of two refs, as a commit with its trailers as written", async () => {
    const base = await getRepositoryMergeBase({ project: PROJECT, refs: ["feature/search", "v0.9.0"] });
    expect(base).toMatchObject({ title: "Add login", authorName: alice.name, authorEmail: alice.email, parentIds: [expect.stringMatching(/^[0-9a-f]{40}$/)] });
    expect(base.trailers).toEqual({ Changelog: "added" });
    expect(base.shortId).toBe(base.id.slice(0, base.shortId.length));
  });

  it("fewer than two refs are refused before any request; a missing ref or an outsider is not found", async () => {
    await noRequestFor(() => getRepositoryMergeBase({ project: PROJECT, refs: ["develop"] }), /refs: needs two or more refs/);
    await expect(getRepositoryMergeBase({ project: PROJECT, refs: ["develop", "no-such-branch"] })).rejects.toThrow(/getRepositoryMergeBase: could not read the merge base of develop, no-such-branch in the repository of project acme\/api\. .*400: Could not find ref: no-such-branch/);
    await asOutsider(async () => {
      await expect(getRepositoryMergeBase({ project: PROJECT, refs: ["develop", "v0.9.0"] })).rejects.toThrow(/does not exist, or the token's user cannot see it \(private groups and projects are hidden from non-members\)/);
    });
    await server.actingAs("guest", async () => {
      await expect(getRepositoryMergeBase({ project: PROJECT, refs: ["develop", "v0.9.0"] })).rejects.toThrow(/could not read the merge base .*403.*Reporter role/);
    });
  });
});

describe("getRepositoryChangelog", () => {
  it("the notes of the commits after a tag, grouped by trailer, at the date given; nothing committed", async () => {
    const before = (await getRepositoryTree({ project: PROJECT })).map((entry) => entry.id);
    const { notes } = await getRepositoryChangelog({ project: PROJECT, version: "1.0.0", from: "v0.9.0", to: "develop", date: "2026-12-01T00:00:00Z" });
    expect(notes).toMatch(/^## 1\.0\.0 \(2026-12-01\)/);
    expect(notes).toContain("Add search");
    expect(notes).not.toContain("Fix crash on empty input");
    expect(notes).not.toContain("Remove the legacy config");
    expect((await getRepositoryTree({ project: PROJECT })).map((entry) => entry.id)).toEqual(before);
  });

  it("another trailer finds no commits; a missing project or an outsider is not found; bad arguments send nothing", async () => {
    const { notes } = await getRepositoryChangelog({ project: PROJECT, version: "1.0.0", from: "v0.9.0", trailer: "Type", date: "2026-12-01T00:00:00Z" });
    expect(notes).not.toContain("Add search");
    await asOutsider(async () => {
      await expect(getRepositoryChangelog({ project: PROJECT, version: "1.0.0" })).rejects.toThrow(/could not read the changelog of version 1.0.0 of the repository of project acme\/api/);
    });
    await server.actingAs("guest", async () => {
      await expect(getRepositoryChangelog({ project: PROJECT, version: "1.0.0" })).rejects.toThrow(/could not read the changelog .*403.*Reporter role/);
    });
    await noRequestFor(() => getRepositoryChangelog({ project: PROJECT, version: "next" }), /version: must be a semantic version/);
    await noRequestFor(() => getRepositoryChangelog({ project: PROJECT, version: "1.0.0", date: "yesterday" }), /date: must be an ISO 8601 date and time/);
    await noRequestFor(() => getRepositoryChangelog({ project: PROJECT, versoin: "1.0.0" } as never), /did you mean version\?/);
  });
});
