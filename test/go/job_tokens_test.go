package emulator_test

import (
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// The default seed's CI job tokens (src/emulator/seeds/default.ts): a running
// job of acme/web run by maintainer, and a finished one.
const (
	runningJobToken  = "glcbt-acme-web-running-job"
	finishedJobToken = "glcbt-acme-web-finished-job"
)

// jobClient is the official client's job-token client (it sends JOB-TOKEN).
func jobClient(t *testing.T, token string) *api {
	t.Helper()
	rec := &recorder{bodies: map[*http.Response][]byte{}}
	client, err := gitlab.NewJobClient(token,
		gitlab.WithBaseURL(hostedURL+"/api/v4"),
		gitlab.WithHTTPClient(&http.Client{Transport: rec}),
		gitlab.WithoutRetries(),
	)
	if err != nil {
		t.Fatal(err)
	}
	return &api{Client: client, rec: rec}
}

// A job token reaches its own project's container registry, with its user's
// role; another project is hidden, the rest of the API ignores it, and a
// finished job's token is refused. Nothing is changed: the registry test
// counts the seed's tags.
func TestJobToken(t *testing.T) {
	job := jobClient(t, runningJobToken)
	repositories, resp, err := job.ContainerRegistry.ListProjectRegistryRepositories("acme/web", nil)
	job.decodes(t, resp, err, repositories)
	if len(repositories) != 2 {
		t.Fatalf("repositories %+v", repositories)
	}
	tags, resp, err := job.ContainerRegistry.ListRegistryRepositoryTags("acme/web", repositories[1].ID, &gitlab.ListRegistryRepositoryTagsOptions{ListOptions: gitlab.ListOptions{PerPage: 100}})
	job.decodes(t, resp, err, tags)
	tag, resp, err := job.ContainerRegistry.GetRegistryRepositoryTagDetail("acme/web", repositories[1].ID, "v1.4.0")
	job.decodes(t, resp, err, tag)

	// maintainer may read acme/platform/infra, but the job reaches only acme/web.
	_, resp, err = job.ContainerRegistry.ListProjectRegistryRepositories("acme/platform/infra", nil)
	job.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
	resp, err = job.ContainerRegistry.DeleteRegistryRepositoryTag("acme/platform/infra", 3, "2024.01")
	job.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")
	// Outside the registry the header is ignored: an anonymous caller does not see a private project.
	_, resp, err = job.Projects.GetProject("acme/web", nil)
	job.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")

	finished := jobClient(t, finishedJobToken)
	_, resp, err = finished.ContainerRegistry.ListProjectRegistryRepositories("acme/web", nil)
	finished.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")
}
