/**
 * Repository content driven by a real client: @gitbeaker/rest's
 * `Repositories.allRepositoryTrees` (offset and keyset pagination followed to
 * the end by the client), `showBlob`, `showBlobRaw` and `showArchive`.
 * (`RepositoryFiles` calls `/repository/files/...`, not these endpoints.)
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Gitlab } from "@gitbeaker/rest";
import { afterAll, describe, expect, it } from "vitest";
import { selfManagedSeed } from "../../src/emulator";
import { useEmulator } from "./helpers";

const server = useEmulator({ seed: selfManagedSeed });
const api = () => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens["alice"]! });
const scratch = mkdtempSync(join(tmpdir(), "repository-content-gitbeaker-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("@gitbeaker/rest Repositories", () => {
  it("allRepositoryTrees: one page, every page with offset pagination, and with keyset pagination", async () => {
    const root = await api().Repositories.allRepositoryTrees("acme/web", { ref: "v1.3.0", path: "src" });
    expect(root.map((entry) => [entry.type, entry.path])).toEqual([
      ["tree", "src/views"],
      ["blob", "src/app.js"],
      ["blob", "src/auth.js"],
      ["blob", "src/home.js"],
    ]);
    const offset = await api().Repositories.allRepositoryTrees("acme/web", { recursive: true, perPage: 4 });
    const keyset = await api().Repositories.allRepositoryTrees("acme/web", { recursive: true, perPage: 4, pagination: "keyset" });
    expect(offset.length).toBeGreaterThan(12);
    expect(keyset).toEqual(offset);
    expect(offset.map((entry) => entry.path)).toContain("src/views/comment.js");
  });

  it("allRepositoryTrees on a missing path: the client gets the 404", async () => {
    await expect(api().Repositories.allRepositoryTrees("acme/web", { path: "nowhere" })).rejects.toMatchObject({
      cause: { response: { status: 404 }, description: "404 Tree Not Found" },
    });
  });

  it("showBlob and showBlobRaw", async () => {
    const tree = await api().Repositories.allRepositoryTrees("acme/web", { path: "config" });
    const deploy = tree.find((entry) => entry.name === "deploy.json")!;
    const blob = await api().Repositories.showBlob("acme/web", deploy.id);
    expect(blob).toMatchObject({ sha: deploy.id, encoding: "base64" });
    const text = Buffer.from(blob.content, "base64").toString("utf8");
    expect(JSON.parse(text)).toEqual({ environment: "production", region: "eu-west-1", replicas: 3 });
    // Sent as text/plain, so the client hands back the text itself (its types say Blob).
    const raw: unknown = await api().Repositories.showBlobRaw("acme/web", deploy.id);
    expect(raw).toBe(text);
  });

  it("showArchive: a zip and a tar.gz the system tools unpack", async () => {
    const head = server.emulator.state.projectByFullPath("acme/web")!.lastCommitSha!;
    for (const fileType of ["zip", "tar.gz"] as const) {
      const archive = await api().Repositories.showArchive("acme/web", { fileType, sha: "main", path: "config" });
      const file = join(scratch, `archive.${fileType}`);
      writeFileSync(file, Buffer.from(await archive.arrayBuffer()));
      const dir = mkdtempSync(join(scratch, "unpacked-"));
      if (fileType === "zip") execFileSync("unzip", ["-q", file, "-d", dir]);
      else execFileSync("tar", ["-xzf", file, "-C", dir]);
      const prefix = `web-main-${head}-config`;
      expect(readdirSync(dir)).toEqual([prefix]);
      expect(readFileSync(join(dir, prefix, "config", "legacy.yml"), "utf8")).toBe("legacy: true\nmode: old\n");
    }
  });
});
