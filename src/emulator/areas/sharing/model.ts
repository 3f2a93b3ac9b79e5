/**
 * Shares: a group invited into a group (`GroupGroupLink`) or a project
 * (`ProjectGroupLink`). The links are the core model's (`sharedWith` of a
 * group or project), which the role checks read (../../access.ts); this
 * module holds how the answers show them and the rules of making one.
 */
import type { EmulatorState, Group, GroupLink } from "../../state";

/** `shared_with_groups` of a group's or a project's answer (`Entities::GroupDetail`, `Entities::Project`). */
export function presentSharedWithGroups(state: EmulatorState, links: readonly GroupLink[] | undefined): Record<string, unknown>[] {
  return (links ?? []).flatMap((link) => {
    const group = state.groupById(link.groupId);
    return group
      ? [{ group_id: group.id, group_name: group.name, group_full_path: state.groupFullPath(group), group_access_level: link.access, expires_at: link.expiresAt }]
      : [];
  });
}

/** Whether `other` is in the hierarchy of `root` (the top-level group, its subgroups). */
export const inHierarchy = (state: EmulatorState, root: Group, other: Group): boolean => state.topLevelGroup(other).id === root.id;
