/** Schema pieces and helpers that several resources share. */
import { z } from "zod";
import { apiPath } from "../client";

/** A group or project: its numeric id or its full path (`acme/platform`). */
export const ownerReference = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^[A-Za-z0-9_.][A-Za-z0-9_.-]*(\/[A-Za-z0-9_.][A-Za-z0-9_.-]*)*$/, {
      message: "must be a numeric id or a full path such as acme/web",
    }),
]);

/** Take over an existing matching object instead of creating a new one (Pulumi cannot import dynamic resources). */
export const adoptExisting = z.boolean().optional();

export type OwnerKind = "project" | "group";

export interface Owner {
  kind: OwnerKind;
  reference: string | number;
  /** `/projects/acme%2Fweb` or `/groups/12`. */
  path: string;
}

/** The owner a resource names with exactly one of `project` and `group`. */
export function ownerOf(args: { project?: string | number; group?: string | number }): Owner {
  if (args.project !== undefined) return { kind: "project", reference: args.project, path: apiPath`/projects/${args.project}` };
  if (args.group !== undefined) return { kind: "group", reference: args.group, path: apiPath`/groups/${args.group}` };
  throw new Error("either project or group must be set");
}

/** The check rule for resources owned by a project or a group. */
export function exactlyOneOwner(args: { project?: unknown; group?: unknown }): { property: string; reason: string }[] {
  if ((args.project === undefined) === (args.group === undefined)) {
    const property = args.project === undefined ? "project" : "group";
    return [{ property, reason: "set exactly one of project and group (a numeric id or a full path)" }];
  }
  return [];
}

/**
 * An http(s) URL that may contain `%{placeholder}`s, which the server fills in
 * when it renders the URL.
 */
export const urlWithPlaceholders = z.string().refine(
  (value) => {
    try {
      const url = new URL(value.replace(/%\{[a-z_]+\}/g, "placeholder"));
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  },
  { message: "must be an http(s) URL (placeholders such as %{project_path} are allowed)" },
);
