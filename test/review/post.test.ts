/**
 * Posting the report against the emulator's merge request notes: one note per
 * stack, rewritten in place; another user's copy of the marker is left alone,
 * even for a token that could edit it; the CI's variables name the target.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, closeAllPools, PlatformClient } from "../../src";
import { startEmulator, type Emulator } from "../../src/emulator";
import { markerOf } from "../../src/review/markdown";
import { postNote, targetFromEnvironment, type NoteTarget } from "../../src/review/post";

let emulator: Emulator;
let root: PlatformClient;
let iid: number;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  root = new PlatformClient({ url: emulator.url, token: emulator.tokens.root! });
  iid = (await root.post<{ iid: number }>(apiPath`/projects/${"acme/web"}/merge_requests`, { source_branch: "stable", target_branch: "main", title: "review" })).iid;
});
afterAll(async () => {
  await closeAllPools();
  await emulator.stop();
});

const target = (user: string): NoteTarget => ({ url: emulator.url, token: emulator.tokens[user]!, project: "acme/web", mergeRequestIid: iid });
const notes = () => root.list<{ id: number; body: string; author: { username: string } }>(apiPath`/projects/${"acme/web"}/merge_requests/${iid}/notes`, { sort: "asc" });

describe("posting the report", () => {
  it("creates the stack's note, then rewrites it in place; another stack gets its own", async () => {
    const marker = markerOf("prod");
    const first = await postNote(target("maintainer"), marker, `${marker}\nfirst`);
    const second = await postNote(target("maintainer"), marker, `${marker}\nsecond`);
    expect(first.action).toBe("created");
    expect(second).toEqual({ action: "updated", noteId: first.noteId });
    const other = await postNote(target("maintainer"), markerOf("staging"), `${markerOf("staging")}\nother`);
    expect(other.noteId).not.toBe(first.noteId);
    expect((await notes()).filter((note) => note.body.startsWith(marker)).map((note) => note.body)).toEqual([`${marker}\nsecond`]);
  });

  it("leaves another user's copy of the marker alone, though its token could edit it", async () => {
    const marker = markerOf("shared");
    await postNote(target("dev"), marker, `${marker}\nby dev`);
    const mine = await postNote(target("maintainer"), marker, `${marker}\nby maintainer`);
    expect(mine.action).toBe("created");
    const bodies = (await notes()).filter((note) => note.body.startsWith(marker)).map((note) => [note.author.username, note.body]);
    expect(bodies).toEqual([
      ["dev", `${marker}\nby dev`],
      ["maintainer", `${marker}\nby maintainer`],
    ]);
  });

  it("reads the target from the CI's variables, and names what is missing", () => {
    expect(targetFromEnvironment({ CI_API_V4_URL: "https://platform.example.com/api/v4", CI_PROJECT_ID: "7", CI_MERGE_REQUEST_IID: "3", PLATFORM_REVIEW_TOKEN: "t" })).toMatchObject({
      url: "https://platform.example.com",
      project: "7",
      mergeRequestIid: 3,
      token: "t",
    });
    expect(targetFromEnvironment({ CI_PROJECT_ID: "7" })).toBe(
      "platform-review needs the server (CI_API_V4_URL, or PLATFORM_URL, or --url), a token that may comment on the merge request (PLATFORM_REVIEW_TOKEN, or PLATFORM_TOKEN). In a pipeline the CI sets all but the token.",
    );
  });
});
