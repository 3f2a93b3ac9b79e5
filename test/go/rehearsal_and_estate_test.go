package emulator_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// The endpoints for rehearsing the review loop, on acme/platform/infra (where
// dev is a Maintainer, and which no other test writes to): a branch, a commit
// of file actions, a merge request prepared by the emulator's own background
// work, its diff versions, its merge; an issue with notes, closed.
func TestRehearsal(t *testing.T) {
	dev := hosted(t, "dev")
	const infra = "acme/platform/infra"
	branch, resp, err := dev.Branches.CreateBranch(infra, &gitlab.CreateBranchOptions{Branch: ptr("go/rehearsal"), Ref: ptr("main")})
	dev.decodes(t, resp, err, branch)
	if branch.Name != "go/rehearsal" || branch.Commit == nil {
		t.Fatalf("branch %+v", branch)
	}
	_, resp, err = dev.Branches.CreateBranch(infra, &gitlab.CreateBranchOptions{Branch: ptr("go/rehearsal"), Ref: ptr("main")})
	dev.refused(t, resp, err, http.StatusBadRequest, "Branch already exists")

	create, encoding := gitlab.FileCreate, "base64"
	commit, resp, err := dev.Commits.CreateCommit(infra, &gitlab.CreateCommitOptions{
		Branch:        ptr("go/rehearsal"),
		CommitMessage: ptr("Add the stack file"),
		AuthorName:    ptr("Go Client"),
		AuthorEmail:   ptr("go@example.test"),
		Actions: []*gitlab.CommitActionOptions{
			{Action: &create, FilePath: ptr("stacks/prod.yaml"), Content: ptr("c3RhY2s6IHByb2QK"), Encoding: &encoding},
		},
	})
	dev.decodes(t, resp, err, commit)
	if commit.AuthorName != "Go Client" || commit.Stats == nil || commit.Stats.Additions != 1 {
		t.Fatalf("commit %+v", commit)
	}

	mr, resp, err := dev.MergeRequests.CreateMergeRequest(infra, &gitlab.CreateMergeRequestOptions{Title: ptr("Rehearse"), SourceBranch: ptr("go/rehearsal"), TargetBranch: ptr("main")})
	dev.decodes(t, resp, err, mr)
	deadline := time.Now().Add(10 * time.Second)
	for mr.SHA == "" && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
		mr, resp, err = dev.MergeRequests.GetMergeRequest(infra, mr.IID, nil)
		dev.decodes(t, resp, err, mr)
	}
	if mr.SHA != commit.ID || mr.DiffRefs.HeadSha != commit.ID {
		t.Fatalf("the background work did not prepare the merge request: %+v", mr)
	}
	versions, resp, err := dev.MergeRequests.GetMergeRequestDiffVersions(infra, mr.IID, nil)
	dev.decodes(t, resp, err, versions)
	if len(versions) != 1 || versions[0].HeadCommitSHA != commit.ID {
		t.Fatalf("versions %+v", versions)
	}
	version, resp, err := dev.MergeRequests.GetSingleMergeRequestDiffVersion(infra, mr.IID, versions[0].ID, nil)
	dev.decodes(t, resp, err, version)
	if len(version.Commits) != 1 || len(version.Diffs) != 1 || version.Diffs[0].NewPath != "stacks/prod.yaml" {
		t.Fatalf("version %+v", version)
	}
	_, resp, err = dev.MergeRequests.AcceptMergeRequest(infra, mr.IID, &gitlab.AcceptMergeRequestOptions{SHA: ptr("0000000")})
	dev.refused(t, resp, err, http.StatusConflict, "SHA does not match HEAD of source branch")
	merged, resp, err := dev.MergeRequests.AcceptMergeRequest(infra, mr.IID, &gitlab.AcceptMergeRequestOptions{SHA: ptr(commit.ID), ShouldRemoveSourceBranch: ptr(true)})
	dev.decodes(t, resp, err, merged)
	if merged.State != "merged" || merged.MergeCommitSHA == "" || merged.MergedAt == nil {
		t.Fatalf("merged %+v", merged)
	}

	issue, resp, err := dev.Issues.CreateIssue(infra, &gitlab.CreateIssueOptions{Title: ptr("Drift: prod"), Labels: &gitlab.LabelOptions{"drift"}})
	dev.decodes(t, resp, err, issue)
	issues, resp, err := dev.Issues.ListProjectIssues(infra, &gitlab.ListProjectIssuesOptions{State: ptr("opened"), Labels: &gitlab.LabelOptions{"drift"}})
	dev.decodes(t, resp, err, issues)
	if len(issues) != 1 || issues[0].IID != issue.IID {
		t.Fatalf("issues %+v", issues)
	}
	note, resp, err := dev.Notes.CreateIssueNote(infra, issue.IID, &gitlab.CreateIssueNoteOptions{Body: ptr("Seen again")})
	dev.decodes(t, resp, err, note)
	notes, resp, err := dev.Notes.ListIssueNotes(infra, issue.IID, nil)
	dev.decodes(t, resp, err, notes)
	edited, resp, err := dev.Notes.UpdateIssueNote(infra, issue.IID, note.ID, &gitlab.UpdateIssueNoteOptions{Body: ptr("Seen twice")})
	dev.decodes(t, resp, err, edited)
	closed, resp, err := dev.Issues.UpdateIssue(infra, issue.IID, &gitlab.UpdateIssueOptions{StateEvent: ptr("close")})
	dev.decodes(t, resp, err, closed)
	if closed.State != "closed" || closed.ClosedBy == nil {
		t.Fatalf("closed %+v", closed)
	}
	got, resp, err := dev.Issues.GetIssue(infra, issue.IID)
	dev.decodes(t, resp, err, got)
}

// Finding the estate: every page of the project and group lists, and who sees what.
func TestEstateLists(t *testing.T) {
	alice, outsider := hosted(t, "alice"), hosted(t, "outsider")
	projects, err := gitlab.ScanAndCollect(func(p gitlab.PaginationOptionFunc) ([]*gitlab.Project, *gitlab.Response, error) {
		return alice.Projects.ListProjects(&gitlab.ListProjectsOptions{ListOptions: gitlab.ListOptions{PerPage: 1}, Membership: ptr(true)}, p)
	})
	if err != nil || len(projects) < 4 {
		t.Fatalf("projects %d: %v", len(projects), err)
	}
	listed, resp, err := alice.Projects.ListProjects(&gitlab.ListProjectsOptions{Membership: ptr(true)})
	alice.decodes(t, resp, err, listed)
	groupProjects, resp, err := alice.Groups.ListGroupProjects("acme", &gitlab.ListGroupProjectsOptions{IncludeSubGroups: ptr(true)})
	alice.decodes(t, resp, err, groupProjects)
	// The seed's projects; other tests' own projects may come and go beside them.
	acmeProjects := map[string]bool{}
	for _, project := range groupProjects {
		if !strings.HasPrefix(project.PathWithNamespace, "acme/") {
			t.Fatalf("acme's projects hold %s", project.PathWithNamespace)
		}
		acmeProjects[project.PathWithNamespace] = true
	}
	for _, seeded := range []string{"acme/web", "acme/api", "acme/platform/infra"} {
		if !acmeProjects[seeded] {
			t.Fatalf("acme's projects %v lack %s", acmeProjects, seeded)
		}
	}
	subgroups, resp, err := alice.Groups.ListSubGroups("acme", nil)
	alice.decodes(t, resp, err, subgroups)
	descendants, resp, err := alice.Groups.ListDescendantGroups("beta", nil)
	alice.decodes(t, resp, err, descendants)
	if !hasGroup(subgroups, "acme/platform") || !hasGroup(descendants, "beta/labs") {
		t.Fatalf("subgroups %+v, descendants %+v", subgroups, descendants)
	}
	_, resp, err = outsider.Groups.ListGroupProjects("acme", nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Group Not Found")
}

func hasGroup(groups []*gitlab.Group, fullPath string) bool {
	for _, group := range groups {
		if group.FullPath == fullPath {
			return true
		}
	}
	return false
}
