package emulator_test

import (
	"encoding/json"
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestRepositoryContent(t *testing.T) {
	dev := hosted(t, "dev")
	tree, resp, err := dev.Repositories.ListTree("acme/web", &gitlab.ListTreeOptions{Recursive: ptr(true), ListOptions: gitlab.ListOptions{PerPage: 100}})
	dev.decodes(t, resp, err, tree)
	var readme *gitlab.TreeNode
	for _, node := range tree {
		if node.Path == "README.md" {
			readme = node
		}
	}
	if readme == nil || readme.Type != "blob" {
		t.Fatalf("no README.md in %d nodes", len(tree))
	}
	src, resp, err := dev.Repositories.ListTree("acme/web", &gitlab.ListTreeOptions{Path: ptr("src"), Ref: ptr("v1.3.0")})
	dev.decodes(t, resp, err, src)

	// Blob answers JSON, which client-go hands over as bytes.
	raw, resp, err := dev.Repositories.Blob("acme/web", readme.ID)
	if err != nil {
		t.Fatal(err)
	}
	var blob struct {
		Size     int64  `json:"size"`
		Encoding string `json:"encoding"`
		Content  string `json:"content"`
		SHA      string `json:"sha"`
	}
	if err := json.Unmarshal(raw, &blob); err != nil || blob.SHA != readme.ID || blob.Encoding != "base64" {
		t.Fatalf("blob %s: %v", raw, err)
	}
	content, resp, err := dev.Repositories.RawBlobContent("acme/web", readme.ID)
	if err != nil || string(content) != "# Web\n\nThe public website.\n" {
		t.Fatalf("raw blob %q: %v", content, err)
	}
	archive, resp, err := dev.Repositories.Archive("acme/web", &gitlab.ArchiveOptions{Format: ptr("tar.gz"), SHA: ptr("v1.4.0")})
	if err != nil || len(archive) < 2 || archive[0] != 0x1f || archive[1] != 0x8b {
		t.Fatalf("archive: %v (%d bytes)", err, len(archive))
	}

	_, resp, err = dev.Repositories.ListTree("acme/web", &gitlab.ListTreeOptions{Path: ptr("no/such/dir")})
	dev.refused(t, resp, err, http.StatusNotFound, "404 Tree Not Found")
	outsider := hosted(t, "outsider")
	_, resp, err = outsider.Repositories.RawBlobContent("acme/web", readme.ID)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
}

// realCommit is a commit as real servers answer it: `extended_trailers` maps
// each trailer to every value it has (a list), `trailers` to its last one.
type realCommit struct {
	ID               string              `json:"id"`
	Title            string              `json:"title"`
	Trailers         map[string]string   `json:"trailers"`
	ExtendedTrailers map[string][]string `json:"extended_trailers"`
}

func TestRepositoryHistory(t *testing.T) {
	dev := hosted(t, "dev")

	// client-go types extended_trailers as a map of strings; real servers
	// answer a map of lists (`{"Changelog": ["security"]}`), so its Compare
	// fails on any range holding a commit with a trailer.
	_, resp, err := dev.Repositories.Compare("acme/web", &gitlab.CompareOptions{From: ptr("v1.3.0"), To: ptr("v1.4.0")})
	wrongDecode(t, err, "extended_trailers")
	var compare struct {
		Commits []realCommit `json:"commits"`
		Diffs   []*gitlab.Diff
	}
	if err := json.Unmarshal(dev.rec.body(t, resp), &compare); err != nil {
		t.Fatalf("the answer does not decode as real servers answer: %v", err)
	}
	found := false
	for _, commit := range compare.Commits {
		if commit.Title == "Fix XSS in the comment view" {
			found = true
			if len(commit.ExtendedTrailers["Changelog"]) != 1 || commit.ExtendedTrailers["Changelog"][0] != "security" || commit.Trailers["Changelog"] != "security" {
				t.Fatalf("trailers %+v, extended %+v", commit.Trailers, commit.ExtendedTrailers)
			}
		}
	}
	if !found || len(compare.Diffs) == 0 {
		t.Fatalf("compare %+v", compare)
	}
	// A range without trailers decodes into client-go's Compare.
	plain, resp, err := dev.Repositories.Compare("acme/web", &gitlab.CompareOptions{From: ptr("v1.4.0"), To: ptr("v1.4.0")})
	dev.decodes(t, resp, err, plain)
	if !plain.CompareSameRef {
		t.Fatalf("compare same ref %+v", plain)
	}

	contributors, resp, err := dev.Repositories.Contributors("acme/web", &gitlab.ListContributorsOptions{OrderBy: ptr("commits"), Sort: ptr("desc")})
	dev.decodes(t, resp, err, contributors)
	if len(contributors) != 4 {
		t.Fatalf("contributors %+v", contributors)
	}
	base, resp, err := dev.Repositories.MergeBase("acme/web", &gitlab.MergeBaseOptions{Ref: ptr([]string{"main", "stable"})})
	dev.decodes(t, resp, err, base)
	if base.Title != "Release 1.3.0" {
		t.Fatalf("merge base %q", base.Title)
	}

	_, resp, err = dev.Repositories.Compare("acme/web", &gitlab.CompareOptions{From: ptr("v1.3.0"), To: ptr("no-such-ref")})
	dev.refused(t, resp, err, http.StatusNotFound, "404 Ref Not Found")
	_, resp, err = dev.Repositories.MergeBase("acme/web", &gitlab.MergeBaseOptions{Ref: ptr([]string{"main"})})
	dev.refused(t, resp, err, http.StatusBadRequest, "Provide at least 2 refs")
}

func TestRepositoryChangelog(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	notes, resp, err := maintainer.Repositories.GenerateChangelogData("acme/web", gitlab.GenerateChangelogDataOptions{Version: ptr("1.4.0"), From: ptr("v1.3.0"), To: ptr("v1.4.0")})
	maintainer.decodes(t, resp, err, notes)
	if notes.Notes == "" {
		t.Fatal("no notes")
	}
	resp, err = maintainer.Repositories.AddChangelog("acme/api", &gitlab.AddChangelogOptions{Version: ptr("1.0.0"), Message: ptr("Release notes for 1.0.0")})
	succeeds(t, resp, err, http.StatusOK)

	guest := hosted(t, "guest")
	_, resp, err = guest.Repositories.GenerateChangelogData("acme/web", gitlab.GenerateChangelogDataOptions{Version: ptr("1.4.0")})
	guest.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	_, resp, err = maintainer.Repositories.GenerateChangelogData("acme/web", gitlab.GenerateChangelogDataOptions{Version: ptr("1.4.0"), From: ptr("no-such-ref")})
	maintainer.refused(t, resp, err, http.StatusUnprocessableEntity, "Failed to generate the changelog")
}

// One branch and one tag by name: the reads of the preview's check that a ref
// a resource names exists.
func TestBranchAndTagByName(t *testing.T) {
	alice := hosted(t, "alice")

	branch, resp, err := alice.Branches.GetBranch("beta/site", "main")
	alice.decodes(t, resp, err, branch)
	if branch.Name != "main" || !branch.Default || len(branch.Commit.ID) != 40 {
		t.Fatalf("branch %+v", branch)
	}
	_, resp, err = alice.Branches.GetBranch("beta/site", "mian")
	alice.refused(t, resp, err, http.StatusNotFound, "404 Branch Not Found")

	tag, resp, err := alice.Tags.GetTag("beta/site", "2024.03")
	alice.decodes(t, resp, err, tag)
	if tag.Name != "2024.03" || tag.Commit == nil || len(tag.Commit.ID) != 40 {
		t.Fatalf("tag %+v", tag)
	}
	_, resp, err = alice.Tags.GetTag("beta/site", "2099.01")
	alice.refused(t, resp, err, http.StatusNotFound, "404 Tag Not Found")
}
