package emulator_test

import (
	"fmt"
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestEpicLinks(t *testing.T) {
	alice := hosted(t, "alice")
	children, resp, err := alice.Epics.GetEpicLinks("acme", 1)
	alice.decodes(t, resp, err, children)
	if len(children) != 3 || children[0].Title != "Self-serve onboarding" {
		t.Fatalf("children %+v", children)
	}

	// client-go has no call that links an existing epic (its UpdateEpic sets
	// parent_id through PUT /groups/:id/epics/:iid): the link goes through
	// its request layer, and the answer decodes into its Epic.
	darkMode := int64(5)
	req, err := alice.NewRequest(http.MethodPost, fmt.Sprintf("groups/acme/epics/1/epics/%d", darkMode), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var linked gitlab.Epic
	resp, err = alice.Do(req, &linked)
	alice.decodes(t, resp, err, &linked)
	if linked.ID != darkMode || linked.ParentID != 1 {
		t.Fatalf("linked %+v", linked)
	}
	after, resp, err := alice.Epics.GetEpicLinks("acme", 1)
	alice.decodes(t, resp, err, after)
	if len(after) != 4 {
		t.Fatalf("children after linking %d", len(after))
	}
	req, _ = alice.NewRequest(http.MethodDelete, fmt.Sprintf("groups/acme/epics/1/epics/%d", darkMode), nil, nil)
	var unlinked gitlab.Epic
	resp, err = alice.Do(req, &unlinked)
	alice.decodes(t, resp, err, &unlinked)

	_, resp, err = alice.Epics.GetEpicLinks("acme", 99)
	alice.refused(t, resp, err, http.StatusNotFound, "404 Epic Not Found")
	_, resp, err = alice.Epics.GetEpicLinks("beta", 1)
	alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	outsider := hosted(t, "outsider")
	_, resp, err = outsider.Epics.GetEpicLinks("acme", 1)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Group Not Found")
}
