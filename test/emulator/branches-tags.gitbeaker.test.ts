/**
 * One branch and one tag by name (`GET .../repository/branches/:branch`,
 * `.../tags/:tag_name`), the reads of the preview's check that a ref a
 * resource names exists, driven by @gitbeaker/rest's `Branches.show` and
 * `Tags.show`: the answers decode into its types, and a missing name is 404.
 */
import { Gitlab } from "@gitbeaker/rest";
import { describe, expect, it } from "vitest";
import { useEmulator } from "./helpers";

const server = useEmulator();
const api = () => new Gitlab({ host: server.emulator.url, token: server.emulator.tokens.alice! });
const status = (error: unknown) => (error as { cause?: { response?: { status?: number } } }).cause?.response?.status;

describe("@gitbeaker/rest branches and tags by name", () => {
  it("shows a project's branch with its commit, and 404 for a branch it lacks", async () => {
    const branch = await api().Branches.show("beta/site", "main");
    expect(branch.name).toBe("main");
    expect(branch.default).toBe(true);
    expect(branch.commit.id).toMatch(/^[0-9a-f]{40}$/);
    expect(status(await api().Branches.show("beta/site", "mian").catch((error: unknown) => error))).toBe(404);
  });

  it("shows a project's tag with its commit, and 404 for a tag it lacks", async () => {
    const tag = await api().Tags.show("beta/site", "2024.03");
    expect(tag.name).toBe("2024.03");
    expect(tag.commit.id).toMatch(/^[0-9a-f]{40}$/);
    expect(status(await api().Tags.show("beta/site", "2099.01").catch((error: unknown) => error))).toBe(404);
  });
});
