/**
 * The emulator's port as a project states it: the port of `platform:url` in
 * its Pulumi.yaml, the address the program's stacks use unless their own file
 * names another (`platform-emulator --port-from Pulumi.yaml`, and a script
 * that starts the emulator from code).
 */
import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";

/** The port of `platform:url` in a project file's `config` (a value, or a `default`/`value` entry). */
export function portFromProject(file: string, lead = "portFromProject"): number {
  let project: { config?: Record<string, unknown> } | null;
  try {
    project = parseYaml(readFileSync(file, "utf8")) as typeof project;
  } catch (error) {
    throw new Error(`${lead}: cannot read ${file}: ${(error as Error).message}`);
  }
  const entry = project?.config?.["platform:url"];
  const url = typeof entry === "object" && entry !== null ? ((entry as { value?: unknown; default?: unknown }).value ?? (entry as { default?: unknown }).default) : entry;
  const parsed = typeof url === "string" && URL.canParse(url) ? new URL(url) : undefined;
  if (parsed === undefined || parsed.protocol !== "http:" || !["127.0.0.1", "localhost", "[::1]"].includes(parsed.hostname)) {
    throw new Error(`${lead}: ${file} has no platform:url of the form http://127.0.0.1:PORT in its config (found ${JSON.stringify(url ?? null)}); give the port instead`);
  }
  return parsed.port === "" ? 80 : Number(parsed.port);
}

