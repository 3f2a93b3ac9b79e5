/**
 * CI job tokens: the token a running job sends in `JOB-TOKEN` (or as the
 * password of `gitlab-ci-token` to `/jwt/auth`). It acts as the user who ran
 * the pipeline, with that user's role, on one project only: the project whose
 * pipeline made it, and there only on its container registry.
 *
 * - Routes that take a job token say so (`jobTokenAllowed`): the project
 *   container registry routes. Any other route ignores the header, as real
 *   servers do (`route_setting :authentication, job_token_allowed: true`):
 *   the request is anonymous there (a write is 401, a private project 404).
 * - On an allowed route, an unknown token, or one whose job is no longer
 *   running (a job token is valid only while its job runs), is 401; another
 *   project than the token's is `404 Project Not Found` (the job token scope).
 * - The seed section `jobTokens` makes them: `[{ "token": "glcbt-...",
 *   "project": "acme/web", "user": "dev", "status": "running" }]`; `status`
 *   is the job's (default `running`; `success`, `failed` and `canceled` end it).
 */
import { ApiError } from "../../errors";
import type { RequestContext } from "../../router";
import { z } from "zod";
import { areaSeed, type EmulatorArea, type JobTokenGrant } from "../../area";
import { SeedError } from "../../seed-error";
import { defineStore, type EmulatorState, type Project } from "../../state";

const JOB_STATUSES = ["running", "success", "failed", "canceled"] as const;
type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobTokenRecord {
  token: string;
  projectId: number;
  /** The user who ran the pipeline: the job acts as this user. */
  userId: number;
  status: JobStatus;
}

export const jobTokenStore = defineStore("jobTokens", () => ({ tokens: [] as JobTokenRecord[] }));

/** The grant of a job token whose job runs; undefined for an unknown or finished one. */
export function jobTokenGrant(state: EmulatorState, token: string): JobTokenGrant | undefined {
  const record = jobTokenStore.of(state).tokens.find((candidate) => candidate.token === token);
  const user = record?.status === "running" ? state.userById(record.userId) : undefined;
  return record && user ? { user, projectId: record.projectId } : undefined;
}

/** A job token reaches only its own project: any other is hidden from it, as the job token scope hides it. */
export function checkJobTokenProject(ctx: RequestContext<unknown>, project: Project): void {
  if (ctx.jobTokenProjectId !== undefined && ctx.jobTokenProjectId !== project.id) throw new ApiError(404, { message: "404 Project Not Found" });
}

const seedJobToken = z.object(
  {
    token: z.string({ error: "must be the token's text" }).min(1, "must be the token's text"),
    project: z.string({ error: "must be the full path of a seeded project" }),
    user: z.string({ error: "must be a seeded username (the user who ran the pipeline)" }),
    status: z.enum(JOB_STATUSES, { error: `must be one of ${JOB_STATUSES.join(", ")}` }).default("running"),
  },
  { error: "must be { token, project, user, status? }" },
);

export const jobTokensSeedSchema = z.array(seedJobToken, { error: "must be a list of { token, project, user, status? }" });

function applyJobTokensSeed(state: EmulatorState, section: z.infer<typeof jobTokensSeedSchema> | undefined): void {
  if (section === undefined) return;
  const store = jobTokenStore.of(state);
  section.forEach((entry, index) => {
    const where = `jobTokens[${index}]`;
    const project = state.projectByFullPath(entry.project);
    if (!project) throw new SeedError(`${where}.project: must be the full path of a seeded project`);
    const user = state.userByUsername(entry.user);
    if (!user) throw new SeedError(`${where}.user: must be a seeded username (the user who ran the pipeline)`);
    if (store.tokens.some((record) => record.token === entry.token) || state.userByToken(entry.token)) throw new SeedError(`${where}.token: is given twice`);
    store.tokens.push({ token: entry.token, projectId: project.id, userId: user.id, status: entry.status });
  });
}

export const jobTokensArea: EmulatorArea = {
  name: "job-tokens",
  routes: [],
  seed: areaSeed({ key: "jobTokens", schema: jobTokensSeedSchema, apply: applyJobTokensSeed }),
  jobTokenGrant,
};
