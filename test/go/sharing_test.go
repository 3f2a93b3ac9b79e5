package emulator_test

import (
	"net/http"
	"testing"
	"time"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// Sharing acme/platform and acme/api with beta, whose members (outsider
// among them) then reach both, at most at the share's role.
func TestSharing(t *testing.T) {
	alice, maintainer, outsider := hosted(t, "alice"), hosted(t, "maintainer"), hosted(t, "outsider")
	outsiderID := userID(t, "outsider")
	beta, resp, err := alice.Groups.GetGroup("beta", nil)
	alice.decodes(t, resp, err, beta)
	_, resp, err = alice.GroupMembers.AddGroupMember("beta", &gitlab.AddGroupMemberOptions{UserID: ptr(outsiderID), AccessLevel: ptr(gitlab.DeveloperPermissions)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = alice.GroupMembers.RemoveGroupMember("beta", outsiderID, nil) })

	expires := time.Now().AddDate(0, 1, 0).Format("2006-01-02")
	shared, resp, err := alice.GroupMembers.ShareWithGroup("acme/platform", &gitlab.ShareWithGroupOptions{
		GroupID: ptr(beta.ID), GroupAccess: ptr(gitlab.ReporterPermissions), ExpiresAt: ptr(expires),
	})
	alice.decodes(t, resp, err, shared)
	t.Cleanup(func() { _, _ = alice.GroupMembers.DeleteShareWithGroup("acme/platform", beta.ID) })
	if shared.FullPath != "acme/platform" || len(shared.SharedWithGroups) != 1 {
		t.Fatalf("shared %+v", shared)
	}
	if link := shared.SharedWithGroups[0]; link.GroupID != beta.ID || link.GroupFullPath != "beta" || link.GroupAccessLevel != int64(gitlab.ReporterPermissions) || link.ExpiresAt.String() != expires {
		t.Fatalf("link %+v", link)
	}
	_, resp, err = alice.GroupMembers.ShareWithGroup("acme/platform", &gitlab.ShareWithGroupOptions{GroupID: ptr(beta.ID), GroupAccess: ptr(gitlab.GuestPermissions)})
	alice.refused(t, resp, err, http.StatusConflict, "Group already shared with this group")
	// Sharing a group is its Owners' business; the service answers others Not Found.
	_, resp, err = maintainer.GroupMembers.ShareWithGroup("acme/platform", &gitlab.ShareWithGroupOptions{GroupID: ptr(beta.ID), GroupAccess: ptr(gitlab.GuestPermissions)})
	maintainer.refused(t, resp, err, http.StatusNotFound, "Not Found")
	_, resp, err = alice.GroupMembers.ShareWithGroup("acme/platform", &gitlab.ShareWithGroupOptions{GroupID: ptr(beta.ID), GroupAccess: ptr(gitlab.AccessLevelValue(35))})
	alice.refused(t, resp, err, http.StatusBadRequest, "group_access does not have a valid value")

	// beta's Developer reaches acme/platform as a Reporter, the share's role.
	platform, resp, err := outsider.Groups.GetGroup("acme/platform", nil)
	outsider.decodes(t, resp, err, platform)
	member, resp, err := alice.GroupMembers.GetInheritedGroupMember("acme/platform", outsiderID)
	alice.decodes(t, resp, err, member)
	if member.AccessLevel != gitlab.ReporterPermissions {
		t.Fatalf("shared member %+v", member)
	}
	all, resp, err := alice.Groups.ListAllGroupMembers("acme/platform", nil)
	alice.decodes(t, resp, err, all)
	if level := groupMemberLevels(all)["outsider"]; level != gitlab.ReporterPermissions {
		t.Fatalf("members/all shows the invited group's member as %d: %v", level, groupMemberLevels(all))
	}

	resp, err = maintainer.GroupMembers.DeleteShareWithGroup("acme/platform", beta.ID)
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	resp, err = alice.GroupMembers.DeleteShareWithGroup("acme/platform", beta.ID)
	succeeds(t, resp, err, http.StatusNoContent)
	resp, err = alice.GroupMembers.DeleteShareWithGroup("acme/platform", beta.ID)
	alice.refused(t, resp, err, http.StatusNotFound, "404 Group Link Not Found")
	_, resp, err = outsider.Groups.GetGroup("acme/platform", nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Group Not Found")

	// A project: its Maintainers share it, at most at their own role.
	resp, err = maintainer.Projects.ShareProjectWithGroup("acme/api", &gitlab.ShareWithGroupOptions{GroupID: ptr(beta.ID), GroupAccess: ptr(gitlab.DeveloperPermissions)})
	succeeds(t, resp, err, http.StatusCreated)
	t.Cleanup(func() { _, _ = maintainer.Projects.DeleteSharedProjectFromGroup("acme/api", beta.ID) })
	resp, err = maintainer.Projects.ShareProjectWithGroup("acme/api", &gitlab.ShareWithGroupOptions{GroupID: ptr(beta.ID), GroupAccess: ptr(gitlab.DeveloperPermissions)})
	maintainer.refused(t, resp, err, http.StatusConflict, "Project already shared with this group")
	resp, err = maintainer.Projects.ShareProjectWithGroup("acme/web", &gitlab.ShareWithGroupOptions{GroupID: ptr(beta.ID), GroupAccess: ptr(gitlab.OwnerPermissions)})
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	dev := hosted(t, "dev")
	resp, err = dev.Projects.ShareProjectWithGroup("acme/web", &gitlab.ShareWithGroupOptions{GroupID: ptr(beta.ID), GroupAccess: ptr(gitlab.GuestPermissions)})
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	project, resp, err := maintainer.Projects.GetProject("acme/api", nil)
	maintainer.decodes(t, resp, err, project)
	if len(project.SharedWithGroups) != 1 || project.SharedWithGroups[0].GroupID != beta.ID || project.SharedWithGroups[0].GroupAccessLevel != int64(gitlab.DeveloperPermissions) {
		t.Fatalf("shared with %+v", project.SharedWithGroups)
	}
	seen, resp, err := outsider.Projects.GetProject("acme/api", nil)
	outsider.decodes(t, resp, err, seen)
	projectMember, resp, err := maintainer.ProjectMembers.GetInheritedProjectMember("acme/api", outsiderID)
	maintainer.decodes(t, resp, err, projectMember)
	if projectMember.AccessLevel != gitlab.DeveloperPermissions {
		t.Fatalf("shared member %+v", projectMember)
	}
	projectAll, resp, err := maintainer.ProjectMembers.ListAllProjectMembers("acme/api", nil)
	maintainer.decodes(t, resp, err, projectAll)
	if level := projectMemberLevels(projectAll)["outsider"]; level != gitlab.DeveloperPermissions {
		t.Fatalf("members/all shows the invited group's member as %d: %v", level, projectMemberLevels(projectAll))
	}

	resp, err = maintainer.Projects.DeleteSharedProjectFromGroup("acme/api", beta.ID)
	succeeds(t, resp, err, http.StatusNoContent)
	resp, err = maintainer.Projects.DeleteSharedProjectFromGroup("acme/api", beta.ID)
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Group Link Not Found")
	_, resp, err = outsider.Projects.GetProject("acme/api", nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
}
