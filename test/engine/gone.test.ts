/**
 * Gone or hidden (src/engine/gone.ts): a 404 on delete or refresh drops an
 * object from the stack only when the token could have seen it. Through the
 * provider objects Pulumi calls, against the emulator, with users of the
 * default seed: a Guest of acme (who may not see pipeline schedules), a
 * non-member, an Owner, an administrator.
 */
import { afterEach, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { useEmulator } from "../support";

const server = useEmulator();

afterEach(() => {
  server.emulator.setFaultPlan(undefined);
  return server.configureProviders();
});

const SCHEDULE = { description: "Nightly", ref: "main", cron: "0 2 * * *" };

/** A schedule of acme/web owned by alice: its resource id and recorded state. */
async function alicesSchedule(): Promise<{ id: string; props: Record<string, unknown>; path: string }> {
  const created = await server.as("alice").post<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, SCHEDULE);
  const id = `projects/acme%2Fweb/pipeline_schedules/${created.id}`;
  return { id, props: { project: "acme/web", ...SCHEDULE, cronTimezone: "UTC", active: true, scheduleId: created.id }, path: `/${id}` };
}

const stillThere = async (path: string) => (await server.as().get<{ id: number }>(path)).id;

describe("a 404 the token's role explains is not proof of gone", () => {
  it("a Guest deleting alice's schedule: the delete fails, naming the role, and the schedule stays on the server", async () => {
    const { id, props, path } = await alicesSchedule();
    await server.configureProviders("guest");
    const refused = await providers.PipelineSchedule.delete(id, props).then(() => undefined, (error: Error) => error.message);
    expect(refused).toBe(
      `PipelineSchedule: could not delete ${id}: the server answers 404, but the token's user (guest, Guest of project acme/web) may not see PipelineSchedule ${id}, ` +
        "which needs at least the Reporter role; nothing was removed from the stack. If it was deleted, remove this resource from the stack with `pulumi state delete`.",
    );
    expect(await stillThere(path)).toBeGreaterThan(0);
  });

  it("a Guest refreshing it: the refresh fails and keeps it; a Maintainer's refresh of a deleted one drops it", async () => {
    const { id, props, path } = await alicesSchedule();
    await server.configureProviders("guest");
    await expect(providers.PipelineSchedule.read(id, props)).rejects.toThrow(/may not see PipelineSchedule .*which needs at least the Reporter role; nothing was removed from the stack/);
    await server.as().delete(path);
    // Still hidden: the Guest cannot tell a deleted schedule from one it may not see.
    await expect(providers.PipelineSchedule.read(id, props)).rejects.toThrow(/nothing was removed from the stack/);
    await server.configureProviders("maintainer");
    expect(await providers.PipelineSchedule.read(id, props)).toEqual({ id: "" });
    await expect(providers.PipelineSchedule.delete(id, props)).resolves.toBeUndefined();
  });

  it("a non-member: the owner's 404 is no proof either; an administrator's is", async () => {
    const badge = await server.as().post<{ id: number }>(apiPath`/projects/${"acme/web"}/badges`, { link_url: "https://ci.example.test/x", image_url: "https://ci.example.test/x.svg" });
    const id = `projects/acme%2Fweb/badges/${badge.id}`;
    const props = { project: "acme/web", linkUrl: "https://ci.example.test/x", imageUrl: "https://ci.example.test/x.svg" };
    await server.configureProviders("outsider");
    await expect(providers.Badge.delete(id, props)).rejects.toThrow(
      "the server answers 404, but project acme/web does not exist, or the token's user (outsider) cannot see it; nothing was removed from the stack",
    );
    // A refresh never took the owner's 404 for the object's: it fails as before.
    await expect(providers.Badge.read(id, props)).rejects.toThrow(/project acme\/web does not exist, or the token's user cannot see it/);
    expect(await stillThere(`/${id}`)).toBe(badge.id);
    // An administrator sees every project: for it, a badge of a project that is not there is gone.
    await server.configureProviders("root");
    const elsewhere = { project: "acme/nowhere", linkUrl: props.linkUrl, imageUrl: props.imageUrl };
    await expect(providers.Badge.delete("projects/acme%2Fnowhere/badges/1", elsewhere)).resolves.toBeUndefined();
  });

  it("a role the server will not tell (its member read fails): the object stays and the step fails", async () => {
    const { id, props } = await alicesSchedule();
    await server.configureProviders("guest", { "platform:retryTimeout": "1" });
    server.emulator.setFaultPlan({ rules: [{ path: "^/api/v4/projects/\\d+/members/all/", rate: 1, kinds: ["error-500"] }] });
    await expect(providers.PipelineSchedule.delete(id, props)).rejects.toThrow(/whether the token's user may see PipelineSchedule .* could not be read .*nothing was removed from the stack/);
  });

  it("an object the token could see is gone on a 404: an Owner's delete of a deleted schedule succeeds", async () => {
    const { id, props, path } = await alicesSchedule();
    await server.as().delete(path);
    await server.configureProviders("alice");
    await expect(providers.PipelineSchedule.delete(id, props)).resolves.toBeUndefined();
    expect(await providers.PipelineSchedule.read(id, props)).toEqual({ id: "" });
  });

  it("an exclusive set's removal of a schedule hidden from the token fails, and removes nothing", async () => {
    const { path } = await alicesSchedule();
    const scheduleId = Number(path.split("/").pop());
    const unexpected = [{ scheduleId, description: "Nightly", ref: "refs/heads/main", cron: "0 2 * * *" }];
    await server.configureProviders("guest");
    const olds = { project: "acme/web", keep: [], unexpected };
    await expect(providers.ExclusivePipelineSchedules.update("projects/acme%2Fweb/pipeline_schedules", olds, { project: "acme/web", keep: [], unexpected: [] })).rejects.toThrow(
      /could not remove pipeline schedule \d+ `Nightly`: the server answers 404, but the token's user \(guest, Guest of project acme\/web\) may not see pipeline schedule/,
    );
    expect(await stillThere(path)).toBe(scheduleId);
  });
});
