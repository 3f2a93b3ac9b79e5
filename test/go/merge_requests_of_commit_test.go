package emulator_test

import (
	"net/http"
	"strings"
	"testing"
)

// The merge requests of a commit, which the review's apply job reads to find the
// merge request a commit of the default branch came from.
func TestMergeRequestsOfCommit(t *testing.T) {
	dev := hosted(t, "dev")
	login, resp, err := dev.MergeRequests.GetMergeRequest("acme/web", 1, nil)
	dev.decodes(t, resp, err, login)
	if login.SHA == "" {
		t.Fatalf("merge request !1 has no head commit: %+v", login)
	}
	holding, resp, err := dev.Commits.ListMergeRequestsByCommit("acme/web", login.SHA)
	dev.decodes(t, resp, err, holding)
	found := false
	for _, request := range holding {
		found = found || request.IID == 1
	}
	if !found {
		t.Fatalf("the merge requests of %s do not hold !1: %+v", login.SHA, holding)
	}
	_, resp, err = dev.Commits.ListMergeRequestsByCommit("acme/web", strings.Repeat("0", 40))
	dev.refused(t, resp, err, http.StatusNotFound, "404 Commit Not Found")
}
