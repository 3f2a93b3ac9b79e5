/**
 * The owner of most objects: a project or a group, named by its numeric id or
 * its full path, and the API path that id stands for.
 */
import { z } from "zod";
import { apiPath } from "../client";
import { notDotSegments } from "../validation";

const OWNER_FORM = "a numeric id or a full path such as acme/web";
const OWNER_RULE = `must be ${OWNER_FORM}`;
const MAX_PATH_PARTS = 22;

/** A group or project: its numeric id or its full path (`acme/platform`). */
export const ownerReference = z.union(
  [
    z.number().int({ message: OWNER_RULE }).positive({ message: OWNER_RULE }),
    z
      .string()
      .regex(/^[A-Za-z0-9_.][A-Za-z0-9_.-]*(\/[A-Za-z0-9_.][A-Za-z0-9_.-]*)*$/, { message: OWNER_RULE })
      // The server's paths: at most 255 characters a part, a top-level group and at most 20 levels of subgroups, then a project.
      .refine((path) => path.split("/").length <= MAX_PATH_PARTS && path.split("/").every((part) => part.length <= 255), {
        message: `must be a full path of at most ${MAX_PATH_PARTS} parts of at most 255 characters each`,
      }),
  ],
  // Without this, a missing owner or one of another type reads only "Invalid input".
  { error: (issue) => (issue.input === undefined ? `is required: ${OWNER_FORM}` : OWNER_RULE) },
).refine(...notDotSegments);

export type OwnerKind = "project" | "group";

export interface Owner {
  kind: OwnerKind;
  reference: string | number;
  /** `/projects/acme%2Fweb` or `/groups/12`. */
  path: string;
}

/** The owner named with exactly one of `project` and `group`. */
export function ownerOf(args: { project?: string | number; group?: string | number }): Owner {
  if (args.project !== undefined) return { kind: "project", reference: args.project, path: apiPath`/projects/${args.project}` };
  if (args.group !== undefined) return { kind: "group", reference: args.group, path: apiPath`/groups/${args.group}` };
  throw new Error("either project or group must be set");
}

/** The check rule for what a project or a group owns. */
export function exactlyOneOwner(args: { project?: unknown; group?: unknown }): { property: string; reason: string }[] {
  if ((args.project === undefined) === (args.group === undefined)) {
    const property = args.project === undefined ? "project" : "group";
    return [{ property, reason: "set exactly one of project and group (a numeric id or a full path)" }];
  }
  return [];
}

/** How a project or group is named in messages: `project acme/web`, `group 12`. */
export const ownerName = (args: { project?: string | number; group?: string | number }): string =>
  args.project !== undefined ? `project ${args.project}` : `group ${args.group}`;

/** A group or project named by an input (`property`), by path or id: the owner an object's needs name (./needs.ts). */
export interface NamedOwner {
  kind: OwnerKind;
  property: string;
  ref: string | number;
}

/** The project named by the `project` input. */
export const onProject = (ref: string | number): NamedOwner => ({ kind: "project", property: "project", ref });
/** The group named by the `group` input. */
export const onGroup = (ref: string | number): NamedOwner => ({ kind: "group", property: "group", ref });

/** The owner of what names exactly one of `project` and `group`, as its needs name it. */
export function ownerNamedBy(args: { project?: string | number; group?: string | number }): NamedOwner {
  return args.project !== undefined ? onProject(args.project) : onGroup(args.group!);
}
