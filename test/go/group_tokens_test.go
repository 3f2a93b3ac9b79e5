package emulator_test

import (
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestGroupCredentialsAndTokens(t *testing.T) {
	alice := hosted(t, "alice")
	tokens, resp, err := alice.GroupCredentials.ListGroupPersonalAccessTokens("acme", &gitlab.ListGroupPersonalAccessTokensOptions{})
	alice.decodes(t, resp, err, tokens)
	if len(tokens) == 0 {
		t.Fatal("no tokens")
	}
	active, resp, err := alice.GroupCredentials.ListGroupPersonalAccessTokens("acme", &gitlab.ListGroupPersonalAccessTokensOptions{Revoked: ptr(false), Search: ptr("laptop")})
	alice.decodes(t, resp, err, active)
	if len(active) != 1 || active[0].Name != "laptop" {
		t.Fatalf("laptop tokens %+v", active)
	}
	maintainer := hosted(t, "maintainer")
	_, resp, err = maintainer.GroupCredentials.ListGroupPersonalAccessTokens("acme", nil)
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	// client-go has no call for POST /groups/:id/tokens/revoke: it goes
	// through the request layer, and the answer decodes into client-go's
	// PersonalAccessToken.
	req, err := alice.NewRequest(http.MethodPost, "groups/acme/tokens/revoke", map[string]string{"token": "glpat-dev-laptop-0001"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var revoked gitlab.PersonalAccessToken
	resp, err = alice.Do(req, &revoked)
	alice.decodes(t, resp, err, &revoked)
	if !revoked.Revoked || revoked.Name != "laptop" {
		t.Fatalf("revoked %+v", revoked)
	}
	// Every refusal of the service is the same 422: an expired token, one of a user outside the group.
	for _, token := range []string{"glpat-dev-old-ci-0002", "glpat-outsider-scratch-0005"} {
		req, _ = alice.NewRequest(http.MethodPost, "groups/acme/tokens/revoke", map[string]string{"token": token}, nil)
		resp, err = alice.Do(req, &revoked)
		alice.refused(t, resp, err, http.StatusUnprocessableEntity, "422 Unprocessable Entity")
	}
	req, _ = maintainer.NewRequest(http.MethodPost, "groups/acme/tokens/revoke", map[string]string{"token": "glpat-dev-leaked-0003"}, nil)
	resp, err = maintainer.Do(req, &revoked)
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	// LDAP sync: self-managed only; 202 with the body 202.
	selfAlice := selfManaged(t, "alice")
	req, _ = selfAlice.NewRequest(http.MethodPost, "groups/acme/ldap_sync", nil, nil)
	resp, err = selfAlice.Do(req, nil)
	succeeds(t, resp, err, http.StatusAccepted)
	req, _ = alice.NewRequest(http.MethodPost, "groups/acme/ldap_sync", nil, nil)
	resp, err = alice.Do(req, nil)
	alice.refused(t, resp, err, http.StatusNotFound, "404 Not Found")

	// Revoking an enterprise user's token through the inventory: 204, then 400 for a token revoked already.
	script, resp, err := alice.GroupCredentials.ListGroupPersonalAccessTokens("acme", &gitlab.ListGroupPersonalAccessTokensOptions{Search: ptr("release-script")})
	alice.decodes(t, resp, err, script)
	if len(script) != 1 {
		t.Fatalf("release-script tokens %+v", script)
	}
	resp, err = alice.GroupCredentials.RevokeGroupPersonalAccessToken("acme", script[0].ID)
	succeeds(t, resp, err, http.StatusNoContent)
	resp, err = alice.GroupCredentials.RevokeGroupPersonalAccessToken("acme", script[0].ID)
	alice.refused(t, resp, err, http.StatusBadRequest, "400 Bad request")
	resp, err = maintainer.GroupCredentials.RevokeGroupPersonalAccessToken("acme", script[0].ID)
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
}
