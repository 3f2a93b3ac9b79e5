/**
 * Project issues (`/projects/:id/issues`): what the drift check keeps, one
 * issue per stack, found again by the marker in its description.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { requestsOf } from "./core";

export const issue = z.looseObject({
  id: z.number(),
  iid: z.number(),
  project_id: z.number().optional(),
  title: z.string(),
  /** Null on a real server for an issue created without one. */
  description: z.string().nullable(),
  /** `opened` or `closed`. */
  state: z.string(),
  author: z.looseObject({ id: z.number(), username: z.string() }),
  web_url: z.string().optional(),
});

export type Issue = z.output<typeof issue>;
export const issueRequests = requestsOf(issue);

/** The longest description a server keeps (`Issue` validates `description` at 1,048,576 characters). */
export const ISSUE_DESCRIPTION_LIMIT = 1_048_576;

/** `/projects/acme%2Fweb/issues`. */
export const issuesPath = (project: string | number): string => apiPath`/projects/${project}/issues`;
/** `/projects/acme%2Fweb/issues/3`. */
export const issuePath = (project: string | number, iid: number): string => `${issuesPath(project)}/${iid}`;
