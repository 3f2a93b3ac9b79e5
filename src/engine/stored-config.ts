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
import { ownConnectionInForce } from "./process-connections";

let servingProgram = false;
/** The full explanation is given once per run (one provider process); every later resource it stops gets the short form. */
let explained = false;

/** Called from check (never from diff, which refresh calls too): this process serves a running program, configured with the current config. */
export function noteProgramRunning(): void {
  servingProgram = true;
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
