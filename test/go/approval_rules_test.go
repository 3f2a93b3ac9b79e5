package emulator_test

import (
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// A project's approval rule on acme/web (Ultimate): users by id and by
// name, a group, the project's own protected branch; changed, then removed.
func TestProjectApprovalRules(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	aliceID := userID(t, "alice")
	platform, resp, err := maintainer.Groups.GetGroup("acme/platform", nil)
	maintainer.decodes(t, resp, err, platform)
	main, resp, err := maintainer.ProtectedBranches.GetProtectedBranch("acme/web", "main")
	maintainer.decodes(t, resp, err, main)

	rule, resp, err := maintainer.Projects.CreateProjectApprovalRule("acme/web", &gitlab.CreateProjectLevelRuleOptions{
		Name: ptr("go-client reviewers"), ApprovalsRequired: ptr(int64(2)), UserIDs: ptr([]int64{aliceID, 999999}), Usernames: ptr([]string{"dev"}),
		GroupIDs: ptr([]int64{platform.ID}), ProtectedBranchIDs: ptr([]int64{main.ID, 999999}),
	})
	maintainer.decodes(t, resp, err, rule)
	users := map[string]bool{}
	for _, user := range rule.Users {
		users[user.Username] = true
	}
	if rule.Name != "go-client reviewers" || rule.RuleType != "regular" || rule.ApprovalsRequired != 2 || len(users) != 2 || !users["alice"] || !users["dev"] ||
		len(rule.Groups) != 1 || rule.Groups[0].ID != platform.ID || len(rule.ProtectedBranches) != 1 || rule.ProtectedBranches[0].Name != "main" || rule.AppliesToAllProtectedBranches {
		t.Fatalf("rule %+v", rule)
	}
	_, resp, err = maintainer.Projects.CreateProjectApprovalRule("acme/web", &gitlab.CreateProjectLevelRuleOptions{Name: ptr("go-client reviewers"), ApprovalsRequired: ptr(int64(1))})
	maintainer.refused(t, resp, err, http.StatusBadRequest, `{"message":{"name":["has already been taken"]}}`)
	_, resp, err = maintainer.Projects.CreateProjectApprovalRule("acme/web", &gitlab.CreateProjectLevelRuleOptions{Name: ptr("too many"), ApprovalsRequired: ptr(int64(101))})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "must be less than or equal to 100")

	got, resp, err := maintainer.Projects.GetProjectApprovalRule("acme/web", rule.ID)
	maintainer.decodes(t, resp, err, got)
	dev := hosted(t, "dev")
	list, resp, err := dev.Projects.GetProjectApprovalRules("acme/web", nil)
	dev.decodes(t, resp, err, list)
	if len(list) != 1 || list[0].ID != rule.ID {
		t.Fatalf("list %+v", list)
	}

	updated, resp, err := maintainer.Projects.UpdateProjectApprovalRule("acme/web", rule.ID, &gitlab.UpdateProjectLevelRuleOptions{
		ApprovalsRequired: ptr(int64(1)), Usernames: ptr([]string{"maintainer"}), GroupIDs: ptr([]int64{}), AppliesToAllProtectedBranches: ptr(true),
	})
	maintainer.decodes(t, resp, err, updated)
	if updated.ID != rule.ID || updated.ApprovalsRequired != 1 || len(updated.Users) != 1 || updated.Users[0].Username != "maintainer" || len(updated.Groups) != 0 || !updated.AppliesToAllProtectedBranches {
		t.Fatalf("updated %+v", updated)
	}

	_, resp, err = dev.Projects.CreateProjectApprovalRule("acme/web", &gitlab.CreateProjectLevelRuleOptions{Name: ptr("by dev"), ApprovalsRequired: ptr(int64(1))})
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	// beta/site is Free: no approval rules to manage, even for its Owner.
	alice := hosted(t, "alice")
	_, resp, err = alice.Projects.CreateProjectApprovalRule("beta/site", &gitlab.CreateProjectLevelRuleOptions{Name: ptr("free"), ApprovalsRequired: ptr(int64(1))})
	alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	resp, err = maintainer.Projects.DeleteProjectApprovalRule("acme/web", rule.ID)
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = maintainer.Projects.GetProjectApprovalRule("acme/web", rule.ID)
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")
}
