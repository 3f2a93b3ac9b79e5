/**
 * Project stars: who starred which project and when, and which users keep
 * their profile private (their stars are shown only to themselves and to
 * administrators).
 */
import { defineStore, type EmulatorState, type Project, type User } from "../../state";

export interface StarRecord {
  userId: number;
  projectId: number;
  /** ISO 8601, the server's clock when the star was made. */
  starredAt: string;
}

export const starringStore = defineStore("starring", (): { stars: StarRecord[]; privateProfiles: number[] } => ({ stars: [], privateProfiles: [] }));

/** The number of stars of a project (`star_count`, wherever a project is shown). */
export const starCountOf = (state: EmulatorState, project: Project): number => starringStore.of(state).stars.filter((star) => star.projectId === project.id).length;

/** The user's star on the project, if any. */
export const starOf = (state: EmulatorState, user: User, project: Project): StarRecord | undefined =>
  starringStore.of(state).stars.find((star) => star.userId === user.id && star.projectId === project.id);

/** Whether `viewer` may see the stars of user `ownerId`: a public profile, the user themselves, or an administrator. */
export function showsStarsOf(state: EmulatorState, viewer: User | null, ownerId: number): boolean {
  if (!starringStore.of(state).privateProfiles.includes(ownerId)) return true;
  return viewer !== null && (viewer.id === ownerId || viewer.isAdmin);
}

/** Stars the project; false when the user had already starred it. */
export function addStar(state: EmulatorState, user: User, project: Project): boolean {
  if (starOf(state, user, project)) return false;
  starringStore.of(state).stars.push({ userId: user.id, projectId: project.id, starredAt: state.now() });
  return true;
}

/** Unstars the project; false when the user had not starred it. */
export function removeStar(state: EmulatorState, user: User, project: Project): boolean {
  const { stars } = starringStore.of(state);
  const index = stars.findIndex((star) => star.userId === user.id && star.projectId === project.id);
  if (index < 0) return false;
  stars.splice(index, 1);
  return true;
}
