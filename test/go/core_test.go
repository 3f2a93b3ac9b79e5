package emulator_test

import (
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestMetadataVersionAndUser(t *testing.T) {
	dev := hosted(t, "dev")
	metadata, resp, err := dev.Metadata.GetMetadata()
	dev.decodes(t, resp, err, metadata)
	version, resp, err := dev.Version.GetVersion()
	dev.decodes(t, resp, err, version)
	if metadata.Version == "" || version.Version != metadata.Version {
		t.Fatalf("metadata %+v, version %+v", metadata, version)
	}
	user, resp, err := dev.Users.CurrentUser()
	dev.decodes(t, resp, err, user)
	if user.Username != "dev" {
		t.Fatalf("current user %q", user.Username)
	}
	users, resp, err := dev.Users.ListUsers(&gitlab.ListUsersOptions{Username: ptr("alice")})
	dev.decodes(t, resp, err, users)
	if len(users) != 1 || users[0].Username != "alice" {
		t.Fatalf("users %+v", users)
	}
	root := hosted(t, "root")
	everyone, resp, err := root.Users.ListUsers(&gitlab.ListUsersOptions{})
	root.decodes(t, resp, err, everyone)

	anonymous := hosted(t, "")
	_, resp, err = anonymous.Users.CurrentUser()
	anonymous.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")
	_, resp, err = anonymous.Metadata.GetMetadata()
	anonymous.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")
}

func TestGroupsAndGroupSettings(t *testing.T) {
	alice := hosted(t, "alice")
	group, resp, err := alice.Groups.GetGroup("acme", nil)
	alice.decodes(t, resp, err, group)
	if group.FullPath != "acme" {
		t.Fatalf("group %q", group.FullPath)
	}
	groups, resp, err := alice.Groups.ListGroups(&gitlab.ListGroupsOptions{})
	alice.decodes(t, resp, err, groups)
	if len(groups) == 0 {
		t.Fatal("no groups")
	}
	root := hosted(t, "root")
	withStatistics, resp, err := root.Groups.ListGroups(&gitlab.ListGroupsOptions{Statistics: ptr(true), WithCustomAttributes: ptr(true), AllAvailable: ptr(true)})
	root.decodes(t, resp, err, withStatistics)
	subgroup, resp, err := alice.Groups.GetGroup("acme/platform", &gitlab.GetGroupOptions{WithProjects: ptr(false)})
	alice.decodes(t, resp, err, subgroup)

	updated, resp, err := alice.Groups.UpdateGroup("beta", &gitlab.UpdateGroupOptions{
		Description:          ptr("Beta, described by the Go client"),
		RequestAccessEnabled: ptr(false),
		ShareWithGroupLock:   ptr(true),
	})
	alice.decodes(t, resp, err, updated)
	if updated.Description != "Beta, described by the Go client" || updated.RequestAccessEnabled || !updated.ShareWithGroupLock {
		t.Fatalf("not applied: %+v", updated)
	}
	restored, resp, err := alice.Groups.UpdateGroup("beta", &gitlab.UpdateGroupOptions{RequestAccessEnabled: ptr(true), ShareWithGroupLock: ptr(false)})
	alice.decodes(t, resp, err, restored)

	// The settings GroupSettings manages, each of its own JSON type, on an Ultimate group.
	settings, resp, err := alice.Groups.UpdateGroup("acme", &gitlab.UpdateGroupOptions{
		RequireTwoFactorAuth:       ptr(true),
		TwoFactorGracePeriod:       ptr(int64(24)),
		ProjectCreationLevel:       ptr(gitlab.MaintainerProjectCreation),
		SubGroupCreationLevel:      ptr(gitlab.OwnerSubGroupCreationLevelValue),
		MentionsDisabled:           ptr(true),
		LFSEnabled:                 ptr(false),
		PreventForkingOutsideGroup: ptr(true),
		SharedRunnersSetting:       ptr(gitlab.DisabledAndUnoverridableSharedRunnersSettingValue),
		WikiAccessLevel:            ptr(gitlab.PrivateAccessControl),
		DefaultBranchProtectionDefaults: &gitlab.DefaultBranchProtectionDefaultsOptions{
			AllowedToPush:  ptr([]*gitlab.GroupAccessLevel{{AccessLevel: ptr(gitlab.MaintainerPermissions)}}),
			AllowForcePush: ptr(false),
			AllowedToMerge: ptr([]*gitlab.GroupAccessLevel{{AccessLevel: ptr(gitlab.DeveloperPermissions)}}),
		},
	})
	alice.decodes(t, resp, err, settings)
	if !settings.RequireTwoFactorAuth || settings.TwoFactorGracePeriod != 24 || settings.ProjectCreationLevel != gitlab.MaintainerProjectCreation ||
		settings.SharedRunnersSetting != gitlab.DisabledAndUnoverridableSharedRunnersSettingValue || settings.DefaultBranchProtectionDefaults == nil ||
		len(settings.DefaultBranchProtectionDefaults.AllowedToMerge) != 1 {
		t.Fatalf("settings not applied: %+v", settings)
	}
	back, resp, err := alice.Groups.UpdateGroup("acme", &gitlab.UpdateGroupOptions{
		RequireTwoFactorAuth: ptr(false), MentionsDisabled: ptr(false), LFSEnabled: ptr(true), PreventForkingOutsideGroup: ptr(false),
		SharedRunnersSetting: ptr(gitlab.EnabledSharedRunnersSettingValue), ProjectCreationLevel: ptr(gitlab.DeveloperProjectCreation),
	})
	alice.decodes(t, resp, err, back)

	outsider, maintainer := hosted(t, "outsider"), hosted(t, "maintainer")
	_, resp, err = outsider.Groups.GetGroup("acme", nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Group Not Found")
	_, resp, err = maintainer.Groups.UpdateGroup("acme", &gitlab.UpdateGroupOptions{Description: ptr("not mine")})
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	_, resp, err = alice.Groups.UpdateGroup("beta", &gitlab.UpdateGroupOptions{Visibility: ptr(gitlab.VisibilityValue("secret"))})
	alice.refused(t, resp, err, http.StatusBadRequest, "visibility")
}

func TestProjects(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	project, resp, err := maintainer.Projects.GetProject("acme/web", nil)
	maintainer.decodes(t, resp, err, project)
	if project.PathWithNamespace != "acme/web" {
		t.Fatalf("project %q", project.PathWithNamespace)
	}
	edited, resp, err := maintainer.Projects.EditProject("acme/web", &gitlab.EditProjectOptions{Description: ptr("The public website (Go client)")})
	maintainer.decodes(t, resp, err, edited)
	outsider := hosted(t, "outsider")
	_, resp, err = outsider.Projects.GetProject("acme/web", nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
	guest := hosted(t, "guest")
	_, resp, err = guest.Projects.EditProject("acme/web", &gitlab.EditProjectOptions{Description: ptr("no")})
	guest.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
}

func TestAccessFacts(t *testing.T) {
	root := hosted(t, "root")
	dev, _, err := root.Users.ListUsers(&gitlab.ListUsersOptions{Username: ptr("dev")})
	if err != nil || len(dev) != 1 {
		t.Fatalf("dev: %v", err)
	}
	devID := dev[0].ID
	alice := hosted(t, "alice")
	member, resp, err := alice.GroupMembers.GetInheritedGroupMember("acme/platform", devID)
	alice.decodes(t, resp, err, member)
	if member.AccessLevel != gitlab.DeveloperPermissions {
		t.Fatalf("access level %d", member.AccessLevel)
	}
	projectMember, resp, err := alice.ProjectMembers.GetInheritedProjectMember("acme/platform/infra", devID)
	alice.decodes(t, resp, err, projectMember)
	if projectMember.AccessLevel != gitlab.MaintainerPermissions {
		t.Fatalf("access level %d", projectMember.AccessLevel)
	}
	outsiders, _, err := root.Users.ListUsers(&gitlab.ListUsersOptions{Username: ptr("outsider")})
	if err != nil || len(outsiders) != 1 {
		t.Fatalf("outsider: %v", err)
	}
	_, resp, err = alice.GroupMembers.GetInheritedGroupMember("acme", outsiders[0].ID)
	alice.refused(t, resp, err, http.StatusNotFound, "404 Not found")

	namespace, resp, err := alice.Namespaces.GetNamespace("acme")
	alice.decodes(t, resp, err, namespace)
	if namespace.Plan != "ultimate" {
		t.Fatalf("plan %q", namespace.Plan)
	}

	selfRoot := selfManaged(t, "root")
	license, resp, err := selfRoot.License.GetLicense()
	selfRoot.decodes(t, resp, err, license)
	features, resp, err := root.Features.ListFeatures()
	root.decodes(t, resp, err, features)
	if len(features) == 0 {
		t.Fatal("no feature flags")
	}
	_, resp, err = alice.Features.ListFeatures()
	alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
}
