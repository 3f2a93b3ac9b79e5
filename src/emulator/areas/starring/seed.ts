/**
 * The `stars` seed section, keyed by username: a list of project full paths
 * or `{ "project", "starredAt" }`, or an object with that list in `projects`
 * and `privateProfile`. A star without a time is dated from
 * 2024-04-01T00:00:00Z, one hour apart in seed order, the same on every start.
 */
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
import type { EmulatorState } from "../../state";
import { starringStore } from "./model";

const isoTime = z.string().refine((text) => !Number.isNaN(Date.parse(text)), "must be an ISO 8601 time");
const seedStar = z.union([z.string(), z.strictObject({ project: z.string(), starredAt: isoTime.optional() })]);
const seedStars = z.array(seedStar);

export const starsSeedSchema = keyedSection("username", z.union([seedStars, z.strictObject({ projects: seedStars, privateProfile: z.boolean().optional() })]));
type StarsSeed = z.output<typeof starsSeedSchema>;

const FIRST_UNTIMED_STAR = Date.parse("2024-04-01T00:00:00.000Z");
const HOUR = 3_600_000;

export function applyStarsSeed(state: EmulatorState, section: StarsSeed | undefined): void {
  const store = starringStore.of(state);
  let untimed = 0;
  for (const [username, entry] of Object.entries(section ?? {})) {
    const user = state.userByUsername(username);
    if (!user) throw new SeedError(`stars["${username}"]: unknown user ${username}`);
    const list = Array.isArray(entry) ? entry : entry.projects;
    if (!Array.isArray(entry) && entry.privateProfile) store.privateProfiles.push(user.id);
    list.forEach((star, index) => {
      const { project: fullPath, starredAt } = typeof star === "string" ? { project: star, starredAt: undefined } : star;
      const where = Array.isArray(entry) ? `stars["${username}"][${index}]` : `stars["${username}"].projects[${index}]`;
      const project = state.projectByFullPath(fullPath);
      if (!project) throw new SeedError(`${where}: unknown project ${fullPath}`);
      if (store.stars.some((known) => known.userId === user.id && known.projectId === project.id)) throw new SeedError(`${where}: ${username} stars ${fullPath} twice`);
      const time = starredAt === undefined ? FIRST_UNTIMED_STAR + HOUR * untimed++ : Date.parse(starredAt);
      store.stars.push({ userId: user.id, projectId: project.id, starredAt: new Date(time).toISOString() });
    });
  }
}
