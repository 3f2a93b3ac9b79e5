package emulator_test

import (
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"testing"
	"time"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

// ed25519Key is an SSH public key line of the type ssh-ed25519 whose 32 key bytes are all fill.
func ed25519Key(fill byte, comment string) string {
	blob := []byte{}
	for _, part := range [][]byte{[]byte("ssh-ed25519"), make([]byte, 32)} {
		blob = binary.BigEndian.AppendUint32(blob, uint32(len(part)))
		blob = append(blob, part...)
	}
	for i := len(blob) - 32; i < len(blob); i++ {
		blob[i] = fill
	}
	return "ssh-ed25519 " + base64.StdEncoding.EncodeToString(blob) + " " + comment
}

// A deploy key added to acme/web with write access, enabled on acme/api,
// allowed to push to a protected branch, then deleted from both.
func TestDeployKeys(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	expires := time.Now().AddDate(0, 6, 0).UTC().Truncate(time.Second)
	key, resp, err := maintainer.DeployKeys.AddDeployKey("acme/web", &gitlab.AddDeployKeyOptions{
		Title: ptr("go-client deploy"), Key: ptr(ed25519Key(7, "go-client@example.test")), CanPush: ptr(true), ExpiresAt: ptr(expires),
	})
	maintainer.decodes(t, resp, err, key)
	if key.Title != "go-client deploy" || !key.CanPush || key.ExpiresAt == nil || !key.ExpiresAt.Equal(expires) || key.FingerprintSHA256 == "" || key.Fingerprint == "" {
		t.Fatalf("key %+v", key)
	}
	_, resp, err = maintainer.DeployKeys.AddDeployKey("acme/web", &gitlab.AddDeployKeyOptions{Title: ptr("broken"), Key: ptr("ssh-ed25519 AAAA broken")})
	maintainer.refused(t, resp, err, http.StatusBadRequest, `"key":["is invalid"]`)
	_, resp, err = maintainer.DeployKeys.AddDeployKey("acme/web", &gitlab.AddDeployKeyOptions{
		Title: ptr("expired"), Key: ptr(ed25519Key(8, "expired")), ExpiresAt: ptr(time.Now().AddDate(0, 0, -1)),
	})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "must be in the future")

	got, resp, err := maintainer.DeployKeys.GetDeployKey("acme/web", key.ID)
	maintainer.decodes(t, resp, err, got)
	listed, resp, err := maintainer.DeployKeys.ListProjectDeployKeys("acme/web", nil)
	maintainer.decodes(t, resp, err, listed)
	if len(listed) != 1 || listed[0].ID != key.ID {
		t.Fatalf("listed %+v", listed)
	}
	updated, resp, err := maintainer.DeployKeys.UpdateDeployKey("acme/web", key.ID, &gitlab.UpdateDeployKeyOptions{Title: ptr("go-client deploy (renamed)")})
	maintainer.decodes(t, resp, err, updated)
	if updated.Title != "go-client deploy (renamed)" || !updated.CanPush {
		t.Fatalf("updated %+v", updated)
	}

	// Enabled on another project the caller maintains: read-only there.
	enabled, resp, err := maintainer.DeployKeys.EnableDeployKey("acme/api", key.ID)
	maintainer.decodes(t, resp, err, enabled)
	there, resp, err := maintainer.DeployKeys.GetDeployKey("acme/api", key.ID)
	maintainer.decodes(t, resp, err, there)
	if there.CanPush {
		t.Fatalf("enabled with write access: %+v", there)
	}
	alice := hosted(t, "alice")
	onSite, resp, err := alice.DeployKeys.EnableDeployKey("beta/site", key.ID)
	alice.decodes(t, resp, err, onSite)
	resp, err = alice.DeployKeys.DeleteDeployKey("beta/site", key.ID)
	succeeds(t, resp, err, http.StatusNoContent)
	dev := hosted(t, "dev")
	_, resp, err = dev.DeployKeys.ListProjectDeployKeys("acme/web", nil)
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")

	// A key with write access to the project may be allowed to push to a protected branch; a read-only one may not.
	rule, resp, err := maintainer.ProtectedBranches.ProtectRepositoryBranches("acme/web", &gitlab.ProtectRepositoryBranchesOptions{
		Name: ptr("go-client-deploy"), AllowedToPush: &[]*gitlab.BranchPermissionOptions{{DeployKeyID: ptr(key.ID)}},
	})
	maintainer.decodes(t, resp, err, rule)
	if len(rule.PushAccessLevels) != 1 || rule.PushAccessLevels[0].DeployKeyID != key.ID || rule.PushAccessLevels[0].AccessLevelDescription != "go-client deploy (renamed)" {
		t.Fatalf("rule %+v", rule.PushAccessLevels)
	}
	resp, err = maintainer.ProtectedBranches.UnprotectRepositoryBranches("acme/web", "go-client-deploy")
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = maintainer.ProtectedBranches.ProtectRepositoryBranches("acme/api", &gitlab.ProtectRepositoryBranchesOptions{
		Name: ptr("go-client-deploy"), AllowedToPush: &[]*gitlab.BranchPermissionOptions{{DeployKeyID: ptr(key.ID)}},
	})
	maintainer.refused(t, resp, err, http.StatusUnprocessableEntity, "Push access levels deploy key is not enabled for this project")

	resp, err = maintainer.DeployKeys.DeleteDeployKey("acme/web", key.ID)
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = maintainer.DeployKeys.GetDeployKey("acme/web", key.ID)
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")
	// Still enabled on acme/api, and deleted with its last project.
	resp, err = maintainer.DeployKeys.DeleteDeployKey("acme/api", key.ID)
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = maintainer.DeployKeys.EnableDeployKey("acme/web", key.ID)
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")
}

// Deploy tokens of a project (its Maintainers) and of a group (its Owners).
func TestDeployTokens(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	expires := time.Date(2031, 1, 2, 0, 0, 0, 0, time.UTC)
	token, resp, err := maintainer.DeployTokens.CreateProjectDeployToken("acme/web", &gitlab.CreateProjectDeployTokenOptions{
		Name: ptr("go-client"), Scopes: ptr([]string{"read_repository", "read_registry"}), ExpiresAt: ptr(expires),
	})
	maintainer.decodes(t, resp, err, token)
	if token.Token == "" || token.Username != "gitlab+deploy-token-"+itoa(token.ID) || token.ExpiresAt == nil || !token.ExpiresAt.Equal(expires) || token.Revoked || token.Expired || len(token.Scopes) != 2 {
		t.Fatalf("token %+v", token)
	}
	got, resp, err := maintainer.DeployTokens.GetProjectDeployToken("acme/web", token.ID)
	maintainer.decodes(t, resp, err, got)
	if got.Token != "" {
		t.Fatal("a read shows the token")
	}
	named, resp, err := maintainer.DeployTokens.CreateProjectDeployToken("acme/web", &gitlab.CreateProjectDeployTokenOptions{
		Name: ptr("go-client-named"), Username: ptr("go-client-bot"), Scopes: ptr([]string{"read_package_registry"}),
	})
	maintainer.decodes(t, resp, err, named)
	_, resp, err = maintainer.DeployTokens.CreateProjectDeployToken("acme/web", &gitlab.CreateProjectDeployTokenOptions{
		Name: ptr("again"), Username: ptr("go-client-bot"), Scopes: ptr([]string{"read_repository"}),
	})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "Username has already been taken")
	_, resp, err = maintainer.DeployTokens.CreateProjectDeployToken("acme/web", &gitlab.CreateProjectDeployTokenOptions{Name: ptr("bad"), Scopes: ptr([]string{"api"})})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "scopes")
	list, resp, err := maintainer.DeployTokens.ListProjectDeployTokens("acme/web", nil)
	maintainer.decodes(t, resp, err, list)
	names := map[string]bool{}
	for _, listed := range list {
		names[listed.Name] = true
	}
	if !names["web-clone"] || !names["go-client"] || !names["go-client-named"] {
		t.Fatalf("listed %v", names)
	}
	dev := hosted(t, "dev")
	_, resp, err = dev.DeployTokens.ListProjectDeployTokens("acme/web", nil)
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	for _, id := range []int64{token.ID, named.ID} {
		resp, err = maintainer.DeployTokens.DeleteProjectDeployToken("acme/web", id)
		succeeds(t, resp, err, http.StatusNoContent)
	}
	_, resp, err = maintainer.DeployTokens.GetProjectDeployToken("acme/web", token.ID)
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")

	alice := hosted(t, "alice")
	groupToken, resp, err := alice.DeployTokens.CreateGroupDeployToken("acme", &gitlab.CreateGroupDeployTokenOptions{
		Name: ptr("go-client-group"), Scopes: ptr([]string{"read_package_registry"}),
	})
	alice.decodes(t, resp, err, groupToken)
	if groupToken.Token == "" || groupToken.ExpiresAt != nil {
		t.Fatalf("group token %+v", groupToken)
	}
	groupList, resp, err := alice.DeployTokens.ListGroupDeployTokens("acme", nil)
	alice.decodes(t, resp, err, groupList)
	if len(groupList) != 2 {
		t.Fatalf("group tokens %+v", groupList)
	}
	one, resp, err := alice.DeployTokens.GetGroupDeployToken("acme", groupToken.ID)
	alice.decodes(t, resp, err, one)
	// A project's token is not the group's.
	_, resp, err = alice.DeployTokens.GetGroupDeployToken("acme", list[0].ID)
	alice.refused(t, resp, err, http.StatusNotFound, "404 Not found")
	_, resp, err = maintainer.DeployTokens.CreateGroupDeployToken("acme", &gitlab.CreateGroupDeployTokenOptions{Name: ptr("no"), Scopes: ptr([]string{"read_repository"})})
	maintainer.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	resp, err = alice.DeployTokens.DeleteGroupDeployToken("acme", groupToken.ID)
	succeeds(t, resp, err, http.StatusNoContent)
}
