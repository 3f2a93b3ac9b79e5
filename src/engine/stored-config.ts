/**
 * Token rotation: which copy of the stack config the provider was configured
 * with, and what to say when the server refuses its token.
 *
 * The stack config reaches a dynamic provider through the default
 * `pulumi:providers:pulumi-nodejs` provider, whose inputs (the whole stack
 * config, secrets encrypted) the engine stores in the state at every
 * `pulumi up`. `pulumi refresh`, `pulumi destroy` and the refresh of
 * `pulumi up --refresh` do not run the program: they configure the provider
 * from that stored copy, so after `platform:token` changes they still send
 * the token of the last `up` (Pulumi 3.259). With `--run-program` they run the
 * program and use the current config.
 *
 * The provider cannot read the current config itself (the host passes it
 * only the provider's inputs; PULUMI_CONFIG is empty in its process), but it
 * can nearly tell which copy it has: `pulumi up` and `preview` make the engine
 * call `check` (and `diff`) for the program's resources before any of them is
 * created, updated or deleted; a refresh or destroy calls only `read` and
 * `delete`. So a 401 on read or delete in a process that has seen no `check`
 * is the stored token refused, and the one command that fixes it is the same
 * command with `--run-program`. With `--run-program` the engine calls no
 * `check` either, so the message also says what a 401 means then.
 */
import type { Operation } from "./definition";
import { missingStackSettings, ownConnectionInForce } from "./process-connections";

let servingProgram = false;
/** The full explanation is given once per run (one provider process); every later resource it stops gets the short form. */
let explained = false;
/** The same for a stored config that lacks a setting (storedConfigIncomplete). */
let explainedIncomplete = false;

/** Called from check (never from diff, which refresh calls too): this process serves a running program, configured with the current config. */
export function noteProgramRunning(): void {
  servingProgram = true;
}

/** The environment variable that stands in for a setting the stack's config lacks. */
const STAND_IN: Record<string, string> = { "platform:url": "PLATFORM_URL", "platform:token": "PLATFORM_TOKEN" };

/**
 * What to do when the stored copy of the stack config lacks a setting (the
 * pipeline's stacks keep no token in their config, and earlier templates
 * stored an empty one): undefined when the current config is in force, or
 * nothing is missing. The config's own advice (`pulumi config set`) would
 * not reach the stored copy; the environment does, and so does the current
 * config with `--run-program`.
 */
export function storedConfigIncomplete(operation: Operation): string | undefined {
  const fix = FIX[operation];
  if (!fix || servingProgram || ownConnectionInForce()) return undefined;
  const missing = missingStackSettings();
  if (missing.length === 0) return undefined;
  const variables = missing.map((name) => STAND_IN[name]!).join(" and ");
  if (explainedIncomplete) return `the stack's config stored at the last \`pulumi up\` has no ${missing.join(" or ")}: set ${variables}, or run ${fix} (why: said once in this run, with the first resource it stopped).`;
  explainedIncomplete = true;
  return (
    `the stack's config stored at the last \`pulumi up\` has no ${missing.join(" or ")}. ` +
    "`pulumi refresh`, `pulumi destroy` and the refresh of `pulumi preview --refresh` and `pulumi up --refresh` do not run the program, so they use that stored copy, " +
    `not the current config (setting it with \`pulumi config set\` does not reach the stored copy). Set ${variables} in the environment for this command, ` +
    `which stands in for what the stored copy lacks, or run ${fix} with the setting in the current config.`
  );
}

/** The command that runs an operation from the stored config, with `--run-program`, which reads the current one. */
const FIX: Partial<Record<Operation, string>> = {
  read: "`pulumi refresh --run-program` (or `pulumi up --refresh --run-program`)",
  delete: "`pulumi destroy --run-program`",
};

/**
 * What a 401 means on `operation`, when the token was the stored copy of
 * platform:token; undefined when the current config was in force.
 */
export function storedTokenRefusal(operation: Operation): string | undefined {
  const fix = FIX[operation];
  if (!fix || servingProgram) return undefined;
  // A resource's own connection (./connections.ts) is recorded in its state, and `--run-program` does not change that.
  if (ownConnectionInForce()) {
    return (
      "the server refused the token of the resource's connection, as recorded in the state at the last `pulumi up`: " +
      "`pulumi refresh` and `pulumi destroy` use the recorded one. If the token was rotated, run `pulumi up` first " +
      "(it records the new token, an update in place), then this command again."
    );
  }
  if (explained) {
    return `the server refused the platform:token stored in the stack at the last \`pulumi up\`; run ${fix} (why: said once in this run, with the first resource it stopped).`;
  }
  explained = true;
  return (
    "the server refused the platform:token stored in the stack at the last `pulumi up`. " +
    "`pulumi refresh`, `pulumi destroy` and `pulumi up --refresh` do not run the program, so they use that stored copy, not the current config. " +
    `Run ${fix} to use the current platform:token. ` +
    // With --run-program the engine calls no check either (Pulumi 3.259), so the current token may be the one refused.
    "(If this command ran with --run-program, it is the current platform:token that was refused: set a valid one with `pulumi config set --secret platform:token <token>`.)"
  );
}
