package emulator_test

import (
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestMergeRequestNotesAndProjectList(t *testing.T) {
	dev := hosted(t, "dev")
	projectList, resp, err := dev.MergeRequests.ListProjectMergeRequests("acme/web", &gitlab.ListProjectMergeRequestsOptions{State: ptr("all")})
	dev.decodes(t, resp, err, projectList)
	if len(projectList) < 5 {
		t.Fatalf("acme/web merge requests %d", len(projectList))
	}
	byIID, resp, err := dev.MergeRequests.ListProjectMergeRequests("acme/web", &gitlab.ListProjectMergeRequestsOptions{IIDs: ptr([]int64{1, 3})})
	dev.decodes(t, resp, err, byIID)
	if len(byIID) != 2 {
		t.Fatalf("by iid %+v", byIID)
	}

	notes, resp, err := dev.Notes.ListMergeRequestNotes("acme/web", 1, &gitlab.ListMergeRequestNotesOptions{OrderBy: ptr("created_at"), Sort: ptr("asc")})
	dev.decodes(t, resp, err, notes)
	if len(notes) == 0 {
		t.Fatal("no notes")
	}
	first, resp, err := dev.Notes.GetMergeRequestNote("acme/web", 1, notes[0].ID)
	dev.decodes(t, resp, err, first)
	note, resp, err := dev.Notes.CreateMergeRequestNote("acme/web", 1, &gitlab.CreateMergeRequestNoteOptions{Body: ptr("Checked with the Go client.")})
	dev.decodes(t, resp, err, note)
	if note.Author.Username != "dev" || note.NoteableType != "MergeRequest" || note.NoteableIID != 1 {
		t.Fatalf("note %+v", note)
	}
	edited, resp, err := dev.Notes.UpdateMergeRequestNote("acme/web", 1, note.ID, &gitlab.UpdateMergeRequestNoteOptions{Body: ptr("Checked with the Go client, twice.")})
	dev.decodes(t, resp, err, edited)
	if edited.Body != "Checked with the Go client, twice." {
		t.Fatalf("edited %+v", edited)
	}

	_, resp, err = dev.Notes.CreateMergeRequestNote("acme/web", 1, &gitlab.CreateMergeRequestNoteOptions{})
	dev.refused(t, resp, err, http.StatusBadRequest, "body is missing")
	// admin_note: the author or Maintainer+; another Developer's note is not hers.
	alice := hosted(t, "alice")
	mine, _, err := alice.Notes.CreateMergeRequestNote("acme/web", 1, &gitlab.CreateMergeRequestNoteOptions{Body: ptr("Alice's note.")})
	if err != nil {
		t.Fatal(err)
	}
	_, resp, err = dev.Notes.UpdateMergeRequestNote("acme/web", 1, mine.ID, &gitlab.UpdateMergeRequestNoteOptions{Body: ptr("not mine")})
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	outsider := hosted(t, "outsider")
	_, resp, err = outsider.MergeRequests.ListProjectMergeRequests("acme/web", nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
}

func TestOneEpic(t *testing.T) {
	guest := hosted(t, "guest")
	epic, resp, err := guest.Epics.GetEpic("acme", 2)
	guest.decodes(t, resp, err, epic)
	if epic.IID != 2 || epic.ParentID != 1 || epic.Title != "Self-serve onboarding" {
		t.Fatalf("epic %+v", epic)
	}
	_, resp, err = guest.Epics.GetEpic("acme", 99)
	guest.refused(t, resp, err, http.StatusNotFound, "404 Epic Not Found")
	alice := hosted(t, "alice")
	_, resp, err = alice.Epics.GetEpic("beta", 1)
	alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
}

func TestGroupAccessTokens(t *testing.T) {
	alice := hosted(t, "alice")
	// Active ones: the list keeps revoked tokens too, which other tests leave.
	tokens, resp, err := alice.GroupAccessTokens.ListGroupAccessTokens("acme", &gitlab.ListGroupAccessTokensOptions{State: ptr(gitlab.AccessTokenStateActive)})
	alice.decodes(t, resp, err, tokens)
	if len(tokens) != 1 || tokens[0].Name != "acme-ci" || tokens[0].AccessLevel != gitlab.DeveloperPermissions || tokens[0].Token != "" {
		t.Fatalf("tokens %+v", tokens)
	}
	// Below Owner the real endpoint answers 401, not 403.
	maintainer := hosted(t, "maintainer")
	_, resp, err = maintainer.GroupAccessTokens.ListGroupAccessTokens("acme", nil)
	maintainer.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")
}

func TestProjectVulnerabilities(t *testing.T) {
	dev := hosted(t, "dev")
	vulnerabilities, resp, err := dev.ProjectVulnerabilities.ListProjectVulnerabilities("acme/web", &gitlab.ListProjectVulnerabilitiesOptions{ListOptions: gitlab.ListOptions{PerPage: 100}})
	dev.decodes(t, resp, err, vulnerabilities)
	found := false
	for _, vulnerability := range vulnerabilities {
		if vulnerability.ID == 7001 {
			found = vulnerability.Title == "Cross-site scripting in comment view" && vulnerability.Severity == "high" && vulnerability.State == "detected"
		}
	}
	if !found {
		t.Fatalf("no vulnerability 7001 in %+v", vulnerabilities)
	}
	alice := hosted(t, "alice")
	_, resp, err = alice.ProjectVulnerabilities.ListProjectVulnerabilities("beta/site", nil)
	alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	anonymous := hosted(t, "")
	_, resp, err = anonymous.ProjectVulnerabilities.ListProjectVulnerabilities("acme/web", nil)
	anonymous.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")
}

func TestErrorTrackingSettings(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	settings, resp, err := maintainer.ErrorTracking.GetErrorTrackingSettings("acme/web")
	maintainer.decodes(t, resp, err, settings)
	if !settings.Active || !settings.Integrated {
		t.Fatalf("settings %+v", settings)
	}
	_, resp, err = maintainer.ErrorTracking.GetErrorTrackingSettings("acme/api")
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Error Tracking Setting Not Found")
	dev := hosted(t, "dev")
	_, resp, err = dev.ErrorTracking.GetErrorTrackingSettings("acme/web")
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
}

// client-go reads a project's integrations under /projects/:id/services, the
// older path real servers still serve for API v4 beside /integrations.
func TestProjectIntegrations(t *testing.T) {
	alice, maintainer := hosted(t, "alice"), hosted(t, "maintainer")
	_, resp, err := alice.Integrations.SetGroupSlackSettings("acme/platform", &gitlab.SetGroupSlackOptions{
		Webhook: ptr("https://hooks.slack.example.test/services/T1/B1/YYYY"), Channel: ptr("#infra"),
	})
	if err != nil {
		t.Fatal(err)
	}
	services, resp, err := maintainer.Services.ListServices("acme/platform/infra")
	maintainer.decodes(t, resp, err, services)
	var listed *gitlab.Service
	for _, service := range services {
		if service.Slug == "slack" {
			listed = service
		}
	}
	if listed == nil || !listed.Inherited {
		t.Fatalf("services %+v", services)
	}
	// The closest group's settings: acme/platform's, not acme's.
	slack, resp, err := maintainer.Services.GetSlackService("acme/platform/infra")
	maintainer.decodes(t, resp, err, slack)
	if slack.ID != listed.ID || slack.Properties.Channel != "#infra" {
		t.Fatalf("slack %+v", slack)
	}
	_, resp, err = maintainer.Services.GetJiraService("acme/platform/infra")
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Integration Not Found")
	dev := hosted(t, "dev")
	_, resp, err = dev.Services.ListServices("acme/web")
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
}
