package emulator_test

import (
	"net/http"
	"testing"
	"time"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// groupMemberLevels is each listed member's role, by username.
func groupMemberLevels(members []*gitlab.GroupMember) map[string]gitlab.AccessLevelValue {
	levels := map[string]gitlab.AccessLevelValue{}
	for _, member := range members {
		levels[member.Username] = member.AccessLevel
	}
	return levels
}

func projectMemberLevels(members []*gitlab.ProjectMember) map[string]gitlab.AccessLevelValue {
	levels := map[string]gitlab.AccessLevelValue{}
	for _, member := range members {
		levels[member.Username] = member.AccessLevel
	}
	return levels
}

// A subgroup's members: one added, read, changed, listed with and without
// the memberships inherited from acme, and removed.
func TestGroupMembers(t *testing.T) {
	alice := hosted(t, "alice")
	outsiderID, devID, aliceID := userID(t, "outsider"), userID(t, "dev"), userID(t, "alice")
	expires := time.Now().AddDate(0, 2, 0).Format("2006-01-02")

	added, resp, err := alice.GroupMembers.AddGroupMember("acme/platform", &gitlab.AddGroupMemberOptions{
		UserID: ptr(outsiderID), AccessLevel: ptr(gitlab.ReporterPermissions), ExpiresAt: ptr(expires),
	})
	alice.decodes(t, resp, err, added)
	t.Cleanup(func() { _, _ = alice.GroupMembers.RemoveGroupMember("acme/platform", outsiderID, nil) })
	if added.ID != outsiderID || added.Username != "outsider" || added.AccessLevel != gitlab.ReporterPermissions ||
		added.ExpiresAt == nil || added.ExpiresAt.String() != expires || added.CreatedBy == nil || added.CreatedBy.Username != "alice" || added.CreatedAt == nil {
		t.Fatalf("added %+v", added)
	}
	_, resp, err = alice.GroupMembers.AddGroupMember("acme/platform", &gitlab.AddGroupMemberOptions{UserID: ptr(outsiderID), AccessLevel: ptr(gitlab.GuestPermissions)})
	alice.refused(t, resp, err, http.StatusConflict, "Member already exists")
	// Below the role inherited from acme: the model's validation, naming the group.
	_, resp, err = alice.GroupMembers.AddGroupMember("acme/platform", &gitlab.AddGroupMemberOptions{Username: ptr("dev"), AccessLevel: ptr(gitlab.ReporterPermissions)})
	alice.refused(t, resp, err, http.StatusBadRequest, "should be greater than or equal to Developer inherited membership from group Acme")
	_, resp, err = alice.GroupMembers.AddGroupMember("acme/platform", &gitlab.AddGroupMemberOptions{UserID: ptr(int64(999999)), AccessLevel: ptr(gitlab.GuestPermissions)})
	alice.refused(t, resp, err, http.StatusNotFound, "404 User Not Found")
	maintainer := hosted(t, "maintainer")
	_, resp, err = maintainer.GroupMembers.AddGroupMember("acme/platform", &gitlab.AddGroupMemberOptions{UserID: ptr(devID), AccessLevel: ptr(gitlab.MaintainerPermissions)})
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	got, resp, err := alice.GroupMembers.GetGroupMember("acme/platform", outsiderID)
	alice.decodes(t, resp, err, got)
	if got.AccessLevel != gitlab.ReporterPermissions || got.ExpiresAt.String() != expires {
		t.Fatalf("got %+v", got)
	}
	// members/all/:user_id is the entry members/all lists: the membership's expiry and maker.
	sameOne, resp, err := alice.GroupMembers.GetInheritedGroupMember("acme/platform", outsiderID)
	alice.decodes(t, resp, err, sameOne)
	if sameOne.AccessLevel != gitlab.ReporterPermissions || sameOne.ExpiresAt == nil || sameOne.ExpiresAt.String() != expires || sameOne.CreatedBy == nil || sameOne.CreatedBy.Username != "alice" || !sameOne.CreatedAt.Equal(*got.CreatedAt) {
		t.Fatalf("members/all/:user_id %+v", sameOne)
	}
	// A direct member only: dev's membership is acme's.
	_, resp, err = alice.GroupMembers.GetGroupMember("acme/platform", devID)
	alice.refused(t, resp, err, http.StatusNotFound, "404 Not found")
	inherited, resp, err := alice.GroupMembers.GetInheritedGroupMember("acme/platform", devID)
	alice.decodes(t, resp, err, inherited)
	if inherited.AccessLevel != gitlab.DeveloperPermissions {
		t.Fatalf("inherited %+v", inherited)
	}

	edited, resp, err := alice.GroupMembers.EditGroupMember("acme/platform", outsiderID, &gitlab.EditGroupMemberOptions{AccessLevel: ptr(gitlab.DeveloperPermissions)})
	alice.decodes(t, resp, err, edited)
	if edited.AccessLevel != gitlab.DeveloperPermissions || edited.ExpiresAt.String() != expires {
		t.Fatalf("edited %+v", edited)
	}
	_, resp, err = alice.GroupMembers.EditGroupMember("acme/platform", outsiderID, &gitlab.EditGroupMemberOptions{AccessLevel: ptr(gitlab.AccessLevelValue(35))})
	alice.refused(t, resp, err, http.StatusBadRequest, "access_level")

	direct, resp, err := alice.Groups.ListGroupMembers("acme/platform", nil)
	alice.decodes(t, resp, err, direct)
	if levels := groupMemberLevels(direct); len(levels) != 1 || levels["outsider"] != gitlab.DeveloperPermissions {
		t.Fatalf("direct members %v", levels)
	}
	all, resp, err := alice.Groups.ListAllGroupMembers("acme/platform", nil)
	alice.decodes(t, resp, err, all)
	levels := groupMemberLevels(all)
	if levels["alice"] != gitlab.OwnerPermissions || levels["maintainer"] != gitlab.MaintainerPermissions || levels["dev"] != gitlab.DeveloperPermissions ||
		levels["guest"] != gitlab.GuestPermissions || levels["outsider"] != gitlab.DeveloperPermissions {
		t.Fatalf("all members %v", levels)
	}
	found, resp, err := alice.Groups.ListAllGroupMembers("acme/platform", &gitlab.ListGroupMembersOptions{Query: ptr("Olga")})
	alice.decodes(t, resp, err, found)
	if len(found) != 1 || found[0].ID != outsiderID {
		t.Fatalf("query Olga %+v", found)
	}
	chosen, resp, err := alice.Groups.ListAllGroupMembers("acme/platform", &gitlab.ListGroupMembersOptions{UserIDs: ptr([]int64{aliceID, devID})})
	alice.decodes(t, resp, err, chosen)
	if levels := groupMemberLevels(chosen); len(levels) != 2 || levels["alice"] != gitlab.OwnerPermissions || levels["dev"] != gitlab.DeveloperPermissions {
		t.Fatalf("user_ids %v", levels)
	}

	// The last Owner of a group stays.
	resp, err = alice.GroupMembers.RemoveGroupMember("beta", aliceID, nil)
	alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	resp, err = alice.GroupMembers.RemoveGroupMember("acme/platform", outsiderID, nil)
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = alice.GroupMembers.GetGroupMember("acme/platform", outsiderID)
	alice.refused(t, resp, err, http.StatusNotFound, "404 Not found")
	outsider := hosted(t, "outsider")
	_, resp, err = outsider.Groups.ListGroupMembers("acme/platform", nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Group Not Found")
}

// A project's members: a Maintainer adds and changes one, who then leaves.
func TestProjectMembers(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	outsiderID, devID := userID(t, "outsider"), userID(t, "dev")
	before, resp, err := maintainer.ProjectMembers.ListProjectMembers("acme/api", nil)
	maintainer.decodes(t, resp, err, before)
	beforeLevels := projectMemberLevels(before)
	if _, ok := beforeLevels["outsider"]; ok {
		t.Fatalf("outsider is a member of acme/api already: %v", beforeLevels)
	}

	added, resp, err := maintainer.ProjectMembers.AddProjectMember("acme/api", &gitlab.AddProjectMemberOptions{
		Username: ptr("outsider"), AccessLevel: ptr(gitlab.DeveloperPermissions),
	})
	maintainer.decodes(t, resp, err, added)
	t.Cleanup(func() { _, _ = maintainer.ProjectMembers.DeleteProjectMember("acme/api", outsiderID) })
	if added.ID != outsiderID || added.AccessLevel != gitlab.DeveloperPermissions || added.ExpiresAt != nil || added.CreatedBy == nil || added.CreatedBy.Username != "maintainer" {
		t.Fatalf("added %+v", added)
	}
	// Only an Owner gives the Owner role.
	_, resp, err = maintainer.ProjectMembers.EditProjectMember("acme/api", outsiderID, &gitlab.EditProjectMemberOptions{AccessLevel: ptr(gitlab.OwnerPermissions)})
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	edited, resp, err := maintainer.ProjectMembers.EditProjectMember("acme/api", outsiderID, &gitlab.EditProjectMemberOptions{
		AccessLevel: ptr(gitlab.MaintainerPermissions), ExpiresAt: ptr(time.Now().AddDate(1, 0, 0).Format("2006-01-02")),
	})
	maintainer.decodes(t, resp, err, edited)
	if edited.AccessLevel != gitlab.MaintainerPermissions || edited.ExpiresAt == nil {
		t.Fatalf("edited %+v", edited)
	}
	_, resp, err = maintainer.ProjectMembers.EditProjectMember("acme/api", outsiderID, &gitlab.EditProjectMemberOptions{
		AccessLevel: ptr(gitlab.MaintainerPermissions), ExpiresAt: ptr("2001-01-01"),
	})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "cannot be a date in the past")
	got, resp, err := maintainer.ProjectMembers.GetProjectMember("acme/api", outsiderID)
	maintainer.decodes(t, resp, err, got)
	if got.AccessLevel != gitlab.MaintainerPermissions {
		t.Fatalf("got %+v", got)
	}

	direct, resp, err := maintainer.ProjectMembers.ListProjectMembers("acme/api", nil)
	maintainer.decodes(t, resp, err, direct)
	if levels := projectMemberLevels(direct); len(levels) != len(beforeLevels)+1 || levels["outsider"] != gitlab.MaintainerPermissions {
		t.Fatalf("direct members %v", levels)
	}
	all, resp, err := maintainer.ProjectMembers.ListAllProjectMembers("acme/api", nil)
	maintainer.decodes(t, resp, err, all)
	if levels := projectMemberLevels(all); levels["alice"] != gitlab.OwnerPermissions || levels["dev"] != gitlab.DeveloperPermissions || levels["outsider"] != gitlab.MaintainerPermissions {
		t.Fatalf("all members %v", levels)
	}
	inherited, resp, err := maintainer.ProjectMembers.GetInheritedProjectMember("acme/api", devID)
	maintainer.decodes(t, resp, err, inherited)
	if inherited.AccessLevel != gitlab.DeveloperPermissions {
		t.Fatalf("inherited %+v", inherited)
	}

	dev := hosted(t, "dev")
	_, resp, err = dev.ProjectMembers.AddProjectMember("acme/api", &gitlab.AddProjectMemberOptions{UserID: outsiderID, AccessLevel: ptr(gitlab.GuestPermissions)})
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	resp, err = dev.ProjectMembers.DeleteProjectMember("acme/api", outsiderID)
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	// A member may leave.
	outsider := hosted(t, "outsider")
	resp, err = outsider.ProjectMembers.DeleteProjectMember("acme/api", outsiderID)
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = maintainer.ProjectMembers.GetProjectMember("acme/api", outsiderID)
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")
	_, resp, err = outsider.ProjectMembers.ListProjectMembers("acme/api", nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
}
