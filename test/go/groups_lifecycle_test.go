package emulator_test

import (
	"net/http"
	"testing"
	"time"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// A subgroup's life on the hosted (Enterprise Edition) emulator: created,
// renamed, transferred, marked for deletion, restored, then removed for good.
func TestGroupLifecycle(t *testing.T) {
	alice := hosted(t, "alice")
	acme, resp, err := alice.Groups.GetGroup("acme", nil)
	alice.decodes(t, resp, err, acme)
	beta, resp, err := alice.Groups.GetGroup("beta", nil)
	alice.decodes(t, resp, err, beta)

	group, resp, err := alice.Groups.CreateGroup(&gitlab.CreateGroupOptions{
		Name: ptr("Go Client"), Path: ptr("go-client"), ParentID: ptr(acme.ID), Description: ptr("made by the Go client"),
	})
	alice.decodes(t, resp, err, group)
	removesGroupAfter(t, alice, group.ID)
	if group.FullPath != "acme/go-client" || group.ParentID != acme.ID || group.Visibility != gitlab.PrivateVisibility || group.MarkedForDeletionOn != nil {
		t.Fatalf("group %+v", group)
	}
	_, resp, err = alice.Groups.CreateGroup(&gitlab.CreateGroupOptions{Name: ptr("Go Client again"), Path: ptr("go-client"), ParentID: ptr(acme.ID)})
	alice.refused(t, resp, err, http.StatusBadRequest, `Failed to save group {:path=>[\"has already been taken\"]}`)
	_, resp, err = alice.Groups.CreateGroup(&gitlab.CreateGroupOptions{Name: ptr("Top"), Path: ptr("go-client-top")})
	alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	guest := hosted(t, "guest")
	_, resp, err = guest.Groups.CreateGroup(&gitlab.CreateGroupOptions{Name: ptr("By a guest"), Path: ptr("by-guest"), ParentID: ptr(acme.ID)})
	guest.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	maintainer := hosted(t, "maintainer")
	resp, err = maintainer.Groups.DeleteGroup(group.ID, nil)
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	_, resp, err = maintainer.Groups.TransferSubGroup(group.ID, &gitlab.TransferSubGroupOptions{GroupID: ptr(beta.ID)})
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	// A rename: the group keeps its id; its former path finds nothing
	// (find_group looks the path up without following redirects).
	renamed, resp, err := alice.Groups.UpdateGroup(group.ID, &gitlab.UpdateGroupOptions{Path: ptr("go-client-renamed")})
	alice.decodes(t, resp, err, renamed)
	if renamed.ID != group.ID || renamed.FullPath != "acme/go-client-renamed" {
		t.Fatalf("renamed %+v", renamed)
	}
	_, resp, err = alice.Groups.GetGroup("acme/go-client", nil)
	alice.refused(t, resp, err, http.StatusNotFound, "404 Group Not Found")

	moved, resp, err := alice.Groups.TransferSubGroup(group.ID, &gitlab.TransferSubGroupOptions{GroupID: ptr(beta.ID)})
	alice.decodes(t, resp, err, moved)
	if moved.FullPath != "beta/go-client-renamed" || moved.ParentID != beta.ID {
		t.Fatalf("moved %+v", moved)
	}
	_, resp, err = alice.Groups.TransferSubGroup(group.ID, &gitlab.TransferSubGroupOptions{GroupID: ptr(beta.ID)})
	alice.refused(t, resp, err, http.StatusBadRequest, "Transfer failed: Group is already associated to the parent group.")
	// To the top level: not on the hosted offering, whose users create subgroups only.
	_, resp, err = alice.Groups.TransferSubGroup(group.ID, &gitlab.TransferSubGroupOptions{})
	alice.refused(t, resp, err, http.StatusBadRequest, "Transfer failed: You don't have enough permissions.")
	_, resp, err = alice.Groups.TransferSubGroup("beta", &gitlab.TransferSubGroupOptions{GroupID: ptr(group.ID)})
	alice.refused(t, resp, err, http.StatusBadRequest, "Transfer failed: Cannot transfer group to one of its subgroup.")

	// Moved out of acme, the group is hidden from acme's Maintainer.
	resp, err = maintainer.Groups.DeleteGroup(group.ID, nil)
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Group Not Found")

	// Deletion on the Enterprise Edition: marked today, restorable.
	resp, err = alice.Groups.DeleteGroup(group.ID, nil)
	succeeds(t, resp, err, http.StatusAccepted)
	marked, resp, err := alice.Groups.GetGroup(group.ID, nil)
	alice.decodes(t, resp, err, marked)
	if marked.MarkedForDeletionOn == nil || time.Time(*marked.MarkedForDeletionOn).IsZero() {
		t.Fatalf("not marked: %+v", marked)
	}
	resp, err = alice.Groups.DeleteGroup(group.ID, nil)
	alice.refused(t, resp, err, http.StatusBadRequest, "Group has been already marked for deletion")
	restored, resp, err := alice.Groups.RestoreGroup(group.ID)
	alice.decodes(t, resp, err, restored)
	if restored.MarkedForDeletionOn != nil {
		t.Fatalf("still marked: %+v", restored)
	}
	_, resp, err = alice.Groups.RestoreGroup(group.ID)
	alice.refused(t, resp, err, http.StatusBadRequest, "Group has not been marked for deletion")

	// Removed at once: only a marked group, and only with its full path.
	resp, err = alice.Groups.DeleteGroup(group.ID, &gitlab.DeleteGroupOptions{PermanentlyRemove: ptr(true), FullPath: ptr("beta/go-client-renamed")})
	alice.refused(t, resp, err, http.StatusBadRequest, "Group must be marked for deletion first.")
	resp, err = alice.Groups.DeleteGroup(group.ID, nil)
	succeeds(t, resp, err, http.StatusAccepted)
	resp, err = alice.Groups.DeleteGroup(group.ID, &gitlab.DeleteGroupOptions{PermanentlyRemove: ptr(true), FullPath: ptr("go-client-renamed")})
	alice.refused(t, resp, err, http.StatusBadRequest, "`full_path` is incorrect.")
	resp, err = alice.Groups.DeleteGroup(group.ID, &gitlab.DeleteGroupOptions{PermanentlyRemove: ptr(true), FullPath: ptr("beta/go-client-renamed")})
	succeeds(t, resp, err, http.StatusAccepted)
	_, resp, err = alice.Groups.GetGroup(group.ID, nil)
	alice.refused(t, resp, err, http.StatusNotFound, "404 Group Not Found")
}

// A top-level group on the self-managed emulator: administrators may make one.
func TestTopLevelGroupSelfManaged(t *testing.T) {
	root := selfManaged(t, "root")
	group, resp, err := root.Groups.CreateGroup(&gitlab.CreateGroupOptions{Name: ptr("Go Client Top"), Path: ptr("go-client-top"), Visibility: ptr(gitlab.InternalVisibility)})
	root.decodes(t, resp, err, group)
	if group.FullPath != "go-client-top" || group.ParentID != 0 || group.Visibility != gitlab.InternalVisibility {
		t.Fatalf("group %+v", group)
	}
	_, resp, err = root.Groups.CreateGroup(&gitlab.CreateGroupOptions{Name: ptr("Admin"), Path: ptr("admin")})
	root.refused(t, resp, err, http.StatusBadRequest, "admin is a reserved name")
	// Under a private parent, what is more visible becomes private.
	acme, resp, err := root.Groups.GetGroup("acme", nil)
	root.decodes(t, resp, err, acme)
	moved, resp, err := root.Groups.TransferSubGroup(group.ID, &gitlab.TransferSubGroupOptions{GroupID: ptr(acme.ID)})
	root.decodes(t, resp, err, moved)
	if moved.FullPath != "acme/go-client-top" || moved.Visibility != gitlab.PrivateVisibility {
		t.Fatalf("moved %+v", moved)
	}
	back, resp, err := root.Groups.TransferSubGroup(group.ID, &gitlab.TransferSubGroupOptions{})
	root.decodes(t, resp, err, back)
	if back.FullPath != "go-client-top" || back.ParentID != 0 {
		t.Fatalf("back %+v", back)
	}
	resp, err = root.Groups.DeleteGroup(group.ID, nil)
	succeeds(t, resp, err, http.StatusAccepted)
	resp, err = root.Groups.DeleteGroup(group.ID, &gitlab.DeleteGroupOptions{PermanentlyRemove: ptr(true), FullPath: ptr("go-client-top")})
	succeeds(t, resp, err, http.StatusAccepted)
}
