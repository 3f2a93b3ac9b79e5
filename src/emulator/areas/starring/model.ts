/**
 * The starring area's model: who starred
 * which project and when, and which users keep their profile private. Kept
 * apart from the routes (./starring.ts) because the project presenter
 * (./projects.ts) reads the star count of every project it shows.
 *
 * As on real servers (app/models/users_star_project.rb): a user stars a
 * project at most once, `starred_since` is the star's creation time, and
 * `star_count` counts the stars of active users (every emulated user is active).
 *
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
import { defineStore, type EmulatorState, type Project, type User } from "../../state";

export interface StarRecord {
  /** `users_star_projects.id`: lists without an order of their own are in this order. */
  id: number;
  userId: number;
  projectId: number;
  /** `starred_since`. */
  starredAt: string;
}

export interface StarringStore {
  stars: StarRecord[];
  /** Users whose profile is private (`private_profile`): their stars are hidden from everyone but themselves and administrators. */
  privateProfiles: number[];
}

export const starringStore = defineStore("starring", (): StarringStore => ({ stars: [], privateProfiles: [] }));

export const STAR_SEQUENCE = "users_star_projects";

export const starsOfProject = (state: EmulatorState, project: Project): StarRecord[] =>
  starringStore.of(state).stars.filter((star) => star.projectId === project.id);

export const starsOfUser = (state: EmulatorState, user: User): StarRecord[] =>
  starringStore.of(state).stars.filter((star) => star.userId === user.id);

/** `star_count`, kept true wherever a project is shown. */
export const starCountOf = (state: EmulatorState, project: Project): number => starsOfProject(state, project).length;

export const starOf = (state: EmulatorState, user: User, project: Project): StarRecord | undefined =>
  starringStore.of(state).stars.find((star) => star.userId === user.id && star.projectId === project.id);

export const hasPrivateProfile = (state: EmulatorState, user: User): boolean => starringStore.of(state).privateProfiles.includes(user.id);

/** `can?(viewer, :read_user_profile, user)`: a private profile is seen by its owner and administrators only. */
export const canReadProfile = (state: EmulatorState, viewer: User | null, user: User): boolean =>
  !hasPrivateProfile(state, user) || viewer?.isAdmin === true || viewer?.id === user.id;

export function addStar(state: EmulatorState, user: User, project: Project, starredAt: string): StarRecord {
  const star: StarRecord = { id: state.nextId(STAR_SEQUENCE), userId: user.id, projectId: project.id, starredAt };
  starringStore.of(state).stars.push(star);
  return star;
}

export function removeStar(state: EmulatorState, star: StarRecord): void {
  const { stars } = starringStore.of(state);
  stars.splice(stars.indexOf(star), 1);
}

// ---------------------------------------------------------------------------
// Seed

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
