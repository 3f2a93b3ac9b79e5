package emulator_test

import (
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// A project's life on the hosted (Enterprise Edition) emulator: made by a
// Developer with a README, renamed, transferred, archived, marked for
// deletion, restored, then removed for good.
func TestProjectLifecycle(t *testing.T) {
	dev, alice := hosted(t, "dev"), hosted(t, "alice")
	acme, resp, err := alice.Groups.GetGroup("acme", nil)
	alice.decodes(t, resp, err, acme)

	project, resp, err := dev.Projects.CreateProject(&gitlab.CreateProjectOptions{
		Name: ptr("Go Client App"), NamespaceID: ptr(acme.ID), Description: ptr("made by the Go client"), InitializeWithReadme: ptr(true), Topics: ptr([]string{"go", "client"}),
	})
	dev.decodes(t, resp, err, project)
	removesProjectAfter(t, alice, project.ID)
	if project.PathWithNamespace != "acme/go-client-app" || project.DefaultBranch != "main" || project.Visibility != gitlab.PrivateVisibility || project.Archived || project.MarkedForDeletionOn != nil || len(project.Topics) != 2 {
		t.Fatalf("project %+v", project)
	}
	// The README is a real commit on the default branch, which is protected.
	tree, resp, err := dev.Repositories.ListTree(project.ID, &gitlab.ListTreeOptions{Ref: ptr("main")})
	dev.decodes(t, resp, err, tree)
	if len(tree) != 1 || tree[0].Path != "README.md" {
		t.Fatalf("tree %+v", tree)
	}
	// The Developer who made it maintains it.
	member, resp, err := dev.ProjectMembers.GetProjectMember(project.ID, userID(t, "dev"))
	dev.decodes(t, resp, err, member)
	if member.AccessLevel != gitlab.MaintainerPermissions {
		t.Fatalf("creator %+v", member)
	}
	main, resp, err := dev.ProtectedBranches.GetProtectedBranch(project.ID, "main")
	dev.decodes(t, resp, err, main)

	_, resp, err = dev.Projects.CreateProject(&gitlab.CreateProjectOptions{Name: ptr("Go Client App"), NamespaceID: ptr(acme.ID)})
	dev.refused(t, resp, err, http.StatusBadRequest, `"name":["has already been taken"]`)
	_, resp, err = dev.Projects.CreateProject(&gitlab.CreateProjectOptions{Path: ptr("tree"), NamespaceID: ptr(acme.ID)})
	dev.refused(t, resp, err, http.StatusBadRequest, "tree is a reserved name")
	_, resp, err = dev.Projects.CreateProject(&gitlab.CreateProjectOptions{Name: ptr("Public"), NamespaceID: ptr(acme.ID), Visibility: ptr(gitlab.PublicVisibility)})
	dev.refused(t, resp, err, http.StatusBadRequest, "public is not allowed in a private group.")
	_, resp, err = dev.Projects.CreateProject(&gitlab.CreateProjectOptions{})
	dev.refused(t, resp, err, http.StatusBadRequest, "name, path are missing, at least one parameter must be provided")
	guest := hosted(t, "guest")
	_, resp, err = guest.Projects.CreateProject(&gitlab.CreateProjectOptions{Name: ptr("By a guest"), NamespaceID: ptr(acme.ID)})
	guest.refused(t, resp, err, http.StatusBadRequest, `{"message":{"namespace":["is not valid"]}}`)
	outsider := hosted(t, "outsider")
	_, resp, err = outsider.Projects.CreateProject(&gitlab.CreateProjectOptions{Name: ptr("Not mine"), NamespaceID: ptr(acme.ID)})
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Namespace Not Found")

	// A Maintainer edits; renaming the path is the Owner's.
	edited, resp, err := dev.Projects.EditProject(project.ID, &gitlab.EditProjectOptions{Description: ptr("edited by its Maintainer"), MergeMethod: ptr(gitlab.FastForwardMerge)})
	dev.decodes(t, resp, err, edited)
	if edited.Description != "edited by its Maintainer" || edited.MergeMethod != gitlab.FastForwardMerge {
		t.Fatalf("edited %+v", edited)
	}
	_, resp, err = dev.Projects.EditProject(project.ID, &gitlab.EditProjectOptions{Path: ptr("go-client-renamed")})
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	renamed, resp, err := alice.Projects.EditProject(project.ID, &gitlab.EditProjectOptions{Path: ptr("go-client-renamed"), Name: ptr("Go Client Renamed")})
	alice.decodes(t, resp, err, renamed)
	if renamed.PathWithNamespace != "acme/go-client-renamed" || renamed.ID != project.ID {
		t.Fatalf("renamed %+v", renamed)
	}
	former, resp, err := alice.Projects.GetProject("acme/go-client-app", nil)
	alice.decodes(t, resp, err, former)
	if former.ID != project.ID {
		t.Fatalf("the former path found %d", former.ID)
	}

	moved, resp, err := alice.Projects.TransferProject(project.ID, &gitlab.TransferProjectOptions{Namespace: "acme/platform"})
	alice.decodes(t, resp, err, moved)
	if moved.PathWithNamespace != "acme/platform/go-client-renamed" || moved.Namespace == nil || moved.Namespace.FullPath != "acme/platform" {
		t.Fatalf("moved %+v", moved)
	}
	_, resp, err = alice.Projects.TransferProject(project.ID, &gitlab.TransferProjectOptions{Namespace: "acme/platform"})
	alice.refused(t, resp, err, http.StatusBadRequest, "Project is already in this namespace.")
	_, resp, err = dev.Projects.TransferProject(project.ID, &gitlab.TransferProjectOptions{Namespace: acme.ID})
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	// Archived, the project takes no writes but its own settings and life.
	archived, resp, err := alice.Projects.ArchiveProject(project.ID)
	alice.decodes(t, resp, err, archived)
	if !archived.Archived {
		t.Fatalf("archived %+v", archived)
	}
	_, resp, err = alice.Labels.CreateLabel(project.ID, &gitlab.CreateLabelOptions{Name: ptr("frozen"), Color: ptr("#000000")})
	alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	again, resp, err := alice.Projects.ArchiveProject(project.ID)
	alice.decodes(t, resp, err, again)
	_, resp, err = dev.Projects.UnarchiveProject(project.ID)
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	unarchived, resp, err := alice.Projects.UnarchiveProject(project.ID)
	alice.decodes(t, resp, err, unarchived)
	if unarchived.Archived {
		t.Fatalf("unarchived %+v", unarchived)
	}

	// Deletion: marked, restorable, then removed at once with its full path.
	resp, err = dev.Projects.DeleteProject(project.ID, nil)
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	resp, err = alice.Projects.DeleteProject(project.ID, nil)
	succeeds(t, resp, err, http.StatusAccepted)
	marked, resp, err := alice.Projects.GetProject(project.ID, nil)
	alice.decodes(t, resp, err, marked)
	if marked.MarkedForDeletionOn == nil {
		t.Fatalf("not marked: %+v", marked)
	}
	resp, err = alice.Projects.DeleteProject(project.ID, nil)
	alice.refused(t, resp, err, http.StatusBadRequest, "Project has been already marked for deletion")
	restored, resp, err := alice.Projects.RestoreProject(project.ID)
	alice.decodes(t, resp, err, restored)
	if restored.MarkedForDeletionOn != nil {
		t.Fatalf("still marked: %+v", restored)
	}
	_, resp, err = alice.Projects.RestoreProject(project.ID)
	alice.refused(t, resp, err, http.StatusBadRequest, "Project not marked for deletion")
	resp, err = alice.Projects.DeleteProject(project.ID, &gitlab.DeleteProjectOptions{PermanentlyRemove: ptr(true), FullPath: ptr("acme/platform/go-client-renamed")})
	alice.refused(t, resp, err, http.StatusBadRequest, "Project must be marked for deletion first.")
	// Options without values: the client sends `full_path=&permanently_remove=`,
	// empty values Grape reads as none.
	resp, err = alice.Projects.DeleteProject(project.ID, &gitlab.DeleteProjectOptions{})
	succeeds(t, resp, err, http.StatusAccepted)
	resp, err = alice.Projects.DeleteProject(project.ID, &gitlab.DeleteProjectOptions{PermanentlyRemove: ptr(true), FullPath: ptr("go-client-renamed")})
	alice.refused(t, resp, err, http.StatusBadRequest, "`full_path` is incorrect. You must enter the complete path for the project.")
	resp, err = alice.Projects.DeleteProject(project.ID, &gitlab.DeleteProjectOptions{PermanentlyRemove: ptr(true), FullPath: ptr("acme/platform/go-client-renamed")})
	succeeds(t, resp, err, http.StatusAccepted)
	_, resp, err = alice.Projects.GetProject(project.ID, nil)
	alice.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
}

// A personal project: no namespace given; its deletion is never delayed.
func TestPersonalProject(t *testing.T) {
	outsider := hosted(t, "outsider")
	project, resp, err := outsider.Projects.CreateProject(&gitlab.CreateProjectOptions{Path: ptr("go-client-scratch")})
	outsider.decodes(t, resp, err, project)
	if project.PathWithNamespace != "outsider/go-client-scratch" || project.Name != "go-client-scratch" || project.Namespace == nil || project.Namespace.Kind != "user" {
		t.Fatalf("project %+v namespace %+v", project, project.Namespace)
	}
	resp, err = outsider.Projects.DeleteProject(project.ID, nil)
	succeeds(t, resp, err, http.StatusAccepted)
	_, resp, err = outsider.Projects.GetProject(project.ID, nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
}
