/**
 * The `epics` seed section, keyed by group full path:
 * `{ "acme": [{ "iid": 1, "title": "Roadmap", "parent": "acme&1" | 1, ... }] }`.
 * Ids and iids are given in seed order when absent; siblings keep their order.
 */
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
import { AccessLevel, type EmulatorState, type Group, type User } from "../../state";
import { EPIC_SEQUENCE, MAX_HIERARCHY_DEPTH, POSITION_GAP, ancestorsOf, epicStore, iidSequence, spreadOut, type EpicRecord } from "./model";

const positive = z.number({ error: "must be a positive integer" }).int("must be a positive integer").positive("must be a positive integer");
const date = z.string({ error: "must be a date (YYYY-MM-DD)" }).regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date (YYYY-MM-DD)");
const parentRule = 'must be an iid of the same group or "<group full path>&<iid>"';

const seedEpic = z.looseObject(
  {
    id: positive.optional(),
    iid: positive.optional(),
    title: z.string({ error: "must be a non-empty string" }).min(1, "must be a non-empty string"),
    description: z.string().optional(),
    /** The parent: its iid in the same group, or `"<group full path>&<iid>"`. */
    parent: z.union([z.number().int(), z.string().regex(/^.+&\d+$/, parentRule)], { error: parentRule }).optional(),
    /** Username of the author; default the group's first Owner, else the first user. */
    author: z.string().optional(),
    labels: z.array(z.string(), { error: "must be an array of strings" }).default([]),
    confidential: z.boolean({ error: "must be a boolean" }).default(false),
    startDate: date.optional(),
    dueDate: date.optional(),
    createdAt: z.string().optional(),
  },
  { error: "must be an object" },
);

export const epicsSeedSchema = keyedSection("group full path", z.array(seedEpic, { error: "must be an array of epics" }));

function seedAuthor(state: EmulatorState, group: Group, username: string | undefined, where: string): User {
  if (username !== undefined) {
    const user = state.userByUsername(username);
    if (!user) throw new SeedError(`${where}.author: unknown user ${username}`);
    return user;
  }
  const owner = state.selfAndAncestors(group).flatMap((g) => Object.entries(g.members).filter(([, level]) => level === AccessLevel.Owner).map(([id]) => Number(id)))[0];
  const user = (owner !== undefined ? state.userById(owner) : undefined) ?? state.users[0];
  if (!user) throw new SeedError(`${where}: the seed has no user to be the author`);
  return user;
}

function resolveSeedParents(state: EmulatorState, pending: { record: EpicRecord; parent: number | string; where: string }[]): void {
  const { epics } = epicStore.of(state);
  for (const { record, parent, where } of pending) {
    let target: EpicRecord | undefined;
    if (typeof parent === "number") {
      target = epics.find((e) => e.groupId === record.groupId && e.iid === parent);
    } else {
      const [path, iid] = [parent.slice(0, parent.lastIndexOf("&")), Number(parent.slice(parent.lastIndexOf("&") + 1))];
      const group = state.groupByFullPath(path);
      target = group ? epics.find((e) => e.groupId === group.id && e.iid === iid) : undefined;
    }
    if (!target) throw new SeedError(`${where}.parent: no epic ${String(parent)}`);
    record.parentId = target.id;
    const problem = ancestorsOf(state, target).some((e) => e.id === record.id) || target.id === record.id;
    if (problem) throw new SeedError(`${where}.parent: makes a cycle`);
    if (ancestorsOf(state, record).length >= MAX_HIERARCHY_DEPTH) throw new SeedError(`${where}: deeper than ${MAX_HIERARCHY_DEPTH} levels`);
    if (!record.confidential && target.confidential) throw new SeedError(`${where}: a non-confidential epic cannot have a confidential parent`);
  }
  // Siblings keep their seed order.
  const byParent = new Map<number, EpicRecord[]>();
  for (const { record } of pending) byParent.set(record.parentId!, [...(byParent.get(record.parentId!) ?? []), record]);
  for (const siblings of byParent.values()) spreadOut(siblings);
}

export function applyEpicsSeed(state: EmulatorState, section: z.infer<typeof epicsSeedSchema> | undefined): void {
  if (section === undefined) return;
  const { epics } = epicStore.of(state);
  const pending: { record: EpicRecord; parent: number | string; where: string }[] = [];
  for (const [fullPath, list] of Object.entries(section)) {
    const group = state.groupByFullPath(fullPath);
    if (!group) throw new SeedError(`epics["${fullPath}"]: unknown group ${fullPath}`);
    list.forEach((seed, index) => {
      const where = `epics["${fullPath}"][${index}]`;
      const id = seed.id ?? state.nextId(EPIC_SEQUENCE);
      state.reserveId(EPIC_SEQUENCE, id);
      const iid = seed.iid ?? state.nextId(iidSequence(group));
      state.reserveId(iidSequence(group), iid);
      if (epics.some((e) => e.id === id || (e.groupId === group.id && e.iid === iid))) throw new SeedError(`${where}: repeats the id or iid of another epic`);
      // Seeded state is the same on every start: no wall-clock time in it.
      const createdAt = seed.createdAt ?? group.createdAt;
      const record: EpicRecord = {
        id,
        iid,
        groupId: group.id,
        parentId: null,
        title: seed.title,
        description: seed.description ?? null,
        authorId: seedAuthor(state, group, seed.author, where).id,
        labels: seed.labels,
        confidential: seed.confidential,
        startDate: seed.startDate ?? null,
        dueDate: seed.dueDate ?? null,
        createdAt,
        updatedAt: createdAt,
        relativePosition: (index + 1) * POSITION_GAP,
      };
      epics.push(record);
      if (seed.parent !== undefined) pending.push({ record, parent: seed.parent, where });
    });
  }
  resolveSeedParents(state, pending);
}
