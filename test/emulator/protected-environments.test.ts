/**
 * Protected environments (`/projects/:id/protected_environments`,
 * `/groups/:id/protected_environments`): the answers, the role and tier
 * each route needs, and the rules of a write (entries the server drops,
 * the model's validations, an update in place). Real HTTP against the emulator.
 */
import { describe, expect, it } from "vitest";
import { defaultSeed, type Emulator } from "../../src/emulator";
import { call, useEmulator } from "./helpers";

const WEB = "/projects/acme%2Fweb/protected_environments";
const ACME = "/groups/acme/protected_environments";
const server = useEmulator({ seed: defaultSeed, backgroundWork: "manual" });

const send = (emulator: Emulator, method: string, path: string, body: object, as = "maintainer") => call(emulator, path, { as, method, body });
const idOf = async (emulator: Emulator, path: string) => (await call(emulator, path)).body.id as number;

describe("a project's protected environments", () => {
  it("protects an environment: the entries with their ids, an approval rule's required approvals, the deprecated count 0", async () => {
    const { emulator } = server;
    const dev = await idOf(emulator, "/users/4");
    const made = await send(emulator, "POST", WEB, { name: "production", deploy_access_levels: [{ access_level: 40 }, { user_id: dev }], approval_rules: [{ access_level: 30, required_approvals: 2 }] });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      name: "production",
      deploy_access_levels: [
        { id: expect.any(Number), access_level: 40, access_level_description: "Maintainers", user_id: null, group_id: null, group_inheritance_type: 0 },
        { id: expect.any(Number), access_level: null, access_level_description: "Dev Developer", user_id: dev, group_id: null, group_inheritance_type: 0 },
      ],
      required_approval_count: 0,
      approval_rules: [{ id: expect.any(Number), user_id: null, group_id: null, access_level: 30, access_level_description: "Developers + Maintainers", required_approvals: 2, group_inheritance_type: 0 }],
    });
    expect((await call(emulator, `${WEB}/production`, { as: "maintainer" })).body).toEqual(made.body);
    expect((await call(emulator, WEB, { as: "maintainer" })).body).toEqual([made.body]);
    expect(await send(emulator, "POST", WEB, { name: "production", deploy_access_levels: [{ access_level: 40 }] })).toMatchObject({ status: 409, body: { message: "Environment 'production' is already protected" } });
  });

  it("a PUT changes entries in place by id, destroys those marked, and drops an entry that names no role, user or group", async () => {
    const { emulator } = server;
    const made = (await send(emulator, "POST", WEB, { name: "review", deploy_access_levels: [{ access_level: 40 }, { access_level: 30 }], approval_rules: [{ access_level: 40 }] })).body;
    const [maintainers, developers] = made.deploy_access_levels;
    // `{id, _destroy}` alone names no one: the server drops it, as BaseService#sanitized_params does.
    const unnamed = await send(emulator, "PUT", `${WEB}/review`, { deploy_access_levels: [{ id: developers.id, _destroy: true }] });
    expect(unnamed.body.deploy_access_levels).toHaveLength(2);
    const changed = await send(emulator, "PUT", `${WEB}/review`, {
      deploy_access_levels: [{ id: developers.id, access_level: 30, _destroy: true }],
      approval_rules: [{ id: made.approval_rules[0].id, access_level: 40, required_approvals: 3 }],
    });
    expect(changed.status).toBe(200);
    expect(changed.body.deploy_access_levels).toEqual([maintainers]);
    expect(changed.body.approval_rules).toEqual([{ ...made.approval_rules[0], required_approvals: 3 }]);
    expect((await send(emulator, "PUT", `${WEB}/review`, { deploy_access_levels: [{ id: 999_999, access_level: 40, _destroy: true }] })).status).toBe(404);
    expect(await send(emulator, "PUT", `${WEB}/review`, { deploy_access_levels: [{ id: maintainers.id, access_level: 40, _destroy: true }] })).toMatchObject({
      status: 422,
      body: { message: ["Deploy access levels is too short (minimum is 1 character)"] },
    });
    expect((await send(emulator, "DELETE", `${WEB}/review`, {})).status).toBe(204);
    expect((await call(emulator, `${WEB}/review`, { as: "maintainer" })).status).toBe(404);
  });

  it("users below Developer and groups the project is not shared with are dropped; with none left, 422", async () => {
    const { emulator } = server;
    const guest = await idOf(emulator, "/users/5");
    const platform = await idOf(emulator, "/groups/acme%2Fplatform");
    const dropped = await send(emulator, "POST", WEB, { name: "dropped", deploy_access_levels: [{ access_level: 40 }, { user_id: guest }, { group_id: platform }] });
    expect(dropped.body.deploy_access_levels).toEqual([expect.objectContaining({ access_level: 40 })]);
    expect(await send(emulator, "POST", WEB, { name: "nobody", deploy_access_levels: [{ user_id: guest }] })).toMatchObject({ status: 422, body: { message: ["Deploy access levels is too short (minimum is 1 character)"] } });
  });

  it("refuses what Grape and the model refuse: a level, an approval rule naming no one, six approvals, the deprecated count", async () => {
    const { emulator } = server;
    expect(await send(emulator, "POST", WEB, { name: "x", deploy_access_levels: [{ access_level: 10 }] })).toMatchObject({ status: 400, body: { error: "deploy_access_levels[access_level] does not have a valid value" } });
    expect(await send(emulator, "POST", WEB, { name: "x" })).toMatchObject({ status: 400, body: { error: "deploy_access_levels is missing" } });
    expect((await send(emulator, "POST", WEB, { name: "x", deploy_access_levels: [{ access_level: 40 }], approval_rules: [{ required_approvals: 2 }] })).status).toBe(400);
    expect(await send(emulator, "POST", WEB, { name: "x", deploy_access_levels: [{ access_level: 40 }], approval_rules: [{ access_level: 40, required_approvals: 6 }] })).toMatchObject({
      status: 422,
      body: { message: ["Approval rules required approvals must be less than or equal to 5"] },
    });
    expect(await send(emulator, "POST", WEB, { name: "x", deploy_access_levels: [{ access_level: 40 }], required_approval_count: 2 })).toMatchObject({ status: 422, body: { message: expect.stringMatching(/required_approval_count' is deprecated/) } });
  });

  it("needs Maintainer (a Developer 403, an outsider 404) and the Premium tier (a Free project 403)", async () => {
    const { emulator } = server;
    expect((await call(emulator, WEB, { as: "dev" })).status).toBe(403);
    expect((await call(emulator, WEB, { as: "outsider" })).status).toBe(404);
    expect((await call(emulator, "/projects/beta%2Fsite/protected_environments", { as: "alice" })).status).toBe(403);
  });
});

describe("a group's protected environments", () => {
  it("are named by a deployment tier and need the Owner role", async () => {
    const { emulator } = server;
    expect((await send(emulator, "POST", ACME, { name: "production", deploy_access_levels: [{ access_level: 40 }] }, "maintainer")).status).toBe(403);
    expect(await send(emulator, "POST", ACME, { name: "prod", deploy_access_levels: [{ access_level: 40 }] }, "alice")).toMatchObject({
      status: 422,
      body: { message: ["Name must be one of environment tiers: production, staging, testing, development, other."] },
    });
    const maintainer = await idOf(emulator, "/users/3");
    const platform = await idOf(emulator, "/groups/acme%2Fplatform");
    const made = await send(emulator, "POST", ACME, { name: "production", deploy_access_levels: [{ user_id: maintainer }, { group_id: platform, group_inheritance_type: 1 }, { user_id: await idOf(emulator, "/users/4") }] }, "alice");
    // A Developer of the group is not a user its rules may name (Maintainers and Owners only).
    expect(made.body.deploy_access_levels).toMatchObject([{ user_id: maintainer }, { group_id: platform, group_inheritance_type: 1 }]);
    expect(await send(emulator, "POST", ACME, { name: "production", deploy_access_levels: [{ access_level: 40 }] }, "alice")).toMatchObject({ status: 409, body: { message: "Protected environment 'production' already exists" } });
    expect((await call(emulator, "/groups/beta/protected_environments", { as: "alice" })).status).toBe(403);
  });
});
