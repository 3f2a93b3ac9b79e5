/**
 * A project's protected branches and tags: the rules (names or wildcards)
 * and who each lets push, merge, unprotect or create tags. Reading the
 * branches' rules needs to read the project's code (the Reporter role on a
 * private project); the tags', the Maintainer role, as managing them does.
 */
import { z } from "zod";
import { ownerReference } from "../api/owner";
import { protectedBranch, protectedBranchPath, protectedBranchReadNeeds, protectedBranchesOf, protectedRefNeeds, protectedTag, protectedTagPath, protectedTagsOf, ruleName } from "../api/protected-refs";
import { defineListFunction, defineObjectFunction, type Camelized } from "./core";

export type ProtectedBranchInfo = Camelized<z.output<typeof protectedBranch>>;
export type ProtectedTagInfo = Camelized<z.output<typeof protectedTag>>;

const onProject = {
  /** The project (id or full path). */
  project: ownerReference,
};

const branches = defineListFunction({
  name: "getProtectedBranches",
  args: z.object({
    ...onProject,
    /** Only rules whose name contains this text (any case). */
    search: z.string().min(1).optional(),
  }),
  path: (args) => protectedBranchesOf(args.project),
  query: (args) => ({ search: args.search }),
  subject: (args) => `the protected branches of project ${args.project}`,
  needs: protectedBranchReadNeeds,
  item: protectedBranch,
});

/**
 * A project's protected branch rules, each with its push, merge and unprotect levels.
 *
 * ```ts
 * const rules = await getProtectedBranches({ project: "acme/web" });
 * ```
 */
export const getProtectedBranches = branches;
/** `getProtectedBranches` as an Output. */
export const getProtectedBranchesOutput = branches.output;

const branch = defineObjectFunction({
  name: "getProtectedBranch",
  args: z.object({
    ...onProject,
    /** The rule's name: a branch, or a wildcard as the rule is written (`release/*`), not a branch it matches. */
    name: ruleName,
  }),
  path: (args) => protectedBranchPath(args.project, args.name),
  subject: (args) => `protected branch ${args.name} of project ${args.project}`,
  refusals: { 404: () => "A wildcard rule is read by its own name (`release/*`), not by a branch it matches. Check the name." },
  needs: protectedBranchReadNeeds,
  result: protectedBranch,
});

/**
 * One protected branch rule of a project, by its name.
 *
 * ```ts
 * const main = await getProtectedBranch({ project: "acme/web", name: "main" });
 * ```
 */
export const getProtectedBranch = branch;
/** `getProtectedBranch` as an Output. */
export const getProtectedBranchOutput = branch.output;

const tags = defineListFunction({
  name: "getProtectedTags",
  args: z.object(onProject),
  path: (args) => protectedTagsOf(args.project),
  subject: (args) => `the protected tags of project ${args.project}`,
  needs: protectedRefNeeds,
  item: protectedTag,
});

/**
 * A project's protected tag rules, each with who may create matching tags.
 *
 * ```ts
 * const tagRules = await getProtectedTags({ project: "acme/web" });
 * ```
 */
export const getProtectedTags = tags;
/** `getProtectedTags` as an Output. */
export const getProtectedTagsOutput = tags.output;

const tag = defineObjectFunction({
  name: "getProtectedTag",
  args: z.object({
    ...onProject,
    /** The rule's name, a wildcard as written (`v*`). */
    name: ruleName,
  }),
  path: (args) => protectedTagPath(args.project, args.name),
  subject: (args) => `protected tag ${args.name} of project ${args.project}`,
  needs: protectedRefNeeds,
  result: protectedTag,
});

/**
 * One protected tag rule of a project, by its name.
 *
 * ```ts
 * const releases = await getProtectedTag({ project: "acme/web", name: "v*" });
 * ```
 */
export const getProtectedTag = tag;
/** `getProtectedTag` as an Output. */
export const getProtectedTagOutput = tag.output;
