/**
 * What the preview reads to judge whether the server would refuse something
 * (../engine/verify.ts): a member's effective role on a group or project, a
 * top-level namespace's plan, the instance's licence, and the feature flags
 * with their definitions (the last three for administrators only).
 */
import { z } from "zod";
import { apiPath, ApiError } from "../client";
import { requestsOf } from "./core";

/** A member as `members/all/:user_id` shows it: the effective role, inherited and shared included. */
export const member = z.looseObject({ access_level: z.number() });
export const memberRequests = requestsOf(member);
/** `/groups/12/members/all/7`: `ownerPath` is the owner's API path. */
export const effectiveMemberPath = (ownerPath: string, userId: number): string => `${ownerPath}/members/all/${userId}`;

/**
 * The server's answer for a user the group or project has no membership for
 * (`/members/:user_id`, `/members/all/:user_id`): a 404 that names nothing
 * (`find_by!`, rescued as `404 Not found`). A 404 naming the group or project
 * is about the owner, not the membership.
 */
export const isNoMembership = (error: unknown): boolean => error instanceof ApiError && error.status === 404 && error.notFoundSubject === "";

/** A namespace (`/namespaces/:id`): its plan, shown to its Owners and administrators. */
export const namespace = z.looseObject({ id: z.number(), plan: z.string().nullish() });
export const namespaceRequests = requestsOf(namespace);
export const namespacePath = (namespace: string | number): string => apiPath`/namespaces/${namespace}`;

/** The instance's licence (`/license`), `null` when it has none. */
export const license = z.looseObject({ plan: z.string().nullish() }).nullable();
export const licenseRequests = requestsOf(license);
export const LICENSE_PATH = "/license";

/** A feature flag as `/features` lists it: its state, and the gates of a conditional one. */
export const featureFlag = z.looseObject({
  name: z.string(),
  state: z.string(),
  gates: z.array(z.looseObject({ key: z.string(), value: z.unknown() })).optional(),
});
export type FeatureFlag = z.output<typeof featureFlag>;
export const featureFlagRequests = requestsOf(featureFlag);
export const FEATURES_PATH = "/features";

/** A flag's definition (`/features/definitions`): the value a flag never set runs on. */
export const featureDefinition = z.looseObject({ name: z.string(), default_enabled: z.boolean().optional() });
export type FeatureDefinition = z.output<typeof featureDefinition>;
export const featureDefinitionRequests = requestsOf(featureDefinition);
export const FEATURE_DEFINITIONS_PATH = "/features/definitions";
