package emulator_test

import (
	"encoding/json"
	"net/http"
	"testing"

	gitlab "gitlab.com/gitlab-org/api/client-go"
)

func TestApplicationSettings(t *testing.T) {
	root := selfManaged(t, "root")

	t.Run("GetSettings decodes every setting into gitlab.Settings", func(t *testing.T) {
		settings, resp, err := root.Settings.GetSettings()
		root.decodes(t, resp, err, settings)
		if settings.PollingIntervalMultiplier != 1 || settings.ExternalAuthorizationServiceTimeout != 0.5 {
			t.Fatalf("polling_interval_multiplier %v, external_authorization_service_timeout %v", settings.PollingIntervalMultiplier, settings.ExternalAuthorizationServiceTimeout)
		}
		// Real servers write the numeric column as text (Rails' BigDecimal), the float one as a number.
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(root.rec.body(t, resp), &raw); err != nil {
			t.Fatal(err)
		}
		if string(raw["polling_interval_multiplier"]) != `"1.0"` || string(raw["external_authorization_service_timeout"]) != `0.5` {
			t.Fatalf("raw polling_interval_multiplier %s, external_authorization_service_timeout %s", raw["polling_interval_multiplier"], raw["external_authorization_service_timeout"])
		}
	})

	t.Run("UpdateSettings sends and reads back the decimal and other types", func(t *testing.T) {
		settings, resp, err := root.Settings.UpdateSettings(&gitlab.UpdateSettingsOptions{
			PollingIntervalMultiplier:  ptr(1.5),
			SignupEnabled:              ptr(false),
			DefaultProjectsLimit:       ptr(int64(42)),
			RestrictedVisibilityLevels: ptr([]gitlab.VisibilityValue{gitlab.PublicVisibility}),
			DomainAllowlist:            ptr([]string{"example.com"}),
			// A float column: a JSON number both ways.
			ExternalAuthorizationServiceTimeout:       ptr(1.5),
			ThrottleAuthenticatedAPIEnabled:           ptr(true),
			ThrottleAuthenticatedAPIPeriodInSeconds:   ptr(int64(60)),
			ThrottleAuthenticatedAPIRequestsPerPeriod: ptr(int64(100000)),
			DefaultBranchProtectionDefaults: &gitlab.DefaultBranchProtectionDefaultsOptions{
				AllowedToPush:  ptr([]*gitlab.GroupAccessLevel{{AccessLevel: ptr(gitlab.DeveloperPermissions)}}),
				AllowForcePush: ptr(true),
			},
		})
		root.decodes(t, resp, err, settings)
		if settings.PollingIntervalMultiplier != 1.5 || settings.ExternalAuthorizationServiceTimeout != 1.5 || !settings.ThrottleAuthenticatedAPIEnabled ||
			settings.ThrottleAuthenticatedAPIRequestsPerPeriod != 100000 || !settings.DefaultBranchProtectionDefaults.AllowForcePush ||
			settings.SignupEnabled || settings.DefaultProjectsLimit != 42 ||
			len(settings.RestrictedVisibilityLevels) != 1 || settings.RestrictedVisibilityLevels[0] != gitlab.PublicVisibility {
			t.Fatalf("not applied: %+v", settings)
		}
		back, resp, err := root.Settings.UpdateSettings(&gitlab.UpdateSettingsOptions{
			PollingIntervalMultiplier: ptr(1.0), SignupEnabled: ptr(true), DefaultProjectsLimit: ptr(int64(100000)),
			RestrictedVisibilityLevels: ptr([]gitlab.VisibilityValue{}), DomainAllowlist: ptr([]string{}),
			ExternalAuthorizationServiceTimeout: ptr(0.5), ThrottleAuthenticatedAPIEnabled: ptr(false),
		})
		root.decodes(t, resp, err, back)
	})

	t.Run("refusals: 401 anonymous, 403 non-administrator, 400 bad value, 404 on the hosted offering", func(t *testing.T) {
		anonymous, alice, hostedRoot := selfManaged(t, ""), selfManaged(t, "alice"), hosted(t, "root")
		_, resp, err := anonymous.Settings.GetSettings()
		anonymous.refused(t, resp, err, http.StatusUnauthorized, "401 Unauthorized")
		_, resp, err = alice.Settings.GetSettings()
		alice.refused(t, resp, err, http.StatusForbidden, "403 Forbidden")
		_, resp, err = root.Settings.UpdateSettings(&gitlab.UpdateSettingsOptions{EmailConfirmationSetting: ptr("sometimes")})
		root.refused(t, resp, err, http.StatusBadRequest, "email_confirmation_setting does not have a valid value")
		_, resp, err = hostedRoot.Settings.GetSettings()
		hostedRoot.refused(t, resp, err, http.StatusNotFound, "404 Not Found")
	})
}
