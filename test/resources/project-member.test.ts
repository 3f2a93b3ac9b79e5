import { beforeAll, describe, expect, it } from "vitest";
import { providers } from "pulumi-platform";
import { useEmulator } from "../support";
import { addUser, checkAndCreate, previewFailures as previewOf, previewStepFailures } from "./membership-support";

const server = useEmulator();
const member = providers.ProjectMember;

let serial = 0;
/** A user of its own for each test, so no membership collides. */
const newUser = (options: { blocked?: boolean } = {}): string => addUser(server, `pm-${++serial}`, options).username;
const idOf = (username: string) => server.emulator.state.userByUsername(username)!.id;
const roleOn = (project: string, username: string) => server.emulator.state.projectByFullPath(project)!.members[String(idOf(username))];
const create = (inputs: Record<string, unknown>) => checkAndCreate(member, inputs);
const previewFailures = (user: string, olds: Record<string, unknown>, news: Record<string, unknown>) => previewOf(server, member, user, olds, news);

beforeAll(async () => {
  await server.configureProviders();
});

describe("lifecycle", () => {
  it("create resolves the username once and posts the membership; the user gains the role", async () => {
    const user = newUser();
    let made: Awaited<ReturnType<typeof create>> | undefined;
    const requests = await server.requestsDuring(async () => {
      made = await create({ project: "acme/web", user, accessLevel: "developer", expiresAt: "2027-03-31" });
    });
    expect(requests).toEqual([
      { method: "GET", path: "/api/v4/users", status: 200 },
      { method: "POST", path: "/api/v4/projects/acme%2Fweb/members", status: 201 },
    ]);
    expect(made!.id).toBe(`projects/acme%2Fweb/members/${idOf(user)}`);
    expect(made!.outs).toMatchObject({ userId: idOf(user), username: user, userState: "active", membershipState: "active", createdBy: "root", expiresAt: "2027-03-31" });
    expect(roleOn("acme/web", user)).toBe(30);
  });

  it("a second preview after the create is clean, and a refresh reads one request", async () => {
    const user = newUser();
    const { id, inputs, outs } = await create({ project: "acme/web", user, accessLevel: 40 });
    expect(await member.diff(id, outs, inputs)).toMatchObject({ changes: false });
    const requests = await server.requestsDuring(async () => {
      const read = await member.read(id, outs);
      expect(read.props).toMatchObject({ accessLevel: 40, username: user });
    });
    expect(requests).toEqual([{ method: "GET", path: `/api/v4/projects/acme%2Fweb/members/${idOf(user)}`, status: 200 }]);
  });

  it("a role change is an update in place (one PUT); another user or project replaces", async () => {
    const user = newUser();
    const { id, inputs, outs } = await create({ project: "acme/web", user, accessLevel: "developer" });
    const changed = { ...inputs, accessLevel: "maintainer" };
    expect(await member.diff(id, outs, changed)).toMatchObject({ changes: true, replaces: [] });
    const requests = await server.requestsDuring(() => member.update(id, outs, changed));
    expect(requests).toEqual([{ method: "PUT", path: `/api/v4/${id}`, status: 200 }]);
    expect(roleOn("acme/web", user)).toBe(40);
    expect(await member.diff(id, outs, { ...inputs, project: "acme/api" })).toMatchObject({ replaces: ["project"] });
    expect(await member.diff(id, outs, { ...inputs, user: newUser() })).toMatchObject({ replaces: ["user"] });
  });

  it("an expiry removed is cleared on the server", async () => {
    const user = newUser();
    const { id, inputs, outs } = await create({ project: "acme/web", user, accessLevel: "reporter", expiresAt: "2027-01-01" });
    const { expiresAt: _dropped, ...without } = inputs;
    const updated = await member.update(id, outs, without);
    expect(updated.outs?.expiresAt).toBeUndefined();
    expect((await server.as().get<{ expires_at: string | null }>("/" + id)).expires_at).toBeNull();
  });

  it("delete removes the membership, and the role goes with it", async () => {
    const user = newUser();
    const { id, outs } = await create({ project: "acme/web", user, accessLevel: "guest" });
    await member.delete(id, outs);
    expect(roleOn("acme/web", user)).toBeUndefined();
    expect(await member.read(id, outs)).toEqual({ id: "" });
  });

  it("import takes over an existing direct member by its id", async () => {
    const user = newUser();
    await server.as("alice").post("/projects/acme%2Fapi/members", { user_id: idOf(user), access_level: 20 });
    const id = `projects/acme%2Fapi/members/${idOf(user)}`;
    expect(await member.read(id, {})).toMatchObject({ id, props: { userId: idOf(user), username: user, createdBy: "alice" } });
    // Declared as a Developer, the takeover reads the Reporter it is.
    const takeover = await member.read(id, { project: "acme/api", user, accessLevel: "developer" });
    expect(takeover.inputs).toMatchObject({ project: "acme/api", user, accessLevel: 20 });
  });
});

describe("the server's rules, refused at preview", () => {
  it("a role below an inherited one names the inherited role and its group", async () => {
    const failures = await previewFailures("alice", {}, { project: "acme/platform/infra", user: "maintainer", accessLevel: "developer" });
    expect(failures).toEqual([
      "accessLevel: must be at least the inherited Maintainer from group acme (maintainer is Maintainer there); the server refuses a direct role below it",
    ]);
    // The server says the same.
    await expect(create({ project: "acme/platform/infra", user: "maintainer", accessLevel: "developer" })).rejects.toThrow(/inherited membership from group Acme/);
  });

  it("only an Owner gives the Owner role: a Maintainer's preview is refused, naming the role", async () => {
    const user = newUser();
    const failures = await previewFailures("maintainer", {}, { project: "acme/web", user, accessLevel: "owner" });
    expect(failures.join("\n")).toMatch(/^project: .*the Owner role.*project acme\/web/);
    expect(await previewFailures("maintainer", {}, { project: "acme/web", user, accessLevel: "maintainer" })).toEqual([]);
  });

  it("a token's user with no role at all on the owner (the server's 404 names nothing) is refused, naming the role", async () => {
    const failures = await previewFailures("outsider", {}, { project: "beta/site", user: newUser(), accessLevel: "guest" });
    expect(failures.join("\n")).toMatch(/^project: .*Maintainer.*project beta\/site/);
  });

  it("adoptExisting makes the membership where the user has none (the server's 404 for no membership names nothing)", async () => {
    const user = newUser();
    const { outs } = await create({ project: "acme/web", user, accessLevel: "reporter", adoptExisting: true });
    expect(outs).toMatchObject({ username: user, accessLevel: "reporter" });
  });

  it("an expiry in the past is refused, as the server refuses it", async () => {
    expect(await previewFailures("alice", {}, { project: "acme/web", user: newUser(), accessLevel: "guest", expiresAt: "2020-01-01" })).toEqual([
      "expiresAt: 2020-01-01 is in the past: the server refuses a membership that has already ended",
    ]);
  });

  it("an Owner's membership is changed only by an Owner: a Maintainer's update is refused, naming why", async () => {
    const user = newUser();
    const { id, inputs, outs } = await create({ project: "acme/web", user, accessLevel: "owner" });
    const lowered = { ...inputs, accessLevel: "maintainer" };
    const refused = await previewStepFailures(server, member, "maintainer", id, outs, lowered);
    expect(refused.join("\n")).toContain(`accessLevel: ${user} is an Owner of project acme/web, whose membership only an Owner changes or removes, and the token's user (maintainer) is not one`);
    expect(await previewStepFailures(server, member, "alice", id, outs, lowered)).toEqual([]);
  });

  it("an unknown or blocked user is named", async () => {
    expect(await previewFailures("alice", {}, { project: "acme/web", user: "nobody-here", accessLevel: "guest" })).toEqual([
      "user: no user nobody-here exists, or the token's user cannot see it",
    ]);
    const blocked = newUser({ blocked: true });
    expect(await previewFailures("alice", {}, { project: "acme/web", user: blocked, accessLevel: "guest" })).toEqual([
      `user: user ${blocked} is blocked: an administrator must unblock the account before it is given a membership`,
    ]);
  });

  it("an existing membership is named with the import that takes it over", async () => {
    const failures = await previewFailures("alice", {}, { project: "acme/platform/infra", user: "dev", accessLevel: "maintainer" });
    expect(failures).toEqual([
      `a membership of dev already exists in project acme/platform/infra (id projects/acme%2Fplatform%2Finfra/members/${idOf("dev")}): adopt it with the import option (import: "projects/acme%2Fplatform%2Finfra/members/${idOf("dev")}") or remove it`,
    ]);
  });

  it("bad input fails before any request, naming the property and the rule", async () => {
    const requests = await server.requestsDuring(async () => {
      const checked = await member.check({}, { project: "acme/web", user: "a/b", accessLevel: "boss", expiresAt: "next week" });
      expect((checked.failures ?? []).map((failure) => failure.reason)).toEqual([
        "user: must be a user id or a username such as alice",
        "accessLevel: must be a role (guest, planner, reporter, developer, maintainer, owner) or one of the access levels 10, 15, 20, 30, 40, 50",
        "expiresAt: must be a date as YYYY-MM-DD",
      ]);
    });
    expect(requests).toEqual([]);
  });
});
