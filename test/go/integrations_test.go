package emulator_test

import (
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestGroupIntegrations(t *testing.T) {
	alice := hosted(t, "alice")

	slack, resp, err := alice.Integrations.SetGroupSlackSettings("acme", &gitlab.SetGroupSlackOptions{
		Webhook: ptr("https://hooks.slack.example.test/services/T000/B000/XXXX"), Channel: ptr("#deploys"), PushEvents: ptr(true),
	})
	alice.decodes(t, resp, err, slack)
	if !slack.Active || slack.Slug != "slack" {
		t.Fatalf("slack %+v", slack)
	}
	readBack, resp, err := alice.Integrations.GetGroupSlackSettings("acme")
	alice.decodes(t, resp, err, readBack)

	mattermost, resp, err := alice.Integrations.SetGroupMattermostIntegration("acme", &gitlab.GroupMattermostIntegrationOptions{
		WebHook: ptr("https://mattermost.example.test/hooks/abc"), Channel: ptr("town-square"),
	})
	alice.decodes(t, resp, err, mattermost)
	mattermostRead, resp, err := alice.Integrations.GetGroupMattermostIntegration("acme")
	alice.decodes(t, resp, err, mattermostRead)
	mattermostSettings, resp, err := alice.Integrations.GetGroupMattermostSettings("acme")
	alice.decodes(t, resp, err, mattermostSettings)

	harbor, resp, err := alice.Integrations.SetUpGroupHarbor("acme", &gitlab.SetUpHarborOptions{
		URL: ptr("https://harbor.example.test"), ProjectName: ptr("acme"), Username: ptr("robot"), Password: ptr("harbor-secret"),
	})
	alice.decodes(t, resp, err, harbor)
	harborRead, resp, err := alice.Integrations.GetGroupHarborSettings("acme")
	alice.decodes(t, resp, err, harborRead)

	teams, resp, err := alice.Integrations.SetGroupMicrosoftTeamsNotifications("acme", &gitlab.SetMicrosoftTeamsNotificationsOptions{Webhook: ptr("https://teams.example.test/webhook")})
	alice.decodes(t, resp, err, teams)
	teamsRead, resp, err := alice.Integrations.GetGroupMicrosoftTeamsNotifications("acme")
	alice.decodes(t, resp, err, teamsRead)

	active, resp, err := alice.Integrations.ListActiveGroupIntegrations("acme", nil)
	alice.decodes(t, resp, err, active)
	if len(active) < 4 {
		t.Fatalf("active integrations %d", len(active))
	}

	resp, err = alice.Integrations.DeleteGroupMattermostIntegration("acme")
	succeeds(t, resp, err, http.StatusNoContent)
	resp, err = alice.Integrations.DisableGroupHarbor("acme")
	succeeds(t, resp, err, http.StatusNoContent)

	dev, anonymous := hosted(t, "dev"), hosted(t, "")
	_, resp, err = dev.Integrations.GetGroupSlackSettings("acme")
	dev.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
	_, resp, err = anonymous.Integrations.ListActiveGroupIntegrations("acme", nil)
	anonymous.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")
	_, resp, err = alice.Integrations.SetGroupSlackSettings("acme", &gitlab.SetGroupSlackOptions{Channel: ptr("#no-webhook")})
	alice.refused(t, resp, err, http.StatusBadRequest, "webhook is missing")
}
