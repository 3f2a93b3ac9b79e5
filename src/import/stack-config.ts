/**
 * `platform-import --stack <name>`: the secret values the server shows (CI/CD
 * variables' values) set in that stack's config, each encrypted by the
 * stack's secrets provider through `pulumi config set --secret`, the value on
 * the CLI's standard input (never an argument, which other users of the
 * machine may read), so the program's text and every file but the stack's
 * config keep none of them.
 */
import { execFileSync } from "node:child_process";
import { absolutePathEntries } from "../executable-path";

/** A stack name as the Pulumi CLI takes it (`prod`, `acme/platform/prod`). */
export const STACK_NAME = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+){0,2}$/;

/** Runs the Pulumi CLI in `dir`, found only in PATH's absolute entries; its error names the step, never `input`. */
function pulumi(dir: string, args: string[], input = ""): void {
  try {
    execFileSync("pulumi", ["--non-interactive", ...args], {
      cwd: dir,
      input,
      encoding: "utf8",
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, PATH: absolutePathEntries(process.env.PATH), PULUMI_SKIP_UPDATE_CHECK: "true" },
    });
  } catch (error) {
    const failed = error as { stderr?: string; code?: string; message: string };
    const said = (failed.stderr ?? "").split(input).join("[secret]").trim().split("\n").at(-1) ?? "";
    throw new Error(`pulumi ${args.slice(0, 3).join(" ")} failed${failed.code === "ENOENT" ? ": no pulumi on PATH" : said ? `: ${said}` : ""}`);
  }
}

/**
 * Selects `stack` in the program's directory (creating it when it does not
 * exist, on the backend the CLI is logged in to) and sets each value under
 * its config key, encrypted. Returns the keys set, sorted.
 */
export function setStackSecrets(dir: string, stack: string, values: ReadonlyMap<string, string>): string[] {
  if (!STACK_NAME.test(stack)) throw new Error(`--stack ${JSON.stringify(stack)} is not a stack name (letters, digits, _ . -, with at most two / for an organization and project)`);
  if (values.size === 0) return [];
  pulumi(dir, ["stack", "select", "--create", stack]);
  const keys = [...values.keys()].sort();
  for (const key of keys) pulumi(dir, ["config", "set", "--secret", "--stack", stack, key], values.get(key)!);
  return keys;
}
