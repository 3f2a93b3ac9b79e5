package emulator_test

import (
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// The client's own pagination follows the emulator's headers: offset pages
// (X-Next-Page) and keyset pages (the Link header's rel="next").
func TestPaginationAsTheClientFollowsIt(t *testing.T) {
	dev := hosted(t, "dev")
	all, resp, err := dev.Repositories.ListTree("acme/web", &gitlab.ListTreeOptions{Recursive: ptr(true), ListOptions: gitlab.ListOptions{PerPage: 100}})
	dev.decodes(t, resp, err, all)

	offset, err := gitlab.ScanAndCollect(func(page gitlab.PaginationOptionFunc) ([]*gitlab.TreeNode, *gitlab.Response, error) {
		nodes, resp, err := dev.Repositories.ListTree("acme/web", &gitlab.ListTreeOptions{Recursive: ptr(true), ListOptions: gitlab.ListOptions{PerPage: 4}}, page)
		if err == nil {
			dev.decodes(t, resp, err, nodes)
		}
		return nodes, resp, err
	})
	if err != nil || len(offset) != len(all) {
		t.Fatalf("offset pages: %d of %d nodes (%v)", len(offset), len(all), err)
	}

	keyset, err := gitlab.ScanAndCollect(func(page gitlab.PaginationOptionFunc) ([]*gitlab.TreeNode, *gitlab.Response, error) {
		nodes, resp, err := dev.Repositories.ListTree("acme/web", &gitlab.ListTreeOptions{
			Recursive: ptr(true), ListOptions: gitlab.ListOptions{PerPage: 4, Pagination: "keyset"},
		}, page)
		if err == nil && resp.NextPage != 0 {
			t.Fatalf("keyset pages with X-Next-Page %d", resp.NextPage)
		}
		return nodes, resp, err
	})
	if err != nil || len(keyset) != len(all) {
		t.Fatalf("keyset pages: %d of %d nodes (%v)", len(keyset), len(all), err)
	}
	for i := range all {
		if offset[i].Path != all[i].Path || keyset[i].Path != all[i].Path {
			t.Fatalf("node %d: %s, %s, %s", i, all[i].Path, offset[i].Path, keyset[i].Path)
		}
	}
}
