package emulator_test

import (
	"net/http"
	"strings"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// levelsOf is each access entry of a rule as `role`, `user:<id>`, `group:<id>` or `key:<id>`.
func levelsOf(entries []*gitlab.BranchAccessDescription) map[string]int64 {
	ids := map[string]int64{}
	for _, entry := range entries {
		switch {
		case entry.UserID != 0:
			ids["user:"+itoa(entry.UserID)] = entry.ID
		case entry.GroupID != 0:
			ids["group:"+itoa(entry.GroupID)] = entry.ID
		case entry.DeployKeyID != 0:
			ids["key:"+itoa(entry.DeployKeyID)] = entry.ID
		default:
			ids["role:"+itoa(int64(entry.AccessLevel))] = entry.ID
		}
	}
	return ids
}

// A wildcard rule on acme/web (Ultimate: users and groups count): made,
// read, changed in place by the PATCH's entries, and removed.
func TestProtectedBranches(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	devID := userID(t, "dev")
	acme, resp, err := maintainer.Groups.GetGroup("acme", nil)
	maintainer.decodes(t, resp, err, acme)

	rule, resp, err := maintainer.ProtectedBranches.ProtectRepositoryBranches("acme/web", &gitlab.ProtectRepositoryBranchesOptions{
		Name: ptr("go-client/*"), PushAccessLevel: ptr(gitlab.MaintainerPermissions), MergeAccessLevel: ptr(gitlab.DeveloperPermissions),
		AllowedToPush:             &[]*gitlab.BranchPermissionOptions{{UserID: ptr(devID)}},
		AllowedToMerge:            &[]*gitlab.BranchPermissionOptions{{GroupID: ptr(acme.ID)}},
		AllowForcePush:            ptr(true),
		CodeOwnerApprovalRequired: ptr(true),
	})
	maintainer.decodes(t, resp, err, rule)
	push, merge := levelsOf(rule.PushAccessLevels), levelsOf(rule.MergeAccessLevels)
	if rule.Name != "go-client/*" || !rule.AllowForcePush || !rule.CodeOwnerApprovalRequired || len(push) != 2 || push["role:40"] == 0 || push["user:"+itoa(devID)] == 0 ||
		len(merge) != 2 || merge["role:30"] == 0 || merge["group:"+itoa(acme.ID)] == 0 || len(rule.UnprotectAccessLevels) != 1 || rule.UnprotectAccessLevels[0].AccessLevel != gitlab.MaintainerPermissions {
		t.Fatalf("rule %+v push %v merge %v", rule, push, merge)
	}
	for _, entry := range rule.PushAccessLevels {
		if entry.UserID == devID && entry.AccessLevelDescription != "Dev Developer" || entry.UserID == 0 && entry.AccessLevelDescription != "Maintainers" {
			t.Fatalf("push entry %+v", entry)
		}
	}

	got, resp, err := maintainer.ProtectedBranches.GetProtectedBranch("acme/web", "go-client/*")
	maintainer.decodes(t, resp, err, got)
	if got.ID != rule.ID {
		t.Fatalf("got %+v", got)
	}
	listed, resp, err := maintainer.ProtectedBranches.ListProtectedBranches("acme/web", &gitlab.ListProtectedBranchesOptions{Search: ptr("GO-CLIENT")})
	maintainer.decodes(t, resp, err, listed)
	if len(listed) != 1 || listed[0].ID != rule.ID {
		t.Fatalf("listed %+v", listed)
	}
	_, resp, err = maintainer.ProtectedBranches.ProtectRepositoryBranches("acme/web", &gitlab.ProtectRepositoryBranchesOptions{Name: ptr("go-client/*")})
	maintainer.refused(t, resp, err, http.StatusConflict, "Protected branch 'go-client/*' already exists")
	_, resp, err = maintainer.ProtectedBranches.ProtectRepositoryBranches("acme/web", &gitlab.ProtectRepositoryBranchesOptions{
		Name: ptr("go-client-other"), AllowedToPush: &[]*gitlab.BranchPermissionOptions{{UserID: ptr(userID(t, "outsider"))}},
	})
	maintainer.refused(t, resp, err, http.StatusUnprocessableEntity, "Push access levels user is not a member of the project")
	_, resp, err = maintainer.ProtectedBranches.ProtectRepositoryBranches("acme/web", &gitlab.ProtectRepositoryBranchesOptions{Name: ptr("go-client-other"), PushAccessLevel: ptr(gitlab.ReporterPermissions)})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "push_access_level does not have a valid value")

	// One PATCH: the role entry changed in place, the user's removed, a role added.
	roleID, userEntryID := push["role:40"], push["user:"+itoa(devID)]
	updated, resp, err := maintainer.ProtectedBranches.UpdateProtectedBranch("acme/web", "go-client/*", &gitlab.UpdateProtectedBranchOptions{
		AllowForcePush: ptr(false),
		AllowedToPush: &[]*gitlab.BranchPermissionOptions{
			{ID: ptr(roleID), AccessLevel: ptr(gitlab.DeveloperPermissions)},
			{ID: ptr(userEntryID), Destroy: ptr(true)},
		},
		AllowedToUnprotect: &[]*gitlab.BranchPermissionOptions{{AccessLevel: ptr(gitlab.AdminPermissions)}},
	})
	maintainer.decodes(t, resp, err, updated)
	if pushed := levelsOf(updated.PushAccessLevels); len(pushed) != 1 || pushed["role:30"] != roleID || updated.AllowForcePush || updated.ID != rule.ID || len(updated.UnprotectAccessLevels) != 2 {
		t.Fatalf("updated %+v push %v", updated, pushed)
	}
	_, resp, err = maintainer.ProtectedBranches.UpdateProtectedBranch("acme/web", "go-client/*", &gitlab.UpdateProtectedBranchOptions{
		AllowedToMerge: &[]*gitlab.BranchPermissionOptions{{ID: ptr(int64(987654)), Destroy: ptr(true)}},
	})
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")
	_, resp, err = maintainer.ProtectedBranches.UpdateProtectedBranch("acme/web", "go-client/*", &gitlab.UpdateProtectedBranchOptions{
		AllowedToMerge: &[]*gitlab.BranchPermissionOptions{{AccessLevel: ptr(gitlab.DeveloperPermissions)}},
	})
	maintainer.refused(t, resp, err, http.StatusUnprocessableEntity, "Merge access levels access level has already been taken")

	// Reading a rule needs only the code (authorize_read_code!).
	dev := hosted(t, "dev")
	read, resp, err := dev.ProtectedBranches.GetProtectedBranch("acme/web", "go-client/*")
	dev.decodes(t, resp, err, read)
	if read.ID != rule.ID {
		t.Fatalf("the Developer read %+v", read)
	}
	outsider := hosted(t, "outsider")
	_, resp, err = outsider.ProtectedBranches.ListProtectedBranches("acme/web", nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")

	resp, err = maintainer.ProtectedBranches.UnprotectRepositoryBranches("acme/web", "go-client/*")
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = maintainer.ProtectedBranches.GetProtectedBranch("acme/web", "go-client/*")
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")
}

// On a Free project users, groups and code owner approval do not count: dropped, and not shown.
func TestProtectedBranchesFree(t *testing.T) {
	alice := hosted(t, "alice")
	rule, resp, err := alice.ProtectedBranches.ProtectRepositoryBranches("beta/site", &gitlab.ProtectRepositoryBranchesOptions{
		Name: ptr("go-client"), AllowedToPush: &[]*gitlab.BranchPermissionOptions{{UserID: ptr(userID(t, "alice"))}, {AccessLevel: ptr(gitlab.NoPermissions)}},
		CodeOwnerApprovalRequired: ptr(true),
	})
	alice.decodes(t, resp, err, rule)
	if len(rule.PushAccessLevels) != 1 || rule.PushAccessLevels[0].AccessLevel != gitlab.NoPermissions || rule.PushAccessLevels[0].AccessLevelDescription != "No one" || rule.CodeOwnerApprovalRequired {
		t.Fatalf("rule %+v", rule)
	}
	if raw := string(alice.rec.body(t, resp)); strings.Contains(raw, `"user_id"`) || strings.Contains(raw, `"inherited"`) {
		t.Fatalf("a Free project's rule shows users or inheritance: %s", raw)
	}
	resp, err = alice.ProtectedBranches.UnprotectRepositoryBranches("beta/site", "go-client")
	succeeds(t, resp, err, http.StatusNoContent)
}

func TestProtectedTags(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	devID := userID(t, "dev")
	tag, resp, err := maintainer.ProtectedTags.ProtectRepositoryTags("acme/web", &gitlab.ProtectRepositoryTagsOptions{
		Name: ptr("go-v*"), CreateAccessLevel: ptr(gitlab.MaintainerPermissions), AllowedToCreate: &[]*gitlab.TagsPermissionOptions{{UserID: ptr(devID)}},
	})
	maintainer.decodes(t, resp, err, tag)
	if tag.Name != "go-v*" || len(tag.CreateAccessLevels) != 2 {
		t.Fatalf("tag %+v", tag)
	}
	got, resp, err := maintainer.ProtectedTags.GetProtectedTag("acme/web", "go-v*")
	maintainer.decodes(t, resp, err, got)
	list, resp, err := maintainer.ProtectedTags.ListProtectedTags("acme/web", nil)
	maintainer.decodes(t, resp, err, list)
	found := false
	for _, listed := range list {
		found = found || listed.Name == "go-v*"
	}
	if !found {
		t.Fatalf("list %+v", list)
	}
	_, resp, err = maintainer.ProtectedTags.ProtectRepositoryTags("acme/web", &gitlab.ProtectRepositoryTagsOptions{Name: ptr("go-v*")})
	maintainer.refused(t, resp, err, http.StatusConflict, "Protected tag 'go-v*' already exists")
	_, resp, err = maintainer.ProtectedTags.ProtectRepositoryTags("acme/web", &gitlab.ProtectRepositoryTagsOptions{
		Name: ptr("go-w*"), AllowedToCreate: &[]*gitlab.TagsPermissionOptions{{AccessLevel: ptr(gitlab.MaintainerPermissions)}, {AccessLevel: ptr(gitlab.MaintainerPermissions)}},
	})
	maintainer.refused(t, resp, err, http.StatusUnprocessableEntity, "Create access levels access level has already been taken")
	dev := hosted(t, "dev")
	resp, err = dev.ProtectedTags.UnprotectRepositoryTags("acme/web", "go-v*")
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	resp, err = maintainer.ProtectedTags.UnprotectRepositoryTags("acme/web", "go-v*")
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = maintainer.ProtectedTags.GetProtectedTag("acme/web", "go-v*")
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")
}
