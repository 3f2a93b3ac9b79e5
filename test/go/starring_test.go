package emulator_test

import (
	"errors"
	"io"
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestStarring(t *testing.T) {
	root := hosted(t, "root")
	starred, resp, err := root.Projects.StarProject("acme/api")
	root.decodes(t, resp, err, starred)
	if resp.StatusCode != http.StatusCreated || starred.StarCount != 2 {
		t.Fatalf("status %d, star count %d", resp.StatusCode, starred.StarCount)
	}
	// Starring again: real servers answer 304 Not Modified with no body;
	// client-go counts a 304 as success and then fails to decode the empty body.
	_, resp, err = root.Projects.StarProject("acme/api")
	if resp == nil || resp.StatusCode != http.StatusNotModified || !errors.Is(err, io.EOF) {
		t.Fatalf("second star: %v %v", resp, err)
	}
	if body := root.rec.body(t, resp); len(body) != 0 {
		t.Fatalf("a 304 with a body: %q", body)
	}

	starrers, resp, err := root.Projects.ListProjectStarrers("acme/api", &gitlab.ListProjectStarrersOptions{})
	root.decodes(t, resp, err, starrers)
	if len(starrers) != 2 {
		t.Fatalf("starrers %+v", starrers)
	}
	projects, resp, err := root.Projects.ListUserStarredProjects("alice", &gitlab.ListProjectsOptions{})
	root.decodes(t, resp, err, projects)
	if len(projects) != 3 {
		t.Fatalf("alice's starred projects %d", len(projects))
	}
	anonymous := hosted(t, "")
	simple, resp, err := anonymous.Projects.ListUserStarredProjects("outsider", &gitlab.ListProjectsOptions{Simple: ptr(true)})
	anonymous.decodes(t, resp, err, simple)
	if len(simple) != 1 {
		t.Fatalf("outsider's starred projects %+v", simple)
	}

	unstarred, resp, err := root.Projects.UnstarProject("acme/api")
	root.decodes(t, resp, err, unstarred)
	if resp.StatusCode != http.StatusCreated || unstarred.StarCount != 1 {
		t.Fatalf("unstar: status %d, star count %d", resp.StatusCode, unstarred.StarCount)
	}
	outsider := hosted(t, "outsider")
	_, resp, err = outsider.Projects.StarProject("acme/web")
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
	_, resp, err = root.Projects.ListUserStarredProjects("nobody-here", nil)
	root.refused(t, resp, err, http.StatusNotFound, "404 User Not Found")
	_, resp, err = anonymous.Projects.StarProject("beta/site")
	anonymous.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")
}
