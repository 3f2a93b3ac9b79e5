/**
 * Seed section `stars`, keyed by username; each value is a list of project
 * full paths (or `{ "project", "starredAt" }`), or an object with that list in
 * `projects` and `privateProfile: true` for a user whose profile is private:
 *
 *     "stars": {
 *       "alice": ["acme/web", { "project": "beta/site", "starredAt": "2024-05-01T10:00:00Z" }],
 *       "guest": { "privateProfile": true, "projects": ["beta/site"] }
 *     }
 *
 * A star without a time is dated from 2024-04-01T00:00:00Z, one hour apart
 * in seed order, so every start of a seed has the same state.
 */
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
import { type EmulatorState } from "../../state";
import { addStar, starOf, starringStore } from "./model";

const SEED_STARS_EPOCH = Date.parse("2024-04-01T00:00:00.000Z");
const HOUR = 3_600_000;

const isoTime = z
  .string({ error: "must be an ISO 8601 time" })
  .refine((text) => !Number.isNaN(Date.parse(text)), "must be an ISO 8601 time")
  .transform((text) => new Date(text).toISOString());

/** A star: a project full path, or `{ "project", "starredAt" }`. */
const seedStar = z.preprocess(
  (value) => (typeof value === "string" ? { project: value } : value),
  z.object(
    { project: z.string({ error: "must be a project full path" }), starredAt: isoTime.optional() },
    { error: 'must be a project full path or { "project": "<full path>", "starredAt": "<ISO 8601>" }' },
  ),
);

/** One user's stars: a list, or `{ "projects": [...], "privateProfile": true }`. */
const seedUserStars = z
  .union(
    [
      z.array(seedStar),
      z.strictObject({ projects: z.array(seedStar).default([]), privateProfile: z.boolean().default(false) }),
    ],
    { error: 'must be a list of project full paths, or { "projects": [...], "privateProfile": true }' },
  )
  .transform((value) => (Array.isArray(value) ? { projects: value, privateProfile: false } : value));

export const starsSeedSchema = keyedSection("username", seedUserStars);

export function applyStarsSeed(state: EmulatorState, section: z.infer<typeof starsSeedSchema> | undefined): void {
  if (section === undefined) return;
  const store = starringStore.of(state);
  let order = 0;
  for (const [username, { projects, privateProfile }] of Object.entries(section)) {
    const where = `stars["${username}"]`;
    const user = state.userByUsername(username);
    if (!user) throw new SeedError(`${where}: unknown user ${username}`);
    if (privateProfile) store.privateProfiles.push(user.id);
    projects.forEach((entry, index) => {
      const project = state.projectByFullPath(entry.project);
      if (!project) throw new SeedError(`${where}[${index}]: unknown project ${entry.project}`);
      if (starOf(state, user, project)) throw new SeedError(`${where}[${index}]: ${username} stars ${state.projectFullPath(project)} twice`);
      addStar(state, user, project, entry.starredAt ?? new Date(SEED_STARS_EPOCH + order * HOUR).toISOString());
      order++;
    });
  }
}
