/**
 * Seed: every project's default branch protected as at its creation (the
 * namespace's default branch protection), then the section's own rules:
 * "protectedRefs": { "branches": { "acme/web": [{ "name": "release/*", "pushAccessLevel": 40, "mergeAccessLevel": 30 }] },
 *                    "tags": { "acme/web": [{ "name": "v*", "createAccessLevel": 40 }] } }
 * A rule named as one that exists (the default branch's) replaces its levels.
 */
import { z } from "zod";
import { keyedSection } from "../../area";
import { SeedError } from "../../seed-error";
import { AccessLevel, type EmulatorState } from "../../state";
import { REF_ACCESS_LEVELS, SEQUENCES, branchRulesOf, protectSeededProjects, protectedRefsStore, roleAccess } from "./model";

const level = z.number().refine((value) => (REF_ACCESS_LEVELS as readonly number[]).includes(value), `must be one of ${REF_ACCESS_LEVELS.join(", ")}`).optional();
const seedBranch = z.strictObject({ name: z.string().min(1), pushAccessLevel: level, mergeAccessLevel: level, allowForcePush: z.boolean().optional() });
const seedTag = z.strictObject({ name: z.string().min(1), createAccessLevel: level });

export const protectedRefsSeedSchema = z.strictObject(
  {
    branches: keyedSection("project full path", z.array(seedBranch)).default({}),
    tags: keyedSection("project full path", z.array(seedTag)).default({}),
  },
  { error: 'must be an object: { "branches": {...}, "tags": {...} }' },
);

export function applyProtectedRefsSeed(state: EmulatorState, section: z.infer<typeof protectedRefsSeedSchema> | undefined): void {
  protectSeededProjects(state);
  if (section === undefined) return;
  const store = protectedRefsStore.of(state);
  const projectOf = (kind: string, fullPath: string) => {
    const project = state.projectByFullPath(fullPath);
    if (!project) throw new SeedError(`protectedRefs.${kind}["${fullPath}"]: unknown project ${fullPath}`);
    return project;
  };
  for (const [fullPath, rules] of Object.entries(section.branches)) {
    const project = projectOf("branches", fullPath);
    for (const seed of rules) {
      const existing = branchRulesOf(state, project).find((rule) => rule.name === seed.name);
      const push = [roleAccess(state, SEQUENCES.push, seed.pushAccessLevel ?? AccessLevel.Maintainer)];
      const merge = [roleAccess(state, SEQUENCES.merge, seed.mergeAccessLevel ?? AccessLevel.Maintainer)];
      if (existing) Object.assign(existing, { push, merge, allowForcePush: seed.allowForcePush ?? false });
      else
        store.branches.push({
          id: state.nextId(SEQUENCES.branch),
          projectId: project.id,
          name: seed.name,
          push,
          merge,
          unprotect: [roleAccess(state, SEQUENCES.unprotect, AccessLevel.Maintainer)],
          allowForcePush: seed.allowForcePush ?? false,
          codeOwnerApprovalRequired: false,
        });
    }
  }
  for (const [fullPath, rules] of Object.entries(section.tags)) {
    const project = projectOf("tags", fullPath);
    for (const seed of rules) {
      store.tags.push({ id: state.nextId(SEQUENCES.tag), projectId: project.id, name: seed.name, create: [roleAccess(state, SEQUENCES.create, seed.createAccessLevel ?? AccessLevel.Maintainer)] });
    }
  }
}
