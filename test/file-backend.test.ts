import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { damagedMetadataFiles, fileBackendDirectory, repairMetadataFiles } from "../src/file-backend";

describe("the file backend's directory, as the CLI resolves its URL", () => {
  it("absolute, home-relative and relative paths; the query dropped; other backends none", () => {
    expect(fileBackendDirectory("file:///srv/state?no_tmp_dir=true")).toBe("/srv/state");
    expect(fileBackendDirectory("file://~")).toBe(homedir());
    expect(fileBackendDirectory("file://~/state")).toBe(path.join(homedir(), "state"));
    expect(fileBackendDirectory("file://state", "/work/program")).toBe("/work/program/state");
    expect(fileBackendDirectory("s3://bucket/state")).toBeUndefined();
    expect(fileBackendDirectory("https://api.pulumi.com")).toBeUndefined();
  });
});

describe("damaged metadata files", () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("an empty or cut metadata file is removed; whole ones, state files and links are left", () => {
    root = mkdtempSync(path.join(tmpdir(), "file-backend-"));
    const stacks = path.join(root, ".pulumi/stacks/web");
    mkdirSync(stacks, { recursive: true });
    const whole = JSON.stringify({ "user.content_type": "application/octet-stream", md5: "AAAA" });
    writeFileSync(path.join(root, ".pulumi/meta.yaml.attrs"), whole);
    writeFileSync(path.join(stacks, "dev.json"), "");
    writeFileSync(path.join(stacks, "dev.json.attrs"), "");
    writeFileSync(path.join(stacks, "dev.json.bak.attrs"), whole.slice(0, 20));
    writeFileSync(path.join(stacks, "prod.json.attrs"), whole);
    writeFileSync(path.join(root, "outside.attrs"), "");
    symlinkSync(path.join(root, "outside.attrs"), path.join(stacks, "link.json.attrs"));

    expect(damagedMetadataFiles(root)).toEqual([path.join(stacks, "dev.json.attrs"), path.join(stacks, "dev.json.bak.attrs")]);
    expect(repairMetadataFiles(root)).toEqual([".pulumi/stacks/web/dev.json.attrs", ".pulumi/stacks/web/dev.json.bak.attrs"]);
    expect(existsSync(path.join(stacks, "dev.json.attrs"))).toBe(false);
    expect(existsSync(path.join(stacks, "dev.json"))).toBe(true);
    expect(readFileSync(path.join(stacks, "prod.json.attrs"), "utf8")).toBe(whole);
    expect(existsSync(path.join(root, "outside.attrs"))).toBe(true);
    expect(repairMetadataFiles(root)).toEqual([]);
  });
});
