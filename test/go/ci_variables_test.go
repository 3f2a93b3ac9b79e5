package emulator_test

import (
	"encoding/json"
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// A project's variables: one key in two environment scopes, found by
// `filter[environment_scope]`; a hidden one's value is never read back.
func TestProjectVariables(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	everywhere, resp, err := maintainer.ProjectVariables.CreateVariable("acme/web", &gitlab.CreateProjectVariableOptions{
		Key: ptr("GO_CLIENT_URL"), Value: ptr("https://staging.example.test"), Description: ptr("where the app answers"),
	})
	maintainer.decodes(t, resp, err, everywhere)
	if everywhere.EnvironmentScope != "*" || everywhere.VariableType != gitlab.EnvVariableType || everywhere.Protected || everywhere.Masked || everywhere.Hidden {
		t.Fatalf("variable %+v", everywhere)
	}
	production, resp, err := maintainer.ProjectVariables.CreateVariable("acme/web", &gitlab.CreateProjectVariableOptions{
		Key: ptr("GO_CLIENT_URL"), Value: ptr("https://www.example.test"), EnvironmentScope: ptr("production"), Protected: ptr(true),
	})
	maintainer.decodes(t, resp, err, production)
	if production.EnvironmentScope != "production" || !production.Protected {
		t.Fatalf("variable %+v", production)
	}
	_, resp, err = maintainer.ProjectVariables.CreateVariable("acme/web", &gitlab.CreateProjectVariableOptions{
		Key: ptr("GO_CLIENT_URL"), Value: ptr("again"), EnvironmentScope: ptr("production"),
	})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "(GO_CLIENT_URL) has already been taken")

	// Two of one key: the filter picks one; without it the server cannot.
	_, resp, err = maintainer.ProjectVariables.GetVariable("acme/web", "GO_CLIENT_URL", nil)
	maintainer.refused(t, resp, err, http.StatusConflict, "Please use 'filter[environment_scope]'")
	got, resp, err := maintainer.ProjectVariables.GetVariable("acme/web", "GO_CLIENT_URL", &gitlab.GetProjectVariableOptions{Filter: &gitlab.VariableFilter{EnvironmentScope: "production"}})
	maintainer.decodes(t, resp, err, got)
	if got.Value != "https://www.example.test" {
		t.Fatalf("production variable %+v", got)
	}
	updated, resp, err := maintainer.ProjectVariables.UpdateVariable("acme/web", "GO_CLIENT_URL", &gitlab.UpdateProjectVariableOptions{
		Value: ptr("https://example.test"), Filter: &gitlab.VariableFilter{EnvironmentScope: "production"},
	})
	maintainer.decodes(t, resp, err, updated)
	if updated.Value != "https://example.test" || updated.EnvironmentScope != "production" {
		t.Fatalf("updated %+v", updated)
	}
	unchanged, resp, err := maintainer.ProjectVariables.GetVariable("acme/web", "GO_CLIENT_URL", &gitlab.GetProjectVariableOptions{Filter: &gitlab.VariableFilter{EnvironmentScope: "*"}})
	maintainer.decodes(t, resp, err, unchanged)
	if unchanged.Value != "https://staging.example.test" || unchanged.Description != "where the app answers" {
		t.Fatalf("the other scope's variable %+v", unchanged)
	}

	// Masked and hidden: the value is null in every answer, the first included.
	hidden, resp, err := maintainer.ProjectVariables.CreateVariable("acme/web", &gitlab.CreateProjectVariableOptions{
		Key: ptr("GO_CLIENT_SECRET"), Value: ptr("s3cr3t-value-0001"), MaskedAndHidden: ptr(true), VariableType: ptr(gitlab.FileVariableType),
	})
	maintainer.decodes(t, resp, err, hidden)
	if !hidden.Masked || !hidden.Hidden || hidden.VariableType != gitlab.FileVariableType {
		t.Fatalf("hidden %+v", hidden)
	}
	wantNullValue(t, maintainer, resp)
	read, resp, err := maintainer.ProjectVariables.GetVariable("acme/web", "GO_CLIENT_SECRET", nil)
	maintainer.decodes(t, resp, err, read)
	wantNullValue(t, maintainer, resp)
	_, resp, err = maintainer.ProjectVariables.UpdateVariable("acme/web", "GO_CLIENT_SECRET", &gitlab.UpdateProjectVariableOptions{Masked: ptr(false)})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "Updating masked attribute is not allowed on updates for hidden variables.")
	list, resp, err := maintainer.ProjectVariables.ListVariables("acme/web", &gitlab.ListProjectVariablesOptions{ListOptions: gitlab.ListOptions{PerPage: 100}})
	maintainer.decodes(t, resp, err, list)
	keys := map[string]int{}
	for _, variable := range list {
		keys[variable.Key]++
		if variable.Key == "GO_CLIENT_SECRET" && variable.Value != "" {
			t.Fatalf("the list shows a hidden value: %+v", variable)
		}
	}
	if keys["GO_CLIENT_URL"] != 2 || keys["GO_CLIENT_SECRET"] != 1 {
		t.Fatalf("listed keys %v", keys)
	}

	// A masked value the server cannot mask: too short, or a character masking does not take.
	for _, value := range []string{"short", "has spaces in it"} {
		_, resp, err = maintainer.ProjectVariables.CreateVariable("acme/web", &gitlab.CreateProjectVariableOptions{Key: ptr("GO_CLIENT_MASKED"), Value: ptr(value), Masked: ptr(true)})
		maintainer.refused(t, resp, err, http.StatusBadRequest, `"value":["is invalid"]`)
	}
	_, resp, err = maintainer.ProjectVariables.CreateVariable("acme/web", &gitlab.CreateProjectVariableOptions{Key: ptr("GO-CLIENT"), Value: ptr("x")})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "can contain only letters, digits and '_'.")

	dev, outsider := hosted(t, "dev"), hosted(t, "outsider")
	_, resp, err = dev.ProjectVariables.ListVariables("acme/web", nil)
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	_, resp, err = outsider.ProjectVariables.ListVariables("acme/web", nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Project Not Found")

	resp, err = maintainer.ProjectVariables.RemoveVariable("acme/web", "GO_CLIENT_URL", &gitlab.RemoveProjectVariableOptions{Filter: &gitlab.VariableFilter{EnvironmentScope: "production"}})
	succeeds(t, resp, err, http.StatusNoContent)
	// One left: no filter needed now.
	resp, err = maintainer.ProjectVariables.RemoveVariable("acme/web", "GO_CLIENT_URL", nil)
	succeeds(t, resp, err, http.StatusNoContent)
	resp, err = maintainer.ProjectVariables.RemoveVariable("acme/web", "GO_CLIENT_SECRET", nil)
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = maintainer.ProjectVariables.GetVariable("acme/web", "GO_CLIENT_URL", nil)
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Variable Not Found")
}

// wantNullValue fails the test unless the answer's `value` is JSON null
// (client-go's string reads null and "" alike).
func wantNullValue(t *testing.T, a *api, resp *gitlab.Response) {
	t.Helper()
	var body map[string]any
	if err := json.Unmarshal(a.rec.body(t, resp), &body); err != nil {
		t.Fatal(err)
	}
	if value, present := body["value"]; !present || value != nil {
		t.Fatalf("value %v (present: %v), want null", value, present)
	}
}

// A group's variables: scopes on a Premium+ group (acme is Ultimate), none on a Free one.
func TestGroupVariables(t *testing.T) {
	alice := hosted(t, "alice")
	staging, resp, err := alice.GroupVariables.CreateVariable("acme", &gitlab.CreateGroupVariableOptions{
		Key: ptr("GO_CLIENT_REGION"), Value: ptr("eu-west-1"), EnvironmentScope: ptr("staging/*"),
	})
	alice.decodes(t, resp, err, staging)
	if staging.EnvironmentScope != "staging/*" {
		t.Fatalf("variable %+v", staging)
	}
	everywhere, resp, err := alice.GroupVariables.CreateVariable("acme", &gitlab.CreateGroupVariableOptions{
		Key: ptr("GO_CLIENT_REGION"), Value: ptr("us-east-1"), Masked: ptr(true), Raw: ptr(true),
	})
	alice.decodes(t, resp, err, everywhere)
	if everywhere.EnvironmentScope != "*" || !everywhere.Masked || !everywhere.Raw || everywhere.Value != "us-east-1" {
		t.Fatalf("variable %+v", everywhere)
	}
	_, resp, err = alice.GroupVariables.GetVariable("acme", "GO_CLIENT_REGION", nil)
	alice.refused(t, resp, err, http.StatusConflict, "There are multiple variables with provided parameters.")
	// A group's PUT without a filter is the exception: it changes the first variable of the key.
	first, resp, err := alice.GroupVariables.UpdateVariable("acme", "GO_CLIENT_REGION", &gitlab.UpdateGroupVariableOptions{Description: ptr("first of the key")})
	alice.decodes(t, resp, err, first)
	if first.EnvironmentScope != "staging/*" || first.Description != "first of the key" {
		t.Fatalf("changed %+v", first)
	}
	got, resp, err := alice.GroupVariables.GetVariable("acme", "GO_CLIENT_REGION", &gitlab.GetGroupVariableOptions{Filter: &gitlab.VariableFilter{EnvironmentScope: "staging/*"}})
	alice.decodes(t, resp, err, got)
	if got.Value != "eu-west-1" {
		t.Fatalf("staging variable %+v", got)
	}
	updated, resp, err := alice.GroupVariables.UpdateVariable("acme", "GO_CLIENT_REGION", &gitlab.UpdateGroupVariableOptions{
		Filter: &gitlab.VariableFilter{EnvironmentScope: "staging/*"}, EnvironmentScope: ptr("review/*"), Description: ptr("moved"),
	})
	alice.decodes(t, resp, err, updated)
	if updated.EnvironmentScope != "review/*" || updated.Description != "moved" {
		t.Fatalf("updated %+v", updated)
	}
	_, resp, err = alice.GroupVariables.UpdateVariable("acme", "GO_CLIENT_REGION", &gitlab.UpdateGroupVariableOptions{
		Filter: &gitlab.VariableFilter{EnvironmentScope: "review/*"}, EnvironmentScope: ptr("*"),
	})
	alice.refused(t, resp, err, http.StatusBadRequest, "(GO_CLIENT_REGION) has already been taken")
	_, resp, err = alice.GroupVariables.UpdateVariable("acme", "GO_CLIENT_REGION", &gitlab.UpdateGroupVariableOptions{
		Filter: &gitlab.VariableFilter{EnvironmentScope: "*"}, Value: ptr("two words"),
	})
	alice.refused(t, resp, err, http.StatusBadRequest, `"value":["is invalid"]`)
	hidden, resp, err := alice.GroupVariables.CreateVariable("acme", &gitlab.CreateGroupVariableOptions{
		Key: ptr("GO_CLIENT_DEPLOY_KEY"), Value: ptr("k3y-material-0001"), MaskedAndHidden: ptr(true),
	})
	alice.decodes(t, resp, err, hidden)
	wantNullValue(t, alice, resp)
	list, resp, err := alice.GroupVariables.ListVariables("acme", nil)
	alice.decodes(t, resp, err, list)
	if len(list) < 3 {
		t.Fatalf("list %+v", list)
	}

	// beta is Free: its variables have no scopes, whatever the request says.
	free, resp, err := alice.GroupVariables.CreateVariable("beta", &gitlab.CreateGroupVariableOptions{
		Key: ptr("GO_CLIENT_FREE"), Value: ptr("yes"), EnvironmentScope: ptr("production"),
	})
	alice.decodes(t, resp, err, free)
	if free.EnvironmentScope != "*" {
		t.Fatalf("a Free group's variable %+v", free)
	}
	// The filter still narrows there (`Ci::VariablesFinder` knows no tier).
	_, resp, err = alice.GroupVariables.GetVariable("beta", "GO_CLIENT_FREE", &gitlab.GetGroupVariableOptions{Filter: &gitlab.VariableFilter{EnvironmentScope: "production"}})
	alice.refused(t, resp, err, http.StatusNotFound, "404 GroupVariable Not Found")

	maintainer, outsider := hosted(t, "maintainer"), hosted(t, "outsider")
	_, resp, err = maintainer.GroupVariables.ListVariables("acme", nil)
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	_, resp, err = outsider.GroupVariables.GetVariable("acme", "GO_CLIENT_REGION", nil)
	outsider.refused(t, resp, err, http.StatusNotFound, "404 Group Not Found")

	for _, scope := range []string{"review/*", "*"} {
		resp, err = alice.GroupVariables.RemoveVariable("acme", "GO_CLIENT_REGION", &gitlab.RemoveGroupVariableOptions{Filter: &gitlab.VariableFilter{EnvironmentScope: scope}})
		succeeds(t, resp, err, http.StatusNoContent)
	}
	resp, err = alice.GroupVariables.RemoveVariable("acme", "GO_CLIENT_DEPLOY_KEY", nil)
	succeeds(t, resp, err, http.StatusNoContent)
	resp, err = alice.GroupVariables.RemoveVariable("beta", "GO_CLIENT_FREE", nil)
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = alice.GroupVariables.GetVariable("acme", "GO_CLIENT_REGION", nil)
	alice.refused(t, resp, err, http.StatusNotFound, "404 GroupVariable Not Found")
}

// The instance's variables: administrators of a self-managed instance; the hosted offering has none.
func TestInstanceVariables(t *testing.T) {
	root := selfManaged(t, "root")
	variable, resp, err := root.InstanceVariables.CreateVariable(&gitlab.CreateInstanceVariableOptions{
		Key: ptr("GO_CLIENT_PROXY"), Value: ptr("http://proxy.example.test:3128"), Protected: ptr(true), Description: ptr("egress"),
	})
	root.decodes(t, resp, err, variable)
	if !variable.Protected || variable.Description != "egress" {
		t.Fatalf("variable %+v", variable)
	}
	var body map[string]any
	if err := json.Unmarshal(root.rec.body(t, resp), &body); err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{"hidden", "environment_scope"} {
		if _, present := body[absent]; present {
			t.Fatalf("an instance variable has %s: %v", absent, body)
		}
	}
	_, resp, err = root.InstanceVariables.CreateVariable(&gitlab.CreateInstanceVariableOptions{Key: ptr("GO_CLIENT_PROXY"), Value: ptr("again")})
	root.refused(t, resp, err, http.StatusBadRequest, "(GO_CLIENT_PROXY) has already been taken")
	got, resp, err := root.InstanceVariables.GetVariable("GO_CLIENT_PROXY")
	root.decodes(t, resp, err, got)
	updated, resp, err := root.InstanceVariables.UpdateVariable("GO_CLIENT_PROXY", &gitlab.UpdateInstanceVariableOptions{Value: ptr("proxy-token-0001"), Masked: ptr(true)})
	root.decodes(t, resp, err, updated)
	if !updated.Masked || updated.Value != "proxy-token-0001" {
		t.Fatalf("updated %+v", updated)
	}
	_, resp, err = root.InstanceVariables.UpdateVariable("GO_CLIENT_PROXY", &gitlab.UpdateInstanceVariableOptions{Value: ptr("short")})
	root.refused(t, resp, err, http.StatusBadRequest, `"value":["is invalid"]`)
	list, resp, err := root.InstanceVariables.ListVariables(nil)
	root.decodes(t, resp, err, list)
	if len(list) == 0 {
		t.Fatal("no instance variables")
	}

	alice := selfManaged(t, "alice")
	_, resp, err = alice.InstanceVariables.ListVariables(nil)
	alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	hostedRoot := hosted(t, "root")
	_, resp, err = hostedRoot.InstanceVariables.ListVariables(nil)
	hostedRoot.refused(t, resp, err, http.StatusNotFound, "404 Not Found")

	resp, err = root.InstanceVariables.RemoveVariable("GO_CLIENT_PROXY")
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = root.InstanceVariables.GetVariable("GO_CLIENT_PROXY")
	root.refused(t, resp, err, http.StatusNotFound, "404 InstanceVariable Not Found")
}
