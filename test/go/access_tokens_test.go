package emulator_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func isoDate(t time.Time) *gitlab.ISOTime {
	date := gitlab.ISOTime(time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC))
	return &date
}

// A project access token: made by a Maintainer, used, read, rotated (the
// old token stops working), then revoked.
func TestProjectAccessTokens(t *testing.T) {
	maintainer := hosted(t, "maintainer")
	expires := isoDate(time.Now().AddDate(0, 1, 0))
	token, resp, err := maintainer.ProjectAccessTokens.CreateProjectAccessToken("acme/api", &gitlab.CreateProjectAccessTokenOptions{
		Name: ptr("go-client"), Description: ptr("made by the Go client"), Scopes: ptr([]string{"read_api"}), AccessLevel: ptr(gitlab.DeveloperPermissions), ExpiresAt: expires,
	})
	maintainer.decodes(t, resp, err, token)
	revokesAfter := func(id int64) {
		t.Cleanup(func() { _, _ = maintainer.ProjectAccessTokens.RevokeProjectAccessToken("acme/api", id) })
	}
	revokesAfter(token.ID)
	if token.Token == "" || token.Name != "go-client" || token.AccessLevel != gitlab.DeveloperPermissions || !token.Active || token.Revoked || token.UserID == 0 ||
		token.ExpiresAt == nil || token.ExpiresAt.String() != expires.String() || len(token.Scopes) != 1 {
		t.Fatalf("token %+v", token)
	}
	// The token is its bot's: a Developer of the project, with read_api.
	bot := clientWithToken(t, hostedURL, token.Token)
	seen, resp, err := bot.Projects.GetProject("acme/api", nil)
	bot.decodes(t, resp, err, seen)
	_, resp, err = bot.Projects.EditProject("acme/api", &gitlab.EditProjectOptions{Description: ptr("by the bot")})
	bot.refused(t, resp, err, http.StatusForbidden, "insufficient_scope")
	member, resp, err := maintainer.ProjectMembers.GetProjectMember("acme/api", token.UserID)
	maintainer.decodes(t, resp, err, member)
	if member.AccessLevel != gitlab.DeveloperPermissions {
		t.Fatalf("bot member %+v", member)
	}

	got, resp, err := maintainer.ProjectAccessTokens.GetProjectAccessToken("acme/api", token.ID)
	maintainer.decodes(t, resp, err, got)
	if got.Token != "" || got.Description != "made by the Go client" {
		t.Fatalf("got %+v", got)
	}
	active, resp, err := maintainer.ProjectAccessTokens.ListProjectAccessTokens("acme/api", &gitlab.ListProjectAccessTokensOptions{State: ptr("active")})
	maintainer.decodes(t, resp, err, active)
	if len(active) != 1 || active[0].ID != token.ID {
		t.Fatalf("active %+v", active)
	}
	// Another project's token is not this one's.
	web, resp, err := maintainer.ProjectAccessTokens.ListProjectAccessTokens("acme/web", nil)
	maintainer.decodes(t, resp, err, web)
	_, resp, err = maintainer.ProjectAccessTokens.GetProjectAccessToken("acme/api", web[0].ID)
	maintainer.refused(t, resp, err, http.StatusNotFound, fmt.Sprintf("404 Could not find project access token with token_id: %d Not Found", web[0].ID))

	_, resp, err = maintainer.ProjectAccessTokens.CreateProjectAccessToken("acme/api", &gitlab.CreateProjectAccessTokenOptions{
		Name: ptr("too strong"), Scopes: ptr([]string{"api"}), AccessLevel: ptr(gitlab.OwnerPermissions),
	})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "Access level of the token contains permissions not held by the creating user")
	_, resp, err = maintainer.ProjectAccessTokens.CreateProjectAccessToken("acme/api", &gitlab.CreateProjectAccessTokenOptions{
		Name: ptr("too long"), Scopes: ptr([]string{"api"}), ExpiresAt: isoDate(time.Now().AddDate(2, 0, 0)),
	})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "must be before")
	dev := hosted(t, "dev")
	_, resp, err = dev.ProjectAccessTokens.CreateProjectAccessToken("acme/api", &gitlab.CreateProjectAccessTokenOptions{Name: ptr("by dev"), Scopes: ptr([]string{"api"})})
	dev.refused(t, resp, err, http.StatusBadRequest, "User does not have permission to create project access token")
	_, resp, err = dev.ProjectAccessTokens.ListProjectAccessTokens("acme/api", nil)
	dev.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")

	rotatedExpiry := isoDate(time.Now().AddDate(0, 2, 0))
	rotated, resp, err := maintainer.ProjectAccessTokens.RotateProjectAccessToken("acme/api", token.ID, &gitlab.RotateProjectAccessTokenOptions{ExpiresAt: rotatedExpiry})
	maintainer.decodes(t, resp, err, rotated)
	revokesAfter(rotated.ID)
	if rotated.ID == token.ID || rotated.Token == "" || rotated.Token == token.Token || rotated.UserID != token.UserID || rotated.Name != "go-client" || rotated.ExpiresAt.String() != rotatedExpiry.String() {
		t.Fatalf("rotated %+v", rotated)
	}
	_, resp, err = bot.Projects.GetProject("acme/api", nil)
	bot.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")
	_, resp, err = maintainer.ProjectAccessTokens.RotateProjectAccessToken("acme/api", token.ID, nil)
	maintainer.refused(t, resp, err, http.StatusBadRequest, "Token already revoked")
	rotatedBot := clientWithToken(t, hostedURL, rotated.Token)
	_, resp, err = rotatedBot.Projects.GetProject("acme/api", nil)
	if err != nil {
		t.Fatalf("the rotated token does not work: %v", err)
	}

	resp, err = maintainer.ProjectAccessTokens.RevokeProjectAccessToken("acme/api", rotated.ID)
	succeeds(t, resp, err, http.StatusNoContent)
	_, resp, err = rotatedBot.Projects.GetProject("acme/api", nil)
	rotatedBot.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")
	revoked, resp, err := maintainer.ProjectAccessTokens.GetProjectAccessToken("acme/api", rotated.ID)
	maintainer.decodes(t, resp, err, revoked)
	if !revoked.Revoked || revoked.Active {
		t.Fatalf("revoked %+v", revoked)
	}
	_, resp, err = maintainer.ProjectMembers.GetProjectMember("acme/api", token.UserID)
	maintainer.refused(t, resp, err, http.StatusNotFound, "404 Not found")
}

// A group access token: its Owners make, rotate and revoke it.
func TestGroupAccessTokenLifecycle(t *testing.T) {
	alice := hosted(t, "alice")
	token, resp, err := alice.GroupAccessTokens.CreateGroupAccessToken("acme", &gitlab.CreateGroupAccessTokenOptions{
		Name: ptr("go-client-group"), Scopes: ptr([]string{"read_repository"}), AccessLevel: ptr(gitlab.ReporterPermissions),
	})
	alice.decodes(t, resp, err, token)
	if token.Token == "" || token.AccessLevel != gitlab.ReporterPermissions || token.ExpiresAt == nil {
		t.Fatalf("token %+v", token)
	}
	got, resp, err := alice.GroupAccessTokens.GetGroupAccessToken("acme", token.ID)
	alice.decodes(t, resp, err, got)
	maintainer := hosted(t, "maintainer")
	_, resp, err = maintainer.GroupAccessTokens.CreateGroupAccessToken("acme", &gitlab.CreateGroupAccessTokenOptions{Name: ptr("no"), Scopes: ptr([]string{"api"})})
	maintainer.refused(t, resp, err, http.StatusBadRequest, "User does not have permission to create group access token")
	_, resp, err = maintainer.GroupAccessTokens.RotateGroupAccessToken("acme", token.ID, nil)
	maintainer.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")
	_, resp, err = alice.GroupAccessTokens.CreateGroupAccessToken("acme", &gitlab.CreateGroupAccessTokenOptions{Name: ptr("bad scope"), Scopes: ptr([]string{"sudo"})})
	alice.refused(t, resp, err, http.StatusBadRequest, "scopes")

	rotated, resp, err := alice.GroupAccessTokens.RotateGroupAccessToken("acme", token.ID, nil)
	alice.decodes(t, resp, err, rotated)
	if rotated.Token == "" || rotated.UserID != token.UserID {
		t.Fatalf("rotated %+v", rotated)
	}
	list, resp, err := alice.GroupAccessTokens.ListGroupAccessTokens("acme", &gitlab.ListGroupAccessTokensOptions{State: ptr(gitlab.AccessTokenStateInactive)})
	alice.decodes(t, resp, err, list)
	found := false
	for _, listed := range list {
		found = found || listed.ID == token.ID && listed.Revoked
	}
	if !found {
		t.Fatalf("the rotated-out token is not listed as inactive: %+v", list)
	}
	resp, err = alice.GroupAccessTokens.RevokeGroupAccessToken("acme", rotated.ID)
	succeeds(t, resp, err, http.StatusNoContent)
	resp, err = alice.GroupAccessTokens.RevokeGroupAccessToken("acme", rotated.ID)
	alice.refused(t, resp, err, http.StatusBadRequest, "Failed to find bot user")
}
