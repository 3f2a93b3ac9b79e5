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

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** One user's value: the list of stars and whether the profile is private. */
function readUserEntry(value: unknown, where: string): { entries: unknown[]; privateProfile: boolean } {
  if (Array.isArray(value)) return { entries: value, privateProfile: false };
  if (!isObject(value)) throw new SeedError(`${where} must be a list of project full paths, or { "projects": [...], "privateProfile": true }`);
  const unknownKeys = Object.keys(value).filter((key) => key !== "projects" && key !== "privateProfile");
  if (unknownKeys.length) throw new SeedError(`${where} has unknown keys ${unknownKeys.join(", ")}; the keys are projects and privateProfile`);
  const { projects = [], privateProfile = false } = value;
  if (!Array.isArray(projects)) throw new SeedError(`${where}.projects must be a list of project full paths`);
  if (typeof privateProfile !== "boolean") throw new SeedError(`${where}.privateProfile must be a boolean`);
  return { entries: projects, privateProfile };
}

function readStarEntry(state: EmulatorState, entry: unknown, where: string): { project: Project; starredAt?: string } {
  const fullPath = typeof entry === "string" ? entry : isObject(entry) ? entry["project"] : undefined;
  if (typeof fullPath !== "string") throw new SeedError(`${where} must be a project full path or { "project": "<full path>", "starredAt": "<ISO 8601>" }`);
  const project = state.projectByFullPath(fullPath);
  if (!project) throw new SeedError(`${where}: unknown project ${fullPath}`);
  const starredAt = isObject(entry) ? entry["starredAt"] : undefined;
  if (starredAt !== undefined && (typeof starredAt !== "string" || Number.isNaN(Date.parse(starredAt)))) {
    throw new SeedError(`${where}.starredAt must be an ISO 8601 time`);
  }
  return { project, starredAt: starredAt === undefined ? undefined : new Date(starredAt).toISOString() };
}

export function applyStarsSeed(state: EmulatorState, section: unknown): void {
  if (section === undefined) return;
  if (!isObject(section)) throw new SeedError("stars must be an object keyed by username");
  const store = starringStore.of(state);
  let order = 0;
  for (const [username, value] of Object.entries(section)) {
    const where = `stars["${username}"]`;
    const user = state.userByUsername(username);
    if (!user) throw new SeedError(`${where}: unknown user ${username}`);
    const { entries, privateProfile } = readUserEntry(value, where);
    if (privateProfile) store.privateProfiles.push(user.id);
    entries.forEach((entry, index) => {
      const { project, starredAt } = readStarEntry(state, entry, `${where}[${index}]`);
      if (starOf(state, user, project)) throw new SeedError(`${where}[${index}]: ${username} stars ${state.projectFullPath(project)} twice`);
      addStar(state, user, project, starredAt ?? new Date(SEED_STARS_EPOCH + order * HOUR).toISOString());
      order++;
    });
  }
}
