package emulator_test

import (
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestContainerRegistry(t *testing.T) {
	maintainer, dev := hosted(t, "maintainer"), hosted(t, "dev")
	repositories, resp, err := dev.ContainerRegistry.ListProjectRegistryRepositories("acme/web", &gitlab.ListProjectRegistryRepositoriesOptions{Tags: ptr(true), TagsCount: ptr(true)})
	dev.decodes(t, resp, err, repositories)
	if len(repositories) != 2 {
		t.Fatalf("repositories %+v", repositories)
	}
	var apiServer *gitlab.RegistryRepository
	for _, repository := range repositories {
		if repository.Name == "api-server" {
			apiServer = repository
		}
	}
	if apiServer == nil || apiServer.TagsCount != 12 {
		t.Fatalf("api-server %+v", apiServer)
	}
	groupRepositories, resp, err := dev.ContainerRegistry.ListGroupRegistryRepositories("acme", nil)
	dev.decodes(t, resp, err, groupRepositories)
	single, resp, err := dev.ContainerRegistry.GetSingleRegistryRepository(apiServer.ID, &gitlab.GetSingleRegistryRepositoryOptions{Tags: ptr(true), TagsCount: ptr(true)})
	dev.decodes(t, resp, err, single)
	tags, resp, err := dev.ContainerRegistry.ListRegistryRepositoryTags("acme/web", apiServer.ID, &gitlab.ListRegistryRepositoryTagsOptions{ListOptions: gitlab.ListOptions{PerPage: 100}})
	dev.decodes(t, resp, err, tags)
	tag, resp, err := dev.ContainerRegistry.GetRegistryRepositoryTagDetail("acme/web", apiServer.ID, "v1.4.0")
	dev.decodes(t, resp, err, tag)
	if tag.TotalSize != 63_105_377 || tag.CreatedAt == nil {
		t.Fatalf("tag %+v", tag)
	}

	// A protected tag (rule ^v[0-9], Maintainer to delete) is refused to a Developer.
	resp, err = dev.ContainerRegistry.DeleteRegistryRepositoryTag("acme/web", apiServer.ID, "v1.0.0")
	dev.refused(t, resp, err, http.StatusForbidden, "protected")
	resp, err = dev.ContainerRegistry.DeleteRegistryRepositoryTag("acme/web", apiServer.ID, "feature-login")
	succeeds(t, resp, err, http.StatusOK)
	_, resp, err = dev.ContainerRegistry.GetRegistryRepositoryTagDetail("acme/web", apiServer.ID, "feature-login")
	dev.refused(t, resp, err, http.StatusNotFound, "404 Tag Not Found")
	resp, err = maintainer.ContainerRegistry.DeleteRegistryRepositoryTags("acme/web", apiServer.ID, &gitlab.DeleteRegistryRepositoryTagsOptions{NameRegexpDelete: ptr("main-.*"), KeepN: ptr(int64(2))})
	succeeds(t, resp, err, http.StatusAccepted)

	outsider, guest := hosted(t, "outsider"), hosted(t, "guest")
	_, resp, err = outsider.ContainerRegistry.ListProjectRegistryRepositories("acme/web", nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
	_, resp, err = guest.ContainerRegistry.ListProjectRegistryRepositories("acme/web", nil)
	guest.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	infra, resp, err := dev.ContainerRegistry.ListProjectRegistryRepositories("acme/platform/infra", nil)
	dev.decodes(t, resp, err, infra)
	if len(infra) != 1 {
		t.Fatalf("infra %+v", infra)
	}
	resp, err = dev.ContainerRegistry.DeleteRegistryRepository("acme/platform/infra", infra[0].ID)
	succeeds(t, resp, err, http.StatusAccepted)
}

func TestErrorTrackingClientKeys(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	keys, resp, err := maintainer.ErrorTracking.ListClientKeys("acme/web", nil)
	maintainer.decodes(t, resp, err, keys)
	if len(keys) != 1 || keys[0].PublicKey != "glet_3d4f6a8b0c1e2d3f4a5b6c7d8e9f0a1b" {
		t.Fatalf("keys %+v", keys)
	}
	key, resp, err := maintainer.ErrorTracking.CreateClientKey("acme/web")
	maintainer.decodes(t, resp, err, key)
	if !key.Active || key.SentryDsn == "" {
		t.Fatalf("key %+v", key)
	}
	resp, err = maintainer.ErrorTracking.DeleteClientKey("acme/web", key.ID)
	succeeds(t, resp, err, http.StatusOK)
	resp, err = maintainer.ErrorTracking.DeleteClientKey("acme/web", key.ID)
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")

	dev, anonymous := hosted(t, "dev"), hosted(t, "")
	_, resp, err = dev.ErrorTracking.ListClientKeys("acme/web", nil)
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	_, resp, err = anonymous.ErrorTracking.CreateClientKey("acme/web")
	anonymous.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")
}

func TestDependencies(t *testing.T) {
	dev := hosted(t, "dev")
	dependencies, resp, err := dev.Dependencies.ListProjectDependencies("acme/web", &gitlab.ListProjectDependenciesOptions{})
	dev.decodes(t, resp, err, dependencies)
	if len(dependencies) != 10 {
		t.Fatalf("dependencies %d", len(dependencies))
	}
	npm, resp, err := dev.Dependencies.ListProjectDependencies("acme/web", &gitlab.ListProjectDependenciesOptions{PackageManager: []*gitlab.DependencyPackageManagerValue{ptr(gitlab.NPM)}})
	dev.decodes(t, resp, err, npm)
	if len(npm) != 4 {
		t.Fatalf("npm dependencies %d", len(npm))
	}
	guest := hosted(t, "guest")
	_, resp, err = guest.Dependencies.ListProjectDependencies("acme/web", nil)
	guest.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	alice := hosted(t, "alice")
	_, resp, err = alice.Dependencies.ListProjectDependencies("beta/site", nil)
	alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
}

// finding is part of a vulnerability finding as real servers answer it
// (`Vulnerabilities::FindingEntity`). client-go has no call for
// /projects/:id/vulnerability_findings; the requests go through its request layer.
type finding struct {
	ID         *int64 `json:"id"`
	ReportType string `json:"report_type"`
	Name       string `json:"name"`
	Severity   string `json:"severity"`
	Location   struct {
		File      string `json:"file"`
		StartLine int64  `json:"start_line"`
	} `json:"location"`
	Identifiers []struct {
		ExternalType string `json:"external_type"`
		ExternalID   string `json:"external_id"`
		Name         string `json:"name"`
		URL          string `json:"url"`
	} `json:"identifiers"`
	UUID  string `json:"uuid"`
	State string `json:"state"`
	Scan  struct {
		Type   string `json:"type"`
		Status string `json:"status"`
	} `json:"scan"`
}

func TestVulnerabilityFindingsThroughTheClientsRequestLayer(t *testing.T) {
	dev := hosted(t, "dev")
	req, err := dev.NewRequest(http.MethodGet, "projects/acme%2Fweb/vulnerability_findings", &struct {
		Severity []string `url:"severity,comma"`
	}{[]string{"critical", "high"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var findings []*finding
	resp, err := dev.Do(req, &findings)
	dev.decodes(t, resp, err, findings)
	if len(findings) == 0 {
		t.Fatal("no findings")
	}
	for _, f := range findings {
		if f.Severity != "critical" && f.Severity != "high" || f.UUID == "" || f.Scan.Type != f.ReportType {
			t.Fatalf("finding %+v", f)
		}
	}
	guest := hosted(t, "guest")
	req, _ = guest.NewRequest(http.MethodGet, "projects/acme%2Fweb/vulnerability_findings", nil, nil)
	resp, err = guest.Do(req, &findings)
	guest.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
}
