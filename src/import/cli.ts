/**
 * `platform-import`: writes a Pulumi program that takes over what a group
 * (its subgroups and projects), named projects and the instance hold on the
 * server, each object as its resource with the `import` option
 * (docs/import.md). Reads only; the server and token are the package's
 * (PLATFORM_URL, PLATFORM_TOKEN, and the CA, client certificate, header and
 * proxy settings: src/connection.ts). Exit: 0 written, 1 failed or refused
 * (edited files), 2 wrong usage.
 */
import "../node-version"; // first: says what to do on a Node.js older than 22
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { ReadLimitExceeded, readTextWithin } from "../bounded-read";
import path from "node:path";
import { parseArgs } from "node:util";
import { closeAllPools } from "../client";
import { client, connectionSecrets } from "../engine/process-connections";
import { visible } from "../visible-text";
import { programOf, type TemplateFiles } from "./program";
import { readEstate, readTargets, type Estate, type ReadOptions } from "./read";
import { setStackSecrets, STACK_NAME } from "./stack-config";
import { MAX_STATE_BYTES, targetsOfState } from "./terraform";
import { readManifest, writeProgram, type WriteResult } from "./write";

const USAGE = `Usage: platform-import --out <dir> [--group <path>] [--project <path>]... [--instance] [options]
       platform-import --out <dir> --from-terraform <terraform.tfstate> [options]
  --group <id|path>     a group: its objects, and those of its subgroups and projects, recursively
  --project <id|path>   a project (repeat for more), besides or instead of --group
  --instance            the instance's application settings (self-managed; an administrator's token)
  --from-terraform <f>  the objects a GitLab Terraform provider's state manages (badges, pipeline schedules,
                        SAML group links, group integrations, application settings, groups' settings,
                        CI/CD variables)
  --out <dir>           where the program goes (a new directory, or one an earlier run wrote)
  --stack <name>        set the values the server shows of the secrets the program reads (CI/CD
                        variables' values) in this stack's config, encrypted (pulumi config set
                        --secret; the stack is created when missing); without it, the summary lists them
  --exclusive           also the only-these set of each collection (badges, schedules, integrations,
                        SAML group links, upstreams): what is not declared is deleted from then on
  --name <name>         the Pulumi project's name (default: the out dir's name)
  --beside              when a file was edited since the last run, write the new one beside it
                        (<file>.imported) instead of refusing
  --concurrency <n>     owners read at once (default 8; the client's rate-limit gate bounds requests too)
  --quiet               no progress on standard error
The server and token: PLATFORM_URL and PLATFORM_TOKEN (a read_api token is enough), with
PLATFORM_CA_CERTIFICATE, PLATFORM_CLIENT_CERTIFICATE, PLATFORM_CLIENT_KEY, PLATFORM_HEADERS, PLATFORM_INSECURE.`;

class UsageError extends Error {}

const TEMPLATE = path.join(__dirname, "..", "..", "templates", "platform");

interface Options {
  fromTerraform?: string;
  group?: string;
  projects: string[];
  instance: boolean;
  out: string;
  stack?: string;
  exclusive: boolean;
  name: string;
  beside: boolean;
  concurrency: number;
  quiet: boolean;
}

function optionsOf(argv: string[]): Options {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        group: { type: "string" },
        project: { type: "string", multiple: true },
        instance: { type: "boolean", default: false },
        "from-terraform": { type: "string" },
        out: { type: "string" },
        stack: { type: "string" },
        exclusive: { type: "boolean", default: false },
        name: { type: "string" },
        beside: { type: "boolean", default: false },
        concurrency: { type: "string" },
        quiet: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) throw new UsageError("");
  if (!values.out) throw new UsageError("give --out <dir>, where the program goes");
  const fromTerraform = values["from-terraform"];
  const scoped = values.group !== undefined || (values.project ?? []).length > 0 || values.instance;
  if (fromTerraform !== undefined && (scoped || values.exclusive)) throw new UsageError("--from-terraform takes its objects from the state: give it without --group, --project, --instance and --exclusive");
  if (fromTerraform === undefined && !scoped) throw new UsageError("give what to import: --group, --project, --instance or --from-terraform");
  const name = values.name ?? path.basename(path.resolve(values.out));
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new UsageError(`"${name}" cannot be a Pulumi project name (letters, digits, _ . -); give --name`);
  const concurrency = values.concurrency === undefined ? 8 : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) throw new UsageError("--concurrency is a whole number from 1 to 64");
  if (values.stack !== undefined && !STACK_NAME.test(values.stack)) throw new UsageError(`--stack ${JSON.stringify(values.stack)} is not a stack name`);
  return { fromTerraform, group: values.group, projects: values.project ?? [], instance: values.instance, out: values.out, stack: values.stack, exclusive: values.exclusive, name, beside: values.beside, concurrency, quiet: values.quiet };
}

/** A message with every token and header value in force masked, should a server repeat one. */
function masked(text: string): string {
  let result = text;
  for (const secret of connectionSecrets()) if (secret.length > 0) result = result.split(secret).join("[secret]");
  return result;
}

function summaryOf(estate: Estate, secrets: readonly string[], result: WriteResult, out: string, stackSet: { stack?: string; keys: readonly string[]; shown: readonly string[] }): string {
  const counts = new Map<string, number>();
  for (const declaration of estate.declarations) counts.set(declaration.kind, (counts.get(declaration.kind) ?? 0) + 1);
  const lines = [`platform-import: ${estate.declarations.length} objects in ${out}`];
  for (const [kind, count] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) lines.push(`  ${kind}: ${count}`);
  const files = (label: string, list: string[]) => (list.length === 0 ? [] : [`${label}: ${list.join(", ")}`]);
  lines.push(
    ...files("written", result.written),
    ...files("unchanged", result.unchanged),
    ...files("kept as they are (the template's files are the project's once written)", result.kept),
    ...files("removed (no longer on the server)", result.removed),
    ...files("written beside edited files", result.beside),
  );
  if (estate.skipped.length > 0) {
    lines.push("skipped:");
    // Server and state text shown as it reads: the owner as a JSON string, and every deceptive character escaped, so nothing starts a line of its own.
    const skipped = estate.skipped.map((skip) => `  ${visible(JSON.stringify(skip.where))}: ${visible(skip.what)}: ${visible(skip.why)}`);
    lines.push(...skipped.sort());
  }
  if (stackSet.keys.length > 0) lines.push(`set in the config of stack ${stackSet.stack}, encrypted: ${stackSet.keys.join(", ")}`);
  const hidden = secrets.filter((configKey) => !stackSet.shown.includes(configKey));
  const shown = secrets.filter((configKey) => stackSet.shown.includes(configKey) && !stackSet.keys.includes(configKey));
  if (hidden.length > 0) {
    lines.push("secrets the server never shows; set each before the first preview:");
    for (const configKey of hidden) lines.push(`  pulumi config set --secret ${configKey}`);
  }
  if (shown.length > 0) {
    lines.push("secret values the server shows (CI/CD variables), kept out of the program's text; set each before the first preview (or run again with --stack <name>):");
    for (const configKey of shown) lines.push(`  pulumi config set --secret ${configKey}`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * The template's files the program starts from (the project's index.ts and
 * Pulumi.yaml are the import's own): its package, its TypeScript settings,
 * what git ignores, and the review pipeline.
 */
function templateFiles(): TemplateFiles {
  const read = (name: string) => readFileSync(path.join(TEMPLATE, name), "utf8");
  // npm keeps `.gitignore` files out of packages: `npm run package` ships the template's as `gitignore`.
  const ignore = [".gitignore", "gitignore"].find((name) => existsSync(path.join(TEMPLATE, name)));
  return {
    "package.json": read("package.json"),
    "tsconfig.json": read("tsconfig.json"),
    ".gitlab-ci.yml": read(".gitlab-ci.yml"),
    ...(ignore ? { ".gitignore": read(ignore) } : {}),
  };
}

/** The objects a Terraform state names, read from the server; what the package does not manage is in `skipped`. */
async function fromTerraform(file: string, reading: ReadOptions): Promise<Estate> {
  let text: string;
  try {
    // Bounded by the bytes read: a link to /dev/zero, a FIFO or a /proc file states a size of 0 and never ends.
    text = readTextWithin(file, MAX_STATE_BYTES, `${file} (the Terraform state)`);
  } catch (error) {
    if (error instanceof ReadLimitExceeded) throw new Error(`${error.message} Not a state this command reads.`);
    throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const { targets, skipped } = targetsOfState(text);
  const estate = await readTargets(client(), targets, reading);
  estate.skipped.unshift(...skipped);
  return estate;
}

export async function main(argv: string[], out: (text: string) => void = (text) => process.stdout.write(text), err: (text: string) => void = (text) => process.stderr.write(text)): Promise<number> {
  let options: Options;
  try {
    options = optionsOf(argv);
  } catch (error) {
    const message = (error as Error).message;
    err(message === "" ? `${USAGE}\n` : `platform-import: ${message}\n${USAGE}\n`);
    return message === "" ? 0 : 2;
  }
  try {
    const dir = path.resolve(options.out);
    const manifest = readManifest(dir);
    const started = Date.now();
    const reading = { concurrency: options.concurrency, progress: options.quiet ? undefined : (line: string) => err(`platform-import: ${visible(masked(line))}\n`) };
    const estate = options.fromTerraform !== undefined ? await fromTerraform(options.fromTerraform, reading) : await readEstate(client(), { group: options.group, projects: options.projects, instance: options.instance, exclusive: options.exclusive }, reading);
    const program = programOf(estate.declarations, {
      projectName: options.name,
      url: process.env.PLATFORM_URL?.trim() || undefined,
      names: manifest.names,
      configKeys: manifest.configKeys,
      secrets: estate.secrets,
      template: templateFiles(),
    });
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
    const result = writeProgram(dir, program, manifest, options.beside);
    if (result.edited.length > 0 && !options.beside) {
      err(`platform-import: refused: these files were edited since the last run (or were not written by it), and nothing was written: ${result.edited.join(", ")}. Run with --beside to write the new ones next to them, or move them away.\n`);
      return 1;
    }
    // The values the server shows, by config key: set in the stack's config with --stack, written nowhere else.
    const shownValues = new Map([...estate.secretValues].map(([entry, value]) => [program.configKeys[entry]!, value]));
    const keys = options.stack !== undefined ? setStackSecrets(dir, options.stack, shownValues) : [];
    out(summaryOf(estate, program.secrets, result, options.out, { stack: options.stack, keys, shown: [...shownValues.keys()] }));
    if (!options.quiet) err(`platform-import: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return 0;
  } catch (error) {
    // A server's words shown as they read, each on the one line they belong to.
    err(`platform-import: ${visible(masked((error as Error).message))}\n`);
    return 1;
  } finally {
    await closeAllPools();
  }
}

export function run(): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`platform-import: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
