package emulator_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// The answer of the pipeline security report findings query, as a Go program would declare it.
type findingsAnswer struct {
	Data struct {
		Project *struct {
			Pipeline *struct {
				SecurityReportFindings struct {
					Nodes []struct {
						UUID     string `json:"uuid"`
						Title    string `json:"title"`
						Severity string `json:"severity"`
						State    string `json:"state"`
						Scanner  struct {
							ExternalID string `json:"externalId"`
						} `json:"scanner"`
						Identifiers []struct {
							ExternalType string `json:"externalType"`
							Name         string `json:"name"`
						} `json:"identifiers"`
						Location struct {
							Typename string `json:"__typename"`
							File     string `json:"file"`
						} `json:"location"`
						Remediations []struct {
							Summary string `json:"summary"`
						} `json:"remediations"`
						Evidence *struct {
							Summary string `json:"summary"`
						} `json:"evidence"`
					} `json:"nodes"`
				} `json:"securityReportFindings"`
			} `json:"pipeline"`
		} `json:"project"`
	} `json:"data"`
}

const findingsQuery = `query($path: ID!) { project(fullPath: $path) { pipeline(ref: "HEAD") { securityReportFindings(severity: ["high"]) { nodes {
  uuid title severity state scanner { externalId } identifiers { externalType name }
  location { __typename ... on VulnerabilityLocationSast { file } ... on VulnerabilityLocationDependencyScanning { file } }
  remediations { summary } evidence { summary } } } } } }`

func TestSecurityReportFindingsThroughGraphQL(t *testing.T) {
	dev := hosted(t, "dev")
	var answer findingsAnswer
	resp, err := dev.GraphQL.Do(gitlab.GraphQLQuery{Query: findingsQuery, Variables: map[string]any{"path": "acme/web"}}, &answer)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("query failed: %v", err)
	}
	nodes := answer.Data.Project.Pipeline.SecurityReportFindings.Nodes
	if len(nodes) != 2 {
		t.Fatalf("want the two high findings, got %+v", nodes)
	}
	for _, node := range nodes {
		if node.Severity != "HIGH" || node.UUID == "" || node.Scanner.ExternalID == "" || len(node.Identifiers) == 0 {
			t.Fatalf("finding %+v", node)
		}
	}
	lodash := nodes[1]
	if lodash.Title != "Prototype pollution in lodash" || lodash.State != "CONFIRMED" ||
		lodash.Location.Typename != "VulnerabilityLocationDependencyScanning" || lodash.Location.File != "package-lock.json" ||
		len(lodash.Remediations) != 1 || lodash.Evidence == nil || lodash.Evidence.Summary == "" {
		t.Fatalf("lodash finding %+v", lodash)
	}
}

func TestGraphQLErrorsReachTheClient(t *testing.T) {
	dev := hosted(t, "dev")
	// A query error is a 200 with GraphQL's errors: the client hands the body over as the answer.
	var failed struct {
		Errors []struct {
			Message   string `json:"message"`
			Locations []struct {
				Line   int `json:"line"`
				Column int `json:"column"`
			} `json:"locations"`
		} `json:"errors"`
	}
	resp, err := dev.GraphQL.Do(gitlab.GraphQLQuery{Query: `{ project(fullPath: "acme/web") { nope } }`}, &failed)
	if err != nil || resp.StatusCode != http.StatusOK || len(failed.Errors) != 1 ||
		!strings.HasPrefix(failed.Errors[0].Message, `Cannot query field "nope" on type "Project".`) || len(failed.Errors[0].Locations) != 1 {
		t.Fatalf("want one validation error, got err=%v errors=%+v", err, failed.Errors)
	}

	// An unknown token is a 401 whose GraphQL errors the client's error carries.
	stranger, err := gitlab.NewClient("glpat-nobody", gitlab.WithBaseURL(hostedURL+"/api/v4"), gitlab.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	var ignored any
	resp, err = stranger.GraphQL.Do(gitlab.GraphQLQuery{Query: `{ project(fullPath: "acme/web") { name } }`}, &ignored)
	var graphqlError *gitlab.GraphQLResponseError
	if !errors.As(err, &graphqlError) || resp.StatusCode != http.StatusUnauthorized || len(graphqlError.Errors.Errors) != 1 || graphqlError.Errors.Errors[0].Message != "Invalid token" {
		t.Fatalf("want a 401 with Invalid token, got %v", err)
	}
}
