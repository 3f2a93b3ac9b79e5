/**
 * The starring area's model: who starred
 * which project and when, and which users keep their profile private. Kept
 * apart from the routes (routes.ts) because the project presenter
 * (../projects) reads the star count of every project it shows.
 *
 * As on real servers: a user stars a
 * project at most once, `starred_since` is the star's creation time, and
 * `star_count` counts the stars of active users (every emulated user is active).
 */
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

