/**
 * A clean preview means a clean apply, as a matrix generated from the
 * declarations (`definitions`, each resource's `needs(args, operation)`) and
 * each kind's inputs (its module in ../kinds):
 * every resource × create, update, delete, replace × the users of the default
 * seed (Guest, Developer, Maintainer and Owner of acme, a non-member, an
 * administrator) and the causes the server refuses for (a role too low, not
 * the object's owner, a tier, a feature flag off, an object gone, an object
 * hidden). Each row runs as the engine does, in process, through the provider
 * objects against the emulator:
 *
 * - the preview: `check` (and `diff` for a step on an existing object) as the
 *   user, verifying at preview;
 * - the apply: the same step as the user with verification off, so the
 *   refusal, if any, is the server's.
 *
 * The rule: preview passes ⇒ the apply succeeds; preview refuses ⇒ the server
 * refuses too. A plain delete is never shown to the provider at preview
 * (docs/resources.md): its rows check what the apply may do instead: succeed
 * (the object is gone from the server) or fail and keep it; never succeed
 * with the object still on the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, providers } from "pulumi-platform";
import { definitions } from "../../src/resources";
import { useEmulator } from "../support";
import { type Args, KIND_TESTS, type MatrixFixture, type Operation, USERS } from "../kinds/index.mts";

const server = useEmulator();

type Name = keyof typeof providers;

/** A row's fixture: its kind's (test/kinds), with the kind. */
interface Fixture extends MatrixFixture {
  resource: Name;
}

let counter = 0;
const flags = () => server.emulator.state.instance.featureFlags!;
let savedFlags: Record<string, boolean | string[]> = {};

const FIXTURES: Fixture[] = [...KIND_TESTS.values()].flatMap((tests) => (typeof tests.matrix === "function" ? tests.matrix(server).map((fixture) => ({ resource: tests.kind as Name, ...fixture })) : []));

// ---------------------------------------------------------------------------
// The engine's calls, as one user

async function as<T>(user: string, verifying: boolean, action: () => Promise<T>): Promise<T> {
  await server.configureProviders(user, { "platform:verifyAtPreview": String(verifying) });
  return action();
}

const reasonsOf = (error: unknown) => [error instanceof Error ? error.message : String(error)];

/** A preview's create: check's failures. */
async function previewCreate(resource: Name, inputs: Args): Promise<string[]> {
  const checked = await providers[resource].check({}, inputs);
  return (checked.failures ?? []).map((failure) => failure.reason);
}

/** A preview's step on an existing object: check with the old inputs, then diff with the state. */
async function previewStep(resource: Name, id: string, olds: Args, state: Args, news: Args): Promise<string[]> {
  const checked = await providers[resource].check(olds, news);
  if (checked.failures?.length) return checked.failures.map((failure) => failure.reason);
  return providers[resource].diff(id, state, checked.inputs).then(() => [], reasonsOf);
}

/** The apply of a create: check (nothing verified) and create. */
async function applyCreate(resource: Name, inputs: Args): Promise<{ id: string; outs: Args }> {
  const checked = await providers[resource].check({}, inputs);
  if (checked.failures?.length) throw new Error(checked.failures.map((failure) => failure.reason).join("; "));
  const created = await providers[resource].create(checked.inputs);
  return { id: created.id, outs: created.outs ?? {} };
}

/** The apply of a step on an existing object: an update, or a replacement in the engine's order (the old object first where the kind's diff says so, else the new one first). */
async function applyStep(resource: Name, id: string, olds: Args, state: Args, news: Args, made: Made[]): Promise<void> {
  const checked = await providers[resource].check(olds, news);
  const diff = await providers[resource].diff(id, state, checked.inputs);
  if (diff.replaces?.length) {
    if (diff.deleteBeforeReplace) await providers[resource].delete(id, state);
    const created = await providers[resource].create(checked.inputs);
    made.push({ id: created.id, outs: created.outs ?? {} });
    if (!diff.deleteBeforeReplace) await providers[resource].delete(id, state);
    return;
  }
  await providers[resource].update(id, state, checked.inputs);
}

interface Made {
  id: string;
  outs: Args;
}

/** What a row made goes, as the administrator: the next rows start from the seed's state. */
async function cleanUp(resource: Name, made: Made[]): Promise<void> {
  await server.configureProviders("root");
  for (const { id, outs } of made) await providers[resource].delete(id, outs).catch(() => undefined);
}

/** Whether the resource's delete removes its object from the server (a settings resource, a set, a trigger leave it). */
const deleteRemoves = (resource: Name, inputs: Args): boolean =>
  definitions[resource].kind === "object" && definitions[resource].needs?.(inputs as never, "delete").noRequest !== true;

/**
 * Whether the server still has the object (read as the administrator), and not only marked for deletion:
 * a kind whose server delays deletion (its `deletion.marked` output set) is deleted as its server deletes it.
 */
async function stillOnServer(resource: Name, id: string, state: Args): Promise<boolean> {
  await server.configureProviders("root");
  const read = await providers[resource].read(id, state).catch(() => ({ id, props: {} as Args }));
  const marked = definitions[resource].deletion?.marked;
  return read.id !== "" && !(marked !== undefined && typeof (read.props as Args | undefined)?.[marked] === "string");
}

/** The inputs a check of an existing object gets: the recorded state's inputs. */
function inputsOf(resource: Name, state: Args): Args {
  const shape = definitions[resource].schema.shape as Record<string, unknown>;
  // Observed properties are read at preview, never declared (a token's plannedExpiresAt).
  const fields = (definitions[resource].fields ?? {}) as Record<string, { observed?: unknown } | undefined>;
  const observed = (name: string) => fields[name]?.observed !== undefined;
  return Object.fromEntries(Object.entries(state).filter(([name]) => name in shape && name !== "unexpected" && !observed(name)));
}

// ---------------------------------------------------------------------------

beforeAll(() => {
  savedFlags = { ...(server.emulator.state.instance.featureFlags ?? {}) };
});
afterAll(() => server.configureProviders());

describe("the matrix covers every resource", () => {
  it("each resource has rows here, or a reason why not (test/kinds)", () => {
    const covered = new Set(FIXTURES.map((fixture) => fixture.resource as string));
    const missing = Object.keys(definitions).filter((name) => !covered.has(name) && typeof KIND_TESTS.get(name)?.matrix !== "object");
    expect(missing).toEqual([]);
  });
});

/** Each row's verdict, in words, for the failure message. */
interface Verdict {
  preview: string[];
  applied: true | string[];
}

const rows: { name: string; fixture: Fixture; operation: Operation; user: string }[] = [];
for (const fixture of FIXTURES) {
  for (const operation of ["create", "update", "delete", "replace"] as const) {
    if (fixture.without?.[operation]) continue;
    if (operation === "update" && !fixture.update) continue;
    if (operation === "replace" && !fixture.replace) continue;
    if (operation === "delete" && !deleteRemoves(fixture.resource, fixture.create(0, { scheduleId: 0 }))) continue;
    for (const user of USERS) rows.push({ name: `${fixture.resource} ${JSON.stringify(fixture.create(0, { scheduleId: 0 })).slice(0, 40)}… ${operation} as ${user}`, fixture, operation, user });
  }
}

describe("preview passes ⇒ the apply succeeds; preview refuses ⇒ the server refuses", () => {
  it.each(rows.map((row) => [row.name, row] as const))("%s", async (_name, { fixture, operation, user }) => {
    const n = ++counter;
    const setup = fixture.setup ? await fixture.setup(n) : {};
    const inputs = fixture.create(n, setup);
    const made: Made[] = [];
    fixture.around?.set();
    try {
      if (operation === "create") {
        const preview = await as(user, true, () => previewCreate(fixture.resource, inputs));
        const applied = await as(user, false, () => applyCreate(fixture.resource, inputs)).then((created) => {
          made.push(created);
          return true as const;
        }, reasonsOf);
        const unknown = fixture.unknownTo?.includes(user) === true;
        expect({ preview, applied } satisfies Verdict, `preview ${preview.join(" ")}`).toSatisfy(({ preview, applied }: Verdict) =>
          unknown ? preview.length === 0 || applied !== true : (preview.length === 0) === (applied === true),
        );
        return;
      }
      // An existing object, made by its maker with verification off.
      const existing = await as(fixture.maker ?? "alice", false, () => applyCreate(fixture.resource, inputs));
      made.push(existing);
      const olds = inputsOf(fixture.resource, existing.outs);
      if (operation === "delete") {
        const applied = await as(user, false, () => providers[fixture.resource].delete(existing.id, existing.outs)).then(() => true as const, reasonsOf);
        const kept = await stillOnServer(fixture.resource, existing.id, existing.outs);
        // Never "deleted" while the server still has it.
        expect(applied === true && kept, `delete as ${user}: ${applied === true ? "succeeded" : applied.join(" ")}`).toBe(false);
        return;
      }
      const news = { ...olds, ...(operation === "update" ? fixture.update : fixture.replace) };
      const preview = await as(user, true, () => previewStep(fixture.resource, existing.id, olds, existing.outs, news));
      const applied = await as(user, false, () => applyStep(fixture.resource, existing.id, olds, existing.outs, news, made)).then(() => true as const, reasonsOf);
      expect({ preview, applied } satisfies Verdict, `preview: ${preview.join(" ") || "passes"}; apply: ${applied === true ? "succeeds" : applied.join(" ")}`).toSatisfy(
        ({ preview, applied }: Verdict) => (preview.length === 0) === (applied === true),
      );
    } finally {
      fixture.around?.reset();
      await cleanUp(fixture.resource, made);
      await fixture.teardown?.(setup);
    }
  });
});

describe("the causes, each a row of the matrix with its words", () => {
  it("not the owner: maintainer's token on alice's schedule, without takeOwnership, refused at preview and by the server", async () => {
    const made = await as("alice", false, () => applyCreate("PipelineSchedule", { project: "acme/web", description: "owned", ref: "main", cron: "0 2 * * *" }));
    const olds = inputsOf("PipelineSchedule", made.outs);
    const news = { ...olds, cron: "0 4 * * *" };
    const preview = await as("maintainer", true, () => previewStep("PipelineSchedule", made.id, olds, made.outs, news));
    expect(preview.join("\n")).toContain("the schedule is not the token's user's (maintainer): it belongs to alice");
    const applied = await as("maintainer", false, () => applyStep("PipelineSchedule", made.id, olds, made.outs, news, [])).then(() => true as const, reasonsOf);
    expect(applied === true ? "succeeded" : applied.join("\n")).toMatch(/failed with 403/);
  });

  it("object hidden: a Guest's delete of alice's schedule fails and keeps it; object gone: the Owner's delete of a deleted one succeeds", async () => {
    const made = await as("alice", false, () => applyCreate("PipelineSchedule", { project: "acme/web", description: "hidden", ref: "main", cron: "0 2 * * *" }));
    await expect(as("guest", false, () => providers.PipelineSchedule.delete(made.id, made.outs))).rejects.toThrow(/may not see .*nothing was removed from the stack/);
    expect(await stillOnServer("PipelineSchedule", made.id, made.outs)).toBe(true);
    await server.as().delete(`/${made.id}`);
    await expect(as("alice", false, () => providers.PipelineSchedule.delete(made.id, made.outs))).resolves.toBeUndefined();
  });

  it("object gone: a run of a deleted schedule is refused at preview, naming it", async () => {
    const alice = server.as("alice");
    const { id } = await alice.post<{ id: number }>(apiPath`/projects/${"acme/web"}/pipeline_schedules`, { description: "gone", ref: "main", cron: "0 2 * * *" });
    await alice.delete(apiPath`/projects/${"acme/web"}/pipeline_schedules/${id}`);
    expect(await as("maintainer", true, () => previewCreate("PipelineScheduleRun", { project: "acme/web", scheduleId: id }))).toEqual([
      `scheduleId: pipeline schedule ${id} of project acme/web does not exist, or the token's user (maintainer) cannot see it (private groups and projects are hidden from non-members)`,
    ]);
  });

  it("tier and flag: refused at preview by those who may read them, and by the server", async () => {
    expect(await as("alice", true, () => previewCreate("SamlGroupLink", { group: "beta", samlGroupName: "tiered", accessLevel: "developer" }))).toEqual([
      "group: group beta needs the Premium or Ultimate tier for SamlGroupLink, and it is on Free",
    ]);
    flags().container_virtual_registries = false;
    try {
      expect((await as("root", true, () => previewCreate("VirtualRegistry", { group: "acme", name: "flag-row" }))).join("\n")).toContain("feature flag container_virtual_registries is off");
    } finally {
      flags().container_virtual_registries = savedFlags.container_virtual_registries!;
    }
  });
});
