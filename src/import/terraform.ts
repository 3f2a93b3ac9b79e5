/**
 * A state of the GitLab Terraform provider (`terraform.tfstate`, format
 * version 4, provider 16 or later) as the objects it manages: each resource
 * instance's `id` attribute, in the form the provider's own import takes
 * (`{group_id}:{badge_id}`, `{project_id}:{pipeline_schedule_id}`,
 * `group_id:saml_group_name`, the group id for a group integration and for
 * `gitlab_group`). platform-import then reads each object from the server,
 * as it reads what it finds itself, so the program is the same.
 */
import type { Skipped } from "./values";

/** An object of the server a state names, by the parts of its id. */
export type Target =
  | { kind: "group-badge"; group: string; badge: number }
  | { kind: "project-badge"; project: string; badge: number }
  | { kind: "schedule"; project: string; schedule: number }
  | { kind: "saml-link"; group: string; name: string }
  | { kind: "integration"; group: string; slug: string }
  | { kind: "group-settings"; group: string }
  | { kind: "instance" };

/** The largest state read: a state of that size holds tens of thousands of objects. */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;

interface StateResource {
  mode?: unknown;
  type?: unknown;
  name?: unknown;
  instances?: { attributes?: Record<string, unknown> }[];
}

/** Splits `a:b` at the first colon; the second part may hold colons (a SAML group name). */
function pair(id: string): [string, string] | undefined {
  const at = id.indexOf(":");
  return at <= 0 || at === id.length - 1 ? undefined : [id.slice(0, at), id.slice(at + 1)];
}

const wholeNumber = (text: string | undefined): number | undefined => (text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined);

/** The objects a state names, and what it holds that the package does not manage (each said). */
export function targetsOfState(text: string): { targets: Target[]; skipped: Skipped[] } {
  if (text.length > MAX_STATE_BYTES) throw new Error(`the state is larger than ${MAX_STATE_BYTES / 1024 / 1024} MiB`);
  let state: { version?: unknown; resources?: unknown };
  try {
    state = JSON.parse(text) as typeof state;
  } catch {
    throw new Error("the state is not JSON (a terraform.tfstate file, format version 4)");
  }
  if (state.version !== 4 || !Array.isArray(state.resources)) throw new Error("the state is not of Terraform's format version 4 (terraform.tfstate of Terraform 0.12 or later)");
  const targets: Target[] = [];
  const skipped: Skipped[] = [];
  const skip = (resource: StateResource, why: string) => skipped.push({ where: "the Terraform state", what: `${String(resource.type)}.${String(resource.name)}`, why });
  for (const resource of state.resources as StateResource[]) {
    if (resource.mode !== "managed" || typeof resource.type !== "string" || !resource.type.startsWith("gitlab_")) continue;
    for (const instance of resource.instances ?? []) {
      const attributes = instance.attributes ?? {};
      const id = typeof attributes.id === "string" ? attributes.id : undefined;
      const target = id === undefined ? undefined : targetOf(resource.type, id, attributes);
      if (target === "unmanaged") skip(resource, "the package does not manage this kind");
      else if (target === "variable") skip(resource, "schedule variables are left unmanaged by platform-import (their values may be secrets); the schedule is imported when the state has it");
      else if (target === "project-integration") skip(resource, "a project's integration: the package manages groups' integrations only");
      else if (target === undefined) skip(resource, "its id is not of the form the provider's import takes");
      else targets.push(target);
    }
  }
  return { targets, skipped };
}

function targetOf(type: string, id: string, attributes: Record<string, unknown>): Target | "unmanaged" | "variable" | "project-integration" | undefined {
  const parts = pair(id);
  switch (type) {
    case "gitlab_group_badge": {
      const badge = wholeNumber(parts?.[1]);
      return parts && badge !== undefined ? { kind: "group-badge", group: parts[0], badge } : undefined;
    }
    case "gitlab_project_badge": {
      const badge = wholeNumber(parts?.[1]);
      return parts && badge !== undefined ? { kind: "project-badge", project: parts[0], badge } : undefined;
    }
    case "gitlab_pipeline_schedule": {
      const schedule = wholeNumber(parts?.[1]);
      return parts && schedule !== undefined ? { kind: "schedule", project: parts[0], schedule } : undefined;
    }
    case "gitlab_pipeline_schedule_variable":
      return "variable";
    case "gitlab_group_saml_link":
      return parts ? { kind: "saml-link", group: parts[0], name: parts[1] } : undefined;
    case "gitlab_application_settings":
      return { kind: "instance" };
    case "gitlab_group":
      return { kind: "group-settings", group: id };
  }
  const groupIntegration = /^gitlab_group_integration_([a-z_]+)$/.exec(type);
  if (groupIntegration) {
    const group = typeof attributes.group === "string" && attributes.group !== "" ? attributes.group : id;
    return { kind: "integration", group, slug: groupIntegration[1]!.replace(/_/g, "-") };
  }
  if (/^gitlab_(project_)?integration_/.test(type) || /^gitlab_service_/.test(type)) return "project-integration";
  return "unmanaged";
}
