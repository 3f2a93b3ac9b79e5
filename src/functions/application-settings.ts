/**
 * Instance application settings:
 * one object, read by administrators on self-managed and dedicated
 * instances. The hosted offering has no such endpoint (real servers answer an
 * unknown route, 404 `{"error":"404 Not Found"}`); a signed-in user who is not
 * an administrator gets 403 (`authenticated_as_admin!`).
 *
 * Every setting the API documentation names is typed below; a server shows many more (its
 * full list is not in the API documentation), and they are kept, camelCased. Premium and
 * Ultimate settings appear only on such a licence. Settings change through
 * the ApplicationSettings resource; real servers cache them for 60 seconds,
 * so a read right after a change may show the old value.
 *
 * Secrets: the settings hold API keys and tokens of the services the instance
 * talks to (the answer's fields with the `secret` trait); when any of them is
 * set, the Output form is secret.
 */
import { z } from "zod";
import { APPLICATION_SETTINGS_PATH, applicationSettingsRead as settingsShape, INSTANCE_SETTINGS_NEEDS } from "../api/application-settings";
import { defineObjectFunction, type Camelized, type FunctionOutputOptions } from "./core";

export type ApplicationSettingsInfo = Camelized<z.output<typeof settingsShape>>;

const applicationSettings = defineObjectFunction({
  name: "getApplicationSettings",
  args: z.object({}),
  path: () => APPLICATION_SETTINGS_PATH,
  subject: () => "the instance's application settings",
  needs: () => INSTANCE_SETTINGS_NEEDS,
  result: settingsShape,
});

/**
 * The instance's application settings (administrators, self-managed and dedicated instances).
 * It takes no arguments; any given are refused, as every lookup refuses unknown ones.
 *
 * ```ts
 * const { signupEnabled, throttleAuthenticatedApiEnabled } = await getApplicationSettings();
 * ```
 */
export const getApplicationSettings = (args: Record<string, never> = {}): Promise<ApplicationSettingsInfo> => applicationSettings(args);
/** `getApplicationSettings` as an Output (it takes no arguments, only options); secret when a credential setting is set. */
export const getApplicationSettingsOutput = (opts?: FunctionOutputOptions) => applicationSettings.output({}, opts);
