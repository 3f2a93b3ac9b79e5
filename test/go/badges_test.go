package emulator_test

import (
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestProjectBadges(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	badge, resp, err := maintainer.ProjectBadges.AddProjectBadge("acme/web", &gitlab.AddProjectBadgeOptions{
		LinkURL: ptr("https://ci.example.test/%{project_path}"), ImageURL: ptr("https://ci.example.test/%{project_path}/%{default_branch}.svg"), Name: ptr("go-client"),
	})
	maintainer.decodes(t, resp, err, badge)
	if badge.RenderedLinkURL != "https://ci.example.test/acme/web" || badge.Kind != "project" {
		t.Fatalf("badge %+v", badge)
	}
	got, resp, err := maintainer.ProjectBadges.GetProjectBadge("acme/web", badge.ID)
	maintainer.decodes(t, resp, err, got)
	list, resp, err := maintainer.ProjectBadges.ListProjectBadges("acme/web", &gitlab.ListProjectBadgesOptions{Name: ptr("go-client")})
	maintainer.decodes(t, resp, err, list)
	if len(list) != 1 || list[0].ID != badge.ID {
		t.Fatalf("list %+v", list)
	}
	edited, resp, err := maintainer.ProjectBadges.EditProjectBadge("acme/web", badge.ID, &gitlab.EditProjectBadgeOptions{Name: ptr("go-client-2")})
	maintainer.decodes(t, resp, err, edited)
	preview, resp, err := maintainer.ProjectBadges.PreviewProjectBadge("acme/web", &gitlab.ProjectBadgePreviewOptions{LinkURL: ptr("https://x.test/%{project_id}"), ImageURL: ptr("https://x.test/b.svg")})
	maintainer.decodes(t, resp, err, preview)

	guest := hosted(t, "guest")
	_, resp, err = guest.ProjectBadges.AddProjectBadge("acme/web", &gitlab.AddProjectBadgeOptions{LinkURL: ptr("https://a.test"), ImageURL: ptr("https://a.test/b.svg")})
	guest.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	_, resp, err = maintainer.ProjectBadges.AddProjectBadge("acme/web", &gitlab.AddProjectBadgeOptions{LinkURL: ptr("https://a.test")})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "image_url is missing")

	resp, err = maintainer.ProjectBadges.DeleteProjectBadge("acme/web", badge.ID)
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = maintainer.ProjectBadges.GetProjectBadge("acme/web", badge.ID)
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")
}

func TestGroupBadges(t *testing.T) {
	alice := hosted(t, "alice")
	badge, resp, err := alice.GroupBadges.AddGroupBadge("acme", &gitlab.AddGroupBadgeOptions{
		LinkURL: ptr("https://ci.example.test/%{project_path}"), ImageURL: ptr("https://ci.example.test/badge.svg"), Name: ptr("go-client"),
	})
	alice.decodes(t, resp, err, badge)
	if badge.Kind != "group" {
		t.Fatalf("badge %+v", badge)
	}
	got, resp, err := alice.GroupBadges.GetGroupBadge("acme", badge.ID)
	alice.decodes(t, resp, err, got)
	list, resp, err := alice.GroupBadges.ListGroupBadges("acme", &gitlab.ListGroupBadgesOptions{})
	alice.decodes(t, resp, err, list)
	edited, resp, err := alice.GroupBadges.EditGroupBadge("acme", badge.ID, &gitlab.EditGroupBadgeOptions{ImageURL: ptr("https://ci.example.test/other.svg")})
	alice.decodes(t, resp, err, edited)
	preview, resp, err := alice.GroupBadges.PreviewGroupBadge("acme", &gitlab.GroupBadgePreviewOptions{LinkURL: ptr("https://x.test"), ImageURL: ptr("https://x.test/b.svg")})
	alice.decodes(t, resp, err, preview)

	dev := hosted(t, "dev")
	_, resp, err = dev.GroupBadges.EditGroupBadge("acme", badge.ID, &gitlab.EditGroupBadgeOptions{Name: ptr("no")})
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	resp, err = alice.GroupBadges.DeleteGroupBadge("acme", badge.ID)
	succeeds(t, resp, err, http.StatusNoContent)
	anonymous := hosted(t, "")
	_, resp, err = anonymous.GroupBadges.ListGroupBadges("acme", nil)
	anonymous.refused(t, resp, err, http.StatusNotFound, "404 Group Not Found")
}
