/** Facts the application settings tests state apart from the code they test. */

/**
 * The instance's credentials (the API documentation's and `lib/api/settings.rb`'s
 * keys, tokens and secrets), listed here apart from the catalogue, so that an
 * entry missing there fails: those the answer shows, and those it never shows.
 */
export const SHOWN_CREDENTIALS: readonly string[] = [
  "akismet_api_key",
  "recaptcha_site_key",
  "recaptcha_private_key",
  "external_pipeline_validation_service_token",
  "external_auth_client_key",
  "external_auth_client_key_pass",
  "mailgun_signing_key",
  "slack_app_secret",
  "slack_app_signing_secret",
  "slack_app_verification_token",
  "spam_check_api_key",
  "static_objects_external_storage_auth_token",
];
export const HIDDEN_CREDENTIALS: readonly string[] = ["asset_proxy_secret_key", "eks_secret_access_key"];
