/**
 * Project issues: the records, their notes, and who may read and write them
 * (the emulator's README says what this follows): issues of a public or
 * internal project are read by whoever sees the project, of a private one by
 * its members (Guest and above); a confidential issue only by Planners and
 * above, its author and its assignees. Any signed-in user who may read a
 * project's issues may open one; its author, Planners and above may edit it,
 * and only Planners and above set labels, assignees, milestone,
 * confidentiality and the discussion lock. Administrators may do everything.
 * With the project's issues turned off (`issues_enabled: false`) nobody reads
 * or opens any.
 */
import { projectAccessLevel, canReadProject } from "../../access";
import { AccessLevel, defineStore, type EmulatorState, type Project, type User } from "../../state";
import type { NoteFields } from "../merge-requests/model";
import { projectDetails } from "../projects";

export interface IssueRecord {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  state: "opened" | "closed";
  authorId: number;
  assigneeIds: number[];
  labelIds: number[];
  milestoneId: number | null;
  confidential: boolean;
  discussionLocked: boolean | null;
  dueDate: string | null;
  issueType: "issue" | "incident" | "test_case" | "task";
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  closedById: number | null;
  userNotesCount: number;
  upvotes: number;
  downvotes: number;
}

export interface IssueNoteRecord extends NoteFields {
  issueId: number;
}

export const issueStore = defineStore("issues", (): { issues: IssueRecord[]; notes: IssueNoteRecord[] } => ({ issues: [], notes: [] }));

export const ISSUE_SEQUENCE = "issues";

const levelOf = (state: EmulatorState, user: User | null, project: Project): number =>
  user === null ? AccessLevel.NoAccess : user.isAdmin ? AccessLevel.Owner : projectAccessLevel(state, user, project);

/** `read_issue` on the project: its issues feature on, and a reader of a public or internal project or a member of a private one. */
export function canReadIssues(state: EmulatorState, user: User | null, project: Project): boolean {
  if (!projectDetails(state, project).issuesEnabled || !canReadProject(state, user, project)) return false;
  return project.visibility !== "private" || levelOf(state, user, project) >= AccessLevel.Guest;
}

/** `read_issue` on one issue: a confidential one for Planners and above, its author and assignees. */
export function canReadIssue(state: EmulatorState, user: User | null, project: Project, issue: IssueRecord): boolean {
  if (!canReadIssues(state, user, project)) return false;
  if (!issue.confidential) return true;
  return user !== null && (levelOf(state, user, project) >= AccessLevel.Planner || issue.authorId === user.id || issue.assigneeIds.includes(user.id));
}

/** `admin_issue`: labels, assignees, milestone, confidentiality, the discussion lock. */
export const canAdminIssues = (state: EmulatorState, user: User | null, project: Project): boolean => levelOf(state, user, project) >= AccessLevel.Planner;

/** `update_issue`: Planners and above, or the author. */
export const canUpdateIssue = (state: EmulatorState, user: User, project: Project, issue: IssueRecord): boolean =>
  canReadIssue(state, user, project, issue) && (canAdminIssues(state, user, project) || issue.authorId === user.id);
