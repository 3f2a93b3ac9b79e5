package emulator_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// delivery is one request a receiver got.
type delivery struct {
	header http.Header
	body   map[string]any
}

// receiver is a webhook receiver on loopback answering status, and the deliveries it got.
func receiver(t *testing.T, status int) (*httptest.Server, <-chan delivery) {
	t.Helper()
	got := make(chan delivery, 10)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		var body map[string]any
		_ = json.Unmarshal(raw, &body)
		got <- delivery{header: r.Header.Clone(), body: body}
		w.WriteHeader(status)
		_, _ = w.Write([]byte("received by the Go test"))
	}))
	t.Cleanup(server.Close)
	return server, got
}

// delivered is the delivery the receiver got; the test endpoint delivers before it answers.
func delivered(t *testing.T, got <-chan delivery) delivery {
	t.Helper()
	select {
	case d := <-got:
		return d
	case <-time.After(5 * time.Second):
		t.Fatal("no delivery arrived")
		return delivery{}
	}
}

// headerNames is the names of a hook's custom headers as the answer shows them (names only).
func headerNames(headers []*gitlab.HookCustomHeader) []string {
	names := []string{}
	for _, header := range headers {
		if header.Value != "" {
			names = append(names, "value shown for "+header.Key)
		}
		names = append(names, header.Key)
	}
	return names
}

func TestProjectHooks(t *testing.T) {
	server, got := receiver(t, http.StatusOK)
	maintainer := hosted(t, "maintainer")
	hook, resp, err := maintainer.Projects.AddProjectHook("acme/web", &gitlab.AddProjectHookOptions{
		URL: ptr(server.URL + "/hook"), Name: ptr("go-client"), Token: ptr("go-client-secret-token"),
		MergeRequestsEvents: ptr(true), PushEventsBranchFilter: ptr("main"),
		CustomHeaders: &[]*gitlab.HookCustomHeader{{Key: "X-Team", Value: "platform"}},
	})
	maintainer.decodes(t, resp, err, hook)
	if !hook.PushEvents || !hook.MergeRequestsEvents || hook.TagPushEvents || !hook.EnableSSLVerification || hook.BranchFilterStrategy != "wildcard" ||
		hook.PushEventsBranchFilter != "main" || hook.AlertStatus != "executable" || hook.ProjectID == 0 {
		t.Fatalf("hook %+v", hook)
	}
	if names := headerNames(hook.CustomHeaders); strings.Join(names, ",") != "X-Team" {
		t.Fatalf("custom headers %v", names)
	}
	if raw := string(maintainer.rec.body(t, resp)); strings.Contains(raw, "go-client-secret-token") || strings.Contains(raw, "platform\"") {
		t.Fatalf("the answer shows a secret: %s", raw)
	}

	got1, resp, err := maintainer.Projects.GetProjectHook("acme/web", hook.ID)
	maintainer.decodes(t, resp, err, got1)
	list, resp, err := maintainer.Projects.ListProjectHooks("acme/web", nil)
	maintainer.decodes(t, resp, err, list)
	found := false
	for _, listed := range list {
		if listed.ID == hook.ID {
			found = true
			if listed.CustomHeaders != nil {
				t.Fatalf("a project's list shows custom headers: %+v", listed.CustomHeaders)
			}
		}
	}
	if !found {
		t.Fatalf("hook %d not listed", hook.ID)
	}

	resp, err = maintainer.Projects.SetProjectCustomHeader("acme/web", hook.ID, "X-Extra", &gitlab.SetHookCustomHeaderOptions{Value: ptr("extra")})
	succeeds(t, resp, err, http.StatusNoContent)

	// The test trigger delivers at once, with the event's headers, the token and the custom headers.
	resp, err = maintainer.Projects.TriggerTestProjectHook("acme/web", hook.ID, gitlab.ProjectHookEventPush)
	succeeds(t, resp, err, http.StatusCreated)
	push := delivered(t, got)
	if push.header.Get("X-Gitlab-Event") != "Push Hook" || push.header.Get("X-Gitlab-Token") != "go-client-secret-token" ||
		push.header.Get("X-Team") != "platform" || push.header.Get("X-Extra") != "extra" || push.body["object_kind"] != "push" {
		t.Fatalf("push delivery %v %v", push.header, push.body)
	}
	resp, err = maintainer.Projects.TriggerTestProjectHook("acme/web", hook.ID, gitlab.ProjectHookEventMergeRequests)
	succeeds(t, resp, err, http.StatusCreated)
	if mr := delivered(t, got); mr.header.Get("X-Gitlab-Event") != "Merge Request Hook" {
		t.Fatalf("merge request delivery %v", mr.header)
	}

	resp, err = maintainer.Projects.DeleteProjectCustomHeader("acme/web", hook.ID, "X-Extra")
	succeeds(t, resp, err, http.StatusNoContent)
	resp, err = maintainer.Projects.DeleteProjectCustomHeader("acme/web", hook.ID, "X-Extra")
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Custom header Not Found")

	// A new URL drops the token and the custom headers the edit does not send again.
	failing, failures := receiver(t, http.StatusInternalServerError)
	edited, resp, err := maintainer.Projects.EditProjectHook("acme/web", hook.ID, &gitlab.EditProjectHookOptions{URL: ptr(failing.URL), Name: ptr("go-client-2")})
	maintainer.decodes(t, resp, err, edited)
	if edited.Name != "go-client-2" || edited.URL != failing.URL || len(edited.CustomHeaders) != 0 {
		t.Fatalf("edited %+v", edited)
	}
	// A receiver's failure is the test's 422, in the receiver's words.
	resp, err = maintainer.Projects.TriggerTestProjectHook("acme/web", hook.ID, gitlab.ProjectHookEventPush)
	maintainer.refused(t, resp, err, http.StatusUnprocessableEntity, "received by the Go test")
	if failed := delivered(t, failures); failed.header.Get("X-Gitlab-Token") != "" || failed.header.Get("X-Team") != "" {
		t.Fatalf("the token or headers outlived the URL: %v", failed.header)
	}

	_, resp, err = maintainer.Projects.EditProjectHook("acme/web", hook.ID, &gitlab.EditProjectHookOptions{})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "No parameters provided")
	_, resp, err = maintainer.Projects.AddProjectHook("acme/web", &gitlab.AddProjectHookOptions{URL: ptr("ftp://files.example.test/hook")})
	maintainer.refused(t, resp, err, http.StatusUnprocessableEntity, `{"error":"Invalid url given"}`)
	_, resp, err = maintainer.Projects.AddProjectHook("acme/web", &gitlab.AddProjectHookOptions{
		URL: ptr(server.URL), CustomHeaders: &[]*gitlab.HookCustomHeader{{Key: "Bad Header", Value: "x"}},
	})
	maintainer.refused(t, resp, err, http.StatusUnprocessableEntity, `{"error":"Custom headers validation failed"}`)
	resp, err = maintainer.Projects.SetProjectCustomHeader("acme/web", hook.ID, "Bad Header", &gitlab.SetHookCustomHeaderOptions{Value: ptr("x")})
	maintainer.refused(t, resp, err, http.StatusUnprocessableEntity, `{"error":"Illegal key or value"}`)

	dev, outsider := hosted(t, "dev"), hosted(t, "outsider")
	_, resp, err = dev.Projects.ListProjectHooks("acme/web", nil)
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	_, resp, err = outsider.Projects.GetProjectHook("acme/web", hook.ID)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")

	resp, err = maintainer.Projects.DeleteProjectHook("acme/web", hook.ID)
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = maintainer.Projects.GetProjectHook("acme/web", hook.ID)
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")
}

// Group hooks: an Owner of a group on Premium or up (acme is Ultimate); a Free group has none.
func TestGroupHooks(t *testing.T) {
	server, got := receiver(t, http.StatusAccepted)
	alice := hosted(t, "alice")
	hook, resp, err := alice.Groups.AddGroupHook("acme", &gitlab.AddGroupHookOptions{
		URL: ptr(server.URL), Token: ptr("group-secret-token"), SubGroupEvents: ptr(true), TagPushEvents: ptr(true),
		PushEventsBranchFilter: ptr("^release/.*$"), BranchFilterStrategy: ptr("regex"),
	})
	alice.decodes(t, resp, err, hook)
	if hook.GroupID == 0 || !hook.SubGroupEvents || !hook.TagPushEvents || !hook.PushEvents || hook.BranchFilterStrategy != "regex" {
		t.Fatalf("hook %+v", hook)
	}
	resp, err = alice.Groups.SetGroupCustomHeader("acme", hook.ID, "X-Source", &gitlab.SetHookCustomHeaderOptions{Value: ptr("group")})
	succeeds(t, resp, err, http.StatusNoContent)
	// A group's list shows the custom headers' names.
	list, resp, err := alice.Groups.ListGroupHooks("acme", nil)
	alice.decodes(t, resp, err, list)
	var listed *gitlab.GroupHook
	for _, candidate := range list {
		if candidate.ID == hook.ID {
			listed = candidate
		}
	}
	if listed == nil || strings.Join(headerNames(listed.CustomHeaders), ",") != "X-Source" {
		t.Fatalf("listed %+v", listed)
	}
	one, resp, err := alice.Groups.GetGroupHook("acme", hook.ID)
	alice.decodes(t, resp, err, one)

	resp, err = alice.Groups.TriggerTestGroupHook("acme", hook.ID, gitlab.GroupHookTriggerPush)
	succeeds(t, resp, err, http.StatusCreated)
	push := delivered(t, got)
	if push.header.Get("X-Gitlab-Event") != "Push Hook" || push.header.Get("X-Gitlab-Token") != "group-secret-token" || push.header.Get("X-Source") != "group" {
		t.Fatalf("push delivery %v", push.header)
	}
	project, _ := push.body["project"].(map[string]any)
	if namespace, _ := project["path_with_namespace"].(string); !strings.HasPrefix(namespace, "acme/") {
		t.Fatalf("the test push is of no project of the group: %v", push.body["project"])
	}

	edited, resp, err := alice.Groups.EditGroupHook("acme", hook.ID, &gitlab.EditGroupHookOptions{BranchFilterStrategy: ptr("all_branches"), MemberEvents: ptr(true)})
	alice.decodes(t, resp, err, edited)
	if edited.PushEventsBranchFilter != "" || !edited.MemberEvents {
		t.Fatalf("edited %+v", edited)
	}
	_, resp, err = alice.Groups.EditGroupHook("acme", hook.ID, &gitlab.EditGroupHookOptions{PushEventsBranchFilter: ptr("(unclosed"), BranchFilterStrategy: ptr("regex")})
	alice.refused(t, resp, err, http.StatusUnprocessableEntity, `{"error":"Invalid branch filter given"}`)
	resp, err = alice.Groups.DeleteGroupCustomHeader("acme", hook.ID, "X-Source")
	succeeds(t, resp, err, http.StatusNoContent)

	maintainer := hosted(t, "maintainer")
	_, resp, err = maintainer.Groups.ListGroupHooks("acme", nil)
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	// beta is Free: group webhooks are a Premium feature, refused even to its Owner.
	_, resp, err = alice.Groups.AddGroupHook("beta", &gitlab.AddGroupHookOptions{URL: ptr(server.URL)})
	alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	resp, err = alice.Groups.DeleteGroupHook("acme", hook.ID)
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = alice.Groups.GetGroupHook("acme", hook.ID)
	alice.refused(t, resp, err, http.StatusNotFound, "404 Not found")
}
