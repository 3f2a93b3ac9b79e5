/**
 * A state of the GitLab Terraform provider (`terraform.tfstate`, format
 * version 4, provider 16 or later) as the objects it manages: each resource
 * instance's `id` attribute, in the form the provider's own import takes
 * (`{group_id}:{badge_id}`), as each kind declares for its types
 * (`terraform` on its declaration, ../engine/estate.ts). platform-import then
 * reads each object from the server, as it reads what it finds itself, so
 * the program is the same.
 */
import type { AnyResourceDefinition } from "../engine/definition";
import type { TerraformTarget } from "../engine/estate";
import { definitions } from "../resources";
import type { Skipped } from "./values";

/** An object of the server a state names: its kind, its owner and its key in the owner (../engine/estate.ts). */
export interface Target extends TerraformTarget {
  kind: string;
}

/** Every Terraform type a registered kind declares, with its kind. */
const TYPES = Object.entries(definitions as Record<string, AnyResourceDefinition>).flatMap(([kind, definition]) => (definition.terraform ?? []).map((type) => ({ kind, ...type })));

/** The largest state read: a state of that size holds tens of thousands of objects. */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;

interface StateResource {
  mode?: unknown;
  type?: unknown;
  name?: unknown;
  instances?: { attributes?: Record<string, unknown> }[];
}

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
      else if (target === undefined) skip(resource, "its id is not of the form the provider's import takes");
      else if ("skipped" in target) skip(resource, target.skipped);
      else targets.push(target);
    }
  }
  return { targets, skipped };
}

function targetOf(type: string, id: string, attributes: Record<string, unknown>): Target | { skipped: string } | "unmanaged" | undefined {
  // A type named exactly is its kind's, whatever pattern another kind declares.
  const declared = TYPES.find((entry) => entry.type === type) ?? TYPES.find((entry) => typeof entry.type !== "string" && entry.type.test(type));
  if (!declared) return "unmanaged";
  const target = declared.target(id, attributes, type);
  return target === undefined || "skipped" in target ? target : { kind: declared.kind, ...target };
}
