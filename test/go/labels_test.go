package emulator_test

import (
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// A group's label: made from a CSS color name, found by name, renamed, removed.
func TestGroupLabels(t *testing.T) {
	alice := hosted(t, "alice")
	label, resp, err := alice.GroupLabels.CreateGroupLabel("acme", &gitlab.CreateGroupLabelOptions{
		Name: ptr("go-client-group"), Color: ptr("red"), Description: ptr("made by the <b>Go</b> client"),
	})
	alice.decodes(t, resp, err, label)
	if label.Name != "go-client-group" || label.Color != "#FF0000" || label.Description != "made by the Go client" || label.IsProjectLabel {
		t.Fatalf("label %+v", label)
	}
	_, resp, err = alice.GroupLabels.CreateGroupLabel("acme", &gitlab.CreateGroupLabelOptions{Name: ptr("go-client-group"), Color: ptr("#000000")})
	alice.refused(t, resp, err, http.StatusConflict, "Label already exists")
	_, resp, err = alice.GroupLabels.CreateGroupLabel("acme", &gitlab.CreateGroupLabelOptions{Name: ptr("go-client-bad"), Color: ptr("not-a-color")})
	alice.refused(t, resp, err, http.StatusBadRequest, `{"message":{"color":["must be a valid color code"]}}`)

	byName, resp, err := alice.GroupLabels.GetGroupLabel("acme", "go-client-group")
	alice.decodes(t, resp, err, byName)
	byID, resp, err := alice.GroupLabels.GetGroupLabel("acme", label.ID)
	alice.decodes(t, resp, err, byID)
	if byName.ID != label.ID || byID.Name != label.Name {
		t.Fatalf("by name %+v, by id %+v", byName, byID)
	}
	found, resp, err := alice.GroupLabels.ListGroupLabels("acme", &gitlab.ListGroupLabelsOptions{Search: ptr("GO CLIENT")})
	alice.decodes(t, resp, err, found)
	if len(found) != 1 || found[0].ID != label.ID {
		t.Fatalf("search %+v", found)
	}

	renamed, resp, err := alice.GroupLabels.UpdateGroupLabel("acme", label.ID, &gitlab.UpdateGroupLabelOptions{NewName: ptr("go-client-renamed"), Color: ptr("#0f0")})
	alice.decodes(t, resp, err, renamed)
	if renamed.ID != label.ID || renamed.Name != "go-client-renamed" || renamed.Color != "#0f0" {
		t.Fatalf("renamed %+v", renamed)
	}
	_, resp, err = alice.GroupLabels.UpdateGroupLabel("acme", label.ID, &gitlab.UpdateGroupLabelOptions{})
	alice.refused(t, resp, err, http.StatusBadRequest, "at least one parameter must be provided")

	guest := hosted(t, "guest")
	_, resp, err = guest.GroupLabels.CreateGroupLabel("acme", &gitlab.CreateGroupLabelOptions{Name: ptr("by-guest"), Color: ptr("#123456")})
	guest.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	list, resp, err := guest.GroupLabels.ListGroupLabels("acme", nil)
	guest.decodes(t, resp, err, list)

	resp, err = alice.GroupLabels.DeleteGroupLabel("acme", "go-client-renamed", nil)
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = alice.GroupLabels.GetGroupLabel("acme", label.ID)
	alice.refused(t, resp, err, http.StatusNotFound, "404 Label Not Found")
}

// A project's label beside its group's: priorities, a rename that may not take the group's name.
func TestProjectLabels(t *testing.T) {
	alice, maintainer := hosted(t, "alice"), hosted(t, "maintainer")
	group, resp, err := alice.GroupLabels.CreateGroupLabel("acme", &gitlab.CreateGroupLabelOptions{Name: ptr("go-client-shared"), Color: ptr("#336699")})
	alice.decodes(t, resp, err, group)
	t.Cleanup(func() { _, _ = alice.GroupLabels.DeleteGroupLabel("acme", group.ID, nil) })

	label, resp, err := maintainer.Labels.CreateLabel("acme/web", &gitlab.CreateLabelOptions{
		Name: ptr("go-client"), Color: ptr("#abcdef"), Description: ptr("from Go"), Priority: ptr(int64(3)),
	})
	maintainer.decodes(t, resp, err, label)
	if label.Name != "go-client" || label.Color != "#abcdef" || label.Priority != 3 || !label.IsProjectLabel {
		t.Fatalf("label %+v", label)
	}
	// The group's label is seen through the project: its name is taken there.
	_, resp, err = maintainer.Labels.CreateLabel("acme/web", &gitlab.CreateLabelOptions{Name: ptr("go-client-shared"), Color: ptr("#000000")})
	maintainer.refused(t, resp, err, http.StatusConflict, "Label already exists")
	_, resp, err = maintainer.Labels.UpdateLabel("acme/web", label.ID, &gitlab.UpdateLabelOptions{NewName: ptr("go-client-shared")})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "already exists at group level for Acme. Please choose another one.")

	list, resp, err := maintainer.Labels.ListLabels("acme/web", &gitlab.ListLabelsOptions{Search: ptr("go-client"), ListOptions: gitlab.ListOptions{PerPage: 100}})
	maintainer.decodes(t, resp, err, list)
	kinds := map[string]bool{}
	for _, listed := range list {
		kinds[listed.Name] = listed.IsProjectLabel
	}
	if len(kinds) != 2 || !kinds["go-client"] || kinds["go-client-shared"] {
		t.Fatalf("listed %v", kinds)
	}
	seen, resp, err := maintainer.Labels.GetLabel("acme/web", "go-client-shared")
	maintainer.decodes(t, resp, err, seen)
	if seen.ID != group.ID || seen.IsProjectLabel {
		t.Fatalf("the group's label through the project %+v", seen)
	}

	updated, resp, err := maintainer.Labels.UpdateLabel("acme/web", "go-client", &gitlab.UpdateLabelOptions{NewName: ptr("go-client-2"), Priority: ptr(int64(1)), Description: ptr("")})
	maintainer.decodes(t, resp, err, updated)
	if updated.ID != label.ID || updated.Name != "go-client-2" || updated.Priority != 1 || updated.Description != "" {
		t.Fatalf("updated %+v", updated)
	}
	_, resp, err = maintainer.Labels.CreateLabel("acme/web", &gitlab.CreateLabelOptions{Name: ptr("a,b"), Color: ptr("#000000")})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "title")
	guest := hosted(t, "guest")
	_, resp, err = guest.Labels.CreateLabel("acme/web", &gitlab.CreateLabelOptions{Name: ptr("by-guest"), Color: ptr("#000000")})
	guest.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	outsider := hosted(t, "outsider")
	_, resp, err = outsider.Labels.ListLabels("acme/web", nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")

	resp, err = maintainer.Labels.DeleteLabel("acme/web", label.ID, nil)
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = maintainer.Labels.GetLabel("acme/web", label.ID)
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Label Not Found")
}
