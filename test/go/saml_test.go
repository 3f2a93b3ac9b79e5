package emulator_test

import (
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestSAMLGroupLinks(t *testing.T) {
	alice := hosted(t, "alice")
	link, resp, err := alice.Groups.AddGroupSAMLLink("acme", &gitlab.AddGroupSAMLLinkOptions{SAMLGroupName: ptr("go-client-devs"), AccessLevel: ptr(gitlab.DeveloperPermissions)})
	alice.decodes(t, resp, err, link)
	if link.Name != "go-client-devs" || link.AccessLevel != gitlab.DeveloperPermissions {
		t.Fatalf("link %+v", link)
	}
	got, resp, err := alice.Groups.GetGroupSAMLLink("acme", "go-client-devs")
	alice.decodes(t, resp, err, got)
	list, resp, err := alice.Groups.ListGroupSAMLLinks("acme")
	alice.decodes(t, resp, err, list)
	if len(list) == 0 {
		t.Fatal("no links")
	}
	_, resp, err = alice.Groups.AddGroupSAMLLink("acme", &gitlab.AddGroupSAMLLinkOptions{SAMLGroupName: ptr("no-level")})
	alice.refused(t, resp, err, http.StatusBadRequest, "access_level is missing")
	maintainer := hosted(t, "maintainer")
	// Real servers answer every failure of admin_saml_group_links (not an Owner here) with 401.
	_, resp, err = maintainer.Groups.ListGroupSAMLLinks("acme")
	maintainer.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")
	resp, err = alice.Groups.DeleteGroupSAMLLink("acme", "go-client-devs")
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = alice.Groups.GetGroupSAMLLink("acme", "go-client-devs")
	alice.refused(t, resp, err, http.StatusNotFound, "404 Not Found")
}

// samlIdentity is a group's SAML identity (`extern_uid`, `user_id`). client-go
// has no call for /groups/:id/saml, so the test sends the requests through
// the client's own request layer (NewRequest, Do).
type samlIdentity struct {
	ExternUID string `json:"extern_uid"`
	UserID    int64  `json:"user_id"`
}

func TestSAMLIdentitiesThroughTheClientsRequestLayer(t *testing.T) {
	alice := hosted(t, "alice")
	do := func(c *api, method, path string, body any, into any) (*gitlab.Response, error) {
		req, err := c.NewRequest(method, path, body, nil)
		if err != nil {
			t.Fatal(err)
		}
		return c.Do(req, into)
	}
	var identities []*samlIdentity
	resp, err := do(alice, http.MethodGet, "groups/acme/saml/identities", nil, &identities)
	alice.decodes(t, resp, err, identities)
	if len(identities) != 4 {
		t.Fatalf("identities %+v", identities)
	}
	var one samlIdentity
	resp, err = do(alice, http.MethodGet, "groups/acme/saml/idp-1003-dev", nil, &one)
	alice.decodes(t, resp, err, &one)
	var edited samlIdentity
	resp, err = do(alice, http.MethodPatch, "groups/acme/saml/idp-1003-dev", map[string]string{"extern_uid": "dev@idp.example"}, &edited)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("edit: %v", err)
	}
	resp, err = do(alice, http.MethodGet, "groups/acme/saml/dev@idp.example", nil, &one)
	alice.decodes(t, resp, err, &one)
	maintainer := hosted(t, "maintainer")
	resp, err = do(maintainer, http.MethodGet, "groups/acme/saml/identities", nil, &identities)
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	resp, err = do(alice, http.MethodGet, "groups/acme/saml/nobody", nil, &one)
	alice.refused(t, resp, err, http.StatusNotFound, "404 Identity Not Found")
}
