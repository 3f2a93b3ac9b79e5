package emulator_test

import (
	"net/http"
	"strings"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestMergeRequests(t *testing.T) {
	dev, maintainer := hosted(t, "dev"), hosted(t, "maintainer")
	mine, resp, err := dev.MergeRequests.ListMergeRequests(&gitlab.ListMergeRequestsOptions{})
	dev.decodes(t, resp, err, mine)
	if len(mine) == 0 {
		t.Fatal("dev has no merge requests")
	}
	filtered, resp, err := dev.MergeRequests.ListMergeRequests(&gitlab.ListMergeRequestsOptions{Scope: ptr("all"), State: ptr("opened"), Labels: &gitlab.LabelOptions{"feature"}})
	dev.decodes(t, resp, err, filtered)

	login, resp, err := dev.MergeRequests.GetMergeRequest("acme/web", 1, &gitlab.GetMergeRequestsOptions{IncludeDivergedCommitsCount: ptr(true), IncludeRebaseInProgress: ptr(true), RenderHTML: ptr(true)})
	dev.decodes(t, resp, err, login)
	if login.Title != "Add the login page" || login.DivergedCommitsCount != 2 || login.Author.Username != "dev" {
		t.Fatalf("merge request %+v", login)
	}
	merged, resp, err := dev.MergeRequests.GetMergeRequest("acme/web", 3, nil)
	dev.decodes(t, resp, err, merged)
	if merged.State != "merged" || merged.MergedAt == nil {
		t.Fatalf("merged %+v", merged)
	}
	diffs, resp, err := dev.MergeRequests.ListMergeRequestDiffs("acme/web", 1, &gitlab.ListMergeRequestDiffsOptions{})
	dev.decodes(t, resp, err, diffs)
	if len(diffs) != 3 || !diffs[0].NewFile {
		t.Fatalf("diffs %+v", diffs)
	}
	changes, resp, err := dev.MergeRequests.GetMergeRequestChanges("acme/web", 1, &gitlab.GetMergeRequestChangesOptions{})
	dev.decodes(t, resp, err, changes)
	rawDiffs, resp, err := dev.MergeRequests.ShowMergeRequestRawDiffs("acme/web", 1, nil)
	if err != nil || !strings.Contains(string(rawDiffs), "diff --git a/src/login.js b/src/login.js") {
		t.Fatalf("raw diffs %q: %v", rawDiffs, err)
	}

	created, resp, err := dev.MergeRequests.CreateMergeRequest("acme/web", &gitlab.CreateMergeRequestOptions{
		Title: ptr("Add search (Go client)"), SourceBranch: ptr("feature/search"), TargetBranch: ptr("main"), Labels: &gitlab.LabelOptions{"feature"}, RemoveSourceBranch: ptr(true),
	})
	dev.decodes(t, resp, err, created)
	if created.SourceBranch != "feature/search" || created.State != "opened" {
		t.Fatalf("created %+v", created)
	}
	updated, resp, err := dev.MergeRequests.UpdateMergeRequest("acme/web", created.IID, &gitlab.UpdateMergeRequestOptions{Title: ptr("Draft: Add search (Go client)"), AddLabels: &gitlab.LabelOptions{"frontend"}})
	dev.decodes(t, resp, err, updated)
	if !updated.Draft || len(updated.Labels) != 2 {
		t.Fatalf("updated %+v", updated)
	}
	closed, resp, err := maintainer.MergeRequests.UpdateMergeRequest("acme/web", created.IID, &gitlab.UpdateMergeRequestOptions{StateEvent: ptr("close")})
	maintainer.decodes(t, resp, err, closed)
	if closed.State != "closed" {
		t.Fatalf("state %q", closed.State)
	}

	pipelines, resp, err := dev.MergeRequests.ListMergeRequestPipelines("acme/web", 1)
	dev.decodes(t, resp, err, pipelines)
	if len(pipelines) == 0 {
		t.Fatal("no pipelines")
	}
	pipeline, resp, err := dev.MergeRequests.CreateMergeRequestPipeline("acme/web", 1)
	dev.decodes(t, resp, err, pipeline)
	if pipeline.Source != "merge_request_event" {
		t.Fatalf("pipeline %+v", pipeline)
	}

	_, resp, err = dev.MergeRequests.CreateMergeRequest("acme/web", &gitlab.CreateMergeRequestOptions{SourceBranch: ptr("feature/search"), TargetBranch: ptr("main")})
	dev.refused(t, resp, err, http.StatusBadRequest, "title is missing")
	_, resp, err = dev.MergeRequests.UpdateMergeRequest("acme/web", 1, &gitlab.UpdateMergeRequestOptions{})
	dev.refused(t, resp, err, http.StatusBadRequest, "at least one parameter must be provided")
	_, resp, err = dev.MergeRequests.GetMergeRequest("acme/web", 999, nil)
	dev.refused(t, resp, err, http.StatusNotFound, "404 Not found")
	outsider, guest := hosted(t, "outsider"), hosted(t, "guest")
	_, resp, err = outsider.MergeRequests.GetMergeRequest("acme/web", 1, nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
	_, resp, err = guest.MergeRequests.CreateMergeRequest("acme/web", &gitlab.CreateMergeRequestOptions{Title: ptr("no"), SourceBranch: ptr("feature/search"), TargetBranch: ptr("main")})
	guest.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
}
