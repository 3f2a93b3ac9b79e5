package emulator_test

import (
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// deployEntries is each deploy access entry of a rule as `role:<level>`,
// `user:<id>` or `group:<id>`, with its description.
func deployEntries(levels []*gitlab.EnvironmentAccessDescription) map[string]string {
	entries := map[string]string{}
	for _, level := range levels {
		entries[accessKey(level.AccessLevel, level.UserID, level.GroupID)] = level.AccessLevelDescription
	}
	return entries
}

func accessKey(level gitlab.AccessLevelValue, userID, groupID int64) string {
	switch {
	case userID != 0:
		return "user:" + itoa(userID)
	case groupID != 0:
		return "group:" + itoa(groupID)
	default:
		return "role:" + itoa(int64(level))
	}
}

// A project's protected environment on acme/api (Ultimate): its Maintainers
// protect, read, change by the entries' ids and unprotect it.
func TestProjectProtectedEnvironments(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	devID := userID(t, "dev")
	rule, resp, err := maintainer.ProtectedEnvironments.ProtectRepositoryEnvironments("acme/api", &gitlab.ProtectRepositoryEnvironmentsOptions{
		Name: ptr("production"),
		DeployAccessLevels: &[]*gitlab.EnvironmentAccessOptions{
			{AccessLevel: ptr(gitlab.MaintainerPermissions)},
			{UserID: ptr(devID)},
		},
		ApprovalRules: &[]*gitlab.EnvironmentApprovalRuleOptions{{AccessLevel: ptr(gitlab.MaintainerPermissions), RequiredApprovalCount: ptr(int64(1))}},
	})
	maintainer.decodes(t, resp, err, rule)
	t.Cleanup(func() { _, _ = maintainer.ProtectedEnvironments.UnprotectEnvironment("acme/api", "production") })
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("status %d", resp.StatusCode)
	}
	entries := deployEntries(rule.DeployAccessLevels)
	if rule.Name != "production" || len(entries) != 2 || entries["role:40"] != "Maintainers" || entries["user:"+itoa(devID)] != "Dev Developer" ||
		rule.RequiredApprovalCount != 0 || len(rule.ApprovalRules) != 1 || rule.ApprovalRules[0].RequiredApprovalCount != 1 || rule.ApprovalRules[0].AccessLevelDescription != "Maintainers" {
		t.Fatalf("rule %+v entries %v", rule, entries)
	}
	var roleID, userEntryID int64
	for _, level := range rule.DeployAccessLevels {
		if level.UserID == devID {
			userEntryID = level.ID
		} else {
			roleID = level.ID
		}
	}

	_, resp, err = maintainer.ProtectedEnvironments.ProtectRepositoryEnvironments("acme/api", &gitlab.ProtectRepositoryEnvironmentsOptions{
		Name: ptr("production"), DeployAccessLevels: &[]*gitlab.EnvironmentAccessOptions{{AccessLevel: ptr(gitlab.MaintainerPermissions)}},
	})
	maintainer.refused(t, resp, err, http.StatusConflict, "Environment 'production' is already protected")
	_, resp, err = maintainer.ProtectedEnvironments.ProtectRepositoryEnvironments("acme/api", &gitlab.ProtectRepositoryEnvironmentsOptions{
		Name: ptr("staging"), DeployAccessLevels: &[]*gitlab.EnvironmentAccessOptions{{AccessLevel: ptr(gitlab.MaintainerPermissions)}}, RequiredApprovalCount: ptr(int64(1)),
	})
	maintainer.refused(t, resp, err, http.StatusUnprocessableEntity, "Parameter 'required_approval_count' is deprecated and shouldn't be used.")

	got, resp, err := maintainer.ProtectedEnvironments.GetProtectedEnvironment("acme/api", "production")
	maintainer.decodes(t, resp, err, got)
	listed, resp, err := maintainer.ProtectedEnvironments.ListProtectedEnvironments("acme/api", nil)
	maintainer.decodes(t, resp, err, listed)
	if len(listed) != 1 || listed[0].Name != "production" || len(got.DeployAccessLevels) != 2 {
		t.Fatalf("listed %+v got %+v", listed, got)
	}

	// In one step: the user's entry goes, the role becomes Developers +
	// Maintainers, the approval rule needs two; each entry by its id names
	// its role or user too, or the service drops it.
	updated, resp, err := maintainer.ProtectedEnvironments.UpdateProtectedEnvironments("acme/api", "production", &gitlab.UpdateProtectedEnvironmentsOptions{
		DeployAccessLevels: &[]*gitlab.UpdateEnvironmentAccessOptions{
			{ID: ptr(userEntryID), UserID: ptr(devID), Destroy: ptr(true)},
			{ID: ptr(roleID), AccessLevel: ptr(gitlab.DeveloperPermissions)},
		},
		ApprovalRules: &[]*gitlab.UpdateEnvironmentApprovalRuleOptions{
			{ID: ptr(rule.ApprovalRules[0].ID), AccessLevel: ptr(gitlab.MaintainerPermissions), RequiredApprovalCount: ptr(int64(2))},
		},
	})
	maintainer.decodes(t, resp, err, updated)
	entries = deployEntries(updated.DeployAccessLevels)
	if len(entries) != 1 || entries["role:30"] != "Developers + Maintainers" || updated.DeployAccessLevels[0].ID != roleID ||
		len(updated.ApprovalRules) != 1 || updated.ApprovalRules[0].RequiredApprovalCount != 2 || updated.ApprovalRules[0].ID != rule.ApprovalRules[0].ID {
		t.Fatalf("updated %+v entries %v", updated, entries)
	}
	_, resp, err = maintainer.ProtectedEnvironments.UpdateProtectedEnvironments("acme/api", "production", &gitlab.UpdateProtectedEnvironmentsOptions{
		DeployAccessLevels: &[]*gitlab.UpdateEnvironmentAccessOptions{{ID: ptr(int64(987654)), AccessLevel: ptr(gitlab.MaintainerPermissions), Destroy: ptr(true)}},
	})
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")

	dev := hosted(t, "dev")
	_, resp, err = dev.ProtectedEnvironments.ListProtectedEnvironments("acme/api", nil)
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	outsider := hosted(t, "outsider")
	_, resp, err = outsider.ProtectedEnvironments.GetProtectedEnvironment("acme/api", "production")
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
	// beta is on the Free tier.
	alice := hosted(t, "alice")
	_, resp, err = alice.ProtectedEnvironments.ListProtectedEnvironments("beta/site", nil)
	alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	resp, err = maintainer.ProtectedEnvironments.UnprotectEnvironment("acme/api", "production")
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = maintainer.ProtectedEnvironments.GetProtectedEnvironment("acme/api", "production")
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")
}

// A group's protected environment, named by a deployment tier: its Owners
// protect, read, change and unprotect it.
func TestGroupProtectedEnvironments(t *testing.T) {
	alice := hosted(t, "alice")
	platform, resp, err := alice.Groups.GetGroup("acme/platform", nil)
	alice.decodes(t, resp, err, platform)
	rule, resp, err := alice.GroupProtectedEnvironments.ProtectGroupEnvironment("acme", &gitlab.ProtectGroupEnvironmentOptions{
		Name: ptr("production"),
		DeployAccessLevels: &[]*gitlab.GroupEnvironmentAccessOptions{
			{AccessLevel: ptr(gitlab.MaintainerPermissions)},
			{GroupID: ptr(platform.ID), GroupInheritanceType: ptr(int64(1))},
		},
	})
	alice.decodes(t, resp, err, rule)
	t.Cleanup(func() { _, _ = alice.GroupProtectedEnvironments.UnprotectGroupEnvironment("acme", "production") })
	var roleID, groupEntryID int64
	for _, level := range rule.DeployAccessLevels {
		if level.GroupID == platform.ID {
			groupEntryID = level.ID
			if level.GroupInheritanceType != 1 || level.AccessLevelDescription != platform.Name {
				t.Fatalf("group entry %+v", level)
			}
		} else if level.AccessLevel == gitlab.MaintainerPermissions {
			roleID = level.ID
		}
	}
	if rule.Name != "production" || len(rule.DeployAccessLevels) != 2 || roleID == 0 || groupEntryID == 0 {
		t.Fatalf("rule %+v", rule)
	}

	_, resp, err = alice.GroupProtectedEnvironments.ProtectGroupEnvironment("acme", &gitlab.ProtectGroupEnvironmentOptions{
		Name: ptr("production"), DeployAccessLevels: &[]*gitlab.GroupEnvironmentAccessOptions{{AccessLevel: ptr(gitlab.MaintainerPermissions)}},
	})
	alice.refused(t, resp, err, http.StatusConflict, "Protected environment 'production' already exists")
	_, resp, err = alice.GroupProtectedEnvironments.ProtectGroupEnvironment("acme", &gitlab.ProtectGroupEnvironmentOptions{
		Name: ptr("prod-eu"), DeployAccessLevels: &[]*gitlab.GroupEnvironmentAccessOptions{{AccessLevel: ptr(gitlab.MaintainerPermissions)}},
	})
	alice.refused(t, resp, err, http.StatusUnprocessableEntity, "Name must be one of environment tiers: production, staging, testing, development, other.")

	got, resp, err := alice.GroupProtectedEnvironments.GetGroupProtectedEnvironment("acme", "production")
	alice.decodes(t, resp, err, got)
	listed, resp, err := alice.GroupProtectedEnvironments.ListGroupProtectedEnvironments("acme", nil)
	alice.decodes(t, resp, err, listed)
	if len(listed) != 1 || listed[0].Name != "production" || len(got.DeployAccessLevels) != 2 {
		t.Fatalf("listed %+v got %+v", listed, got)
	}

	updated, resp, err := alice.GroupProtectedEnvironments.UpdateGroupProtectedEnvironment("acme", "production", &gitlab.UpdateGroupProtectedEnvironmentOptions{
		DeployAccessLevels: &[]*gitlab.UpdateGroupEnvironmentAccessOptions{
			{ID: ptr(groupEntryID), GroupID: ptr(platform.ID), Destroy: ptr(true)},
		},
		ApprovalRules: &[]*gitlab.UpdateGroupEnvironmentApprovalRuleOptions{
			{AccessLevel: ptr(gitlab.MaintainerPermissions), RequiredApprovalCount: ptr(int64(1))},
		},
	})
	alice.decodes(t, resp, err, updated)
	if len(updated.DeployAccessLevels) != 1 || updated.DeployAccessLevels[0].ID != roleID ||
		len(updated.ApprovalRules) != 1 || updated.ApprovalRules[0].RequiredApprovalCount != 1 || updated.ApprovalRules[0].AccessLevelDescription != "Maintainers" {
		t.Fatalf("updated %+v", updated)
	}

	// Only an Owner: a Maintainer of acme is refused.
	maintainer := hosted(t, "maintainer")
	_, resp, err = maintainer.GroupProtectedEnvironments.ListGroupProtectedEnvironments("acme", nil)
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	resp, err = alice.GroupProtectedEnvironments.UnprotectGroupEnvironment("acme", "production")
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = alice.GroupProtectedEnvironments.GetGroupProtectedEnvironment("acme", "production")
	alice.refused(t, resp, err, http.StatusNotFound, "404 Not found")
}

// A project's approval configuration: anyone who sees the project reads it,
// its Maintainers change it.
func TestProjectApprovalConfiguration(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	initial, resp, err := maintainer.Projects.GetApprovalConfiguration("acme/api")
	maintainer.decodes(t, resp, err, initial)
	if !initial.ResetApprovalsOnPush || initial.SelectiveCodeOwnerRemovals || initial.MergeRequestsAuthorApproval || initial.ApprovalsBeforeMerge != 0 {
		t.Fatalf("initial %+v", initial)
	}
	t.Cleanup(func() {
		_, _, _ = maintainer.Projects.ChangeApprovalConfiguration("acme/api", &gitlab.ChangeApprovalConfigurationOptions{
			ResetApprovalsOnPush: ptr(true), SelectiveCodeOwnerRemovals: ptr(false), MergeRequestsAuthorApproval: ptr(false),
			MergeRequestsDisableCommittersApproval: ptr(false), DisableOverridingApproversPerMergeRequest: ptr(false), RequirePasswordToApprove: ptr(false),
		})
	})

	_, resp, err = maintainer.Projects.ChangeApprovalConfiguration("acme/api", &gitlab.ChangeApprovalConfigurationOptions{SelectiveCodeOwnerRemovals: ptr(true)})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "can only be enabled when reset_approvals_on_push is disabled")
	changed, resp, err := maintainer.Projects.ChangeApprovalConfiguration("acme/api", &gitlab.ChangeApprovalConfigurationOptions{
		ResetApprovalsOnPush: ptr(false), SelectiveCodeOwnerRemovals: ptr(true), MergeRequestsAuthorApproval: ptr(true), RequirePasswordToApprove: ptr(true),
	})
	maintainer.decodes(t, resp, err, changed)
	if resp.StatusCode != http.StatusCreated || changed.ResetApprovalsOnPush || !changed.SelectiveCodeOwnerRemovals || !changed.MergeRequestsAuthorApproval || !changed.RequirePasswordToApprove || changed.DisableOverridingApproversPerMergeRequest {
		t.Fatalf("changed (%d) %+v", resp.StatusCode, changed)
	}
	dev := hosted(t, "dev")
	read, resp, err := dev.Projects.GetApprovalConfiguration("acme/api")
	dev.decodes(t, resp, err, read)
	if !read.SelectiveCodeOwnerRemovals || read.ResetApprovalsOnPush {
		t.Fatalf("read %+v", read)
	}
	_, resp, err = dev.Projects.ChangeApprovalConfiguration("acme/api", &gitlab.ChangeApprovalConfigurationOptions{MergeRequestsAuthorApproval: ptr(false)})
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	outsider := hosted(t, "outsider")
	_, resp, err = outsider.Projects.GetApprovalConfiguration("acme/api")
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
	// beta is on the Free tier: the settings are read, not changed.
	alice := hosted(t, "alice")
	_, resp, err = alice.Projects.ChangeApprovalConfiguration("beta/site", &gitlab.ChangeApprovalConfigurationOptions{MergeRequestsAuthorApproval: ptr(true)})
	alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
}
