/**
 * `platform-review` run in this process as its bin runs it (`main`): its exit
 * status, what it wrote to stdout (the report) and to stderr (its messages).
 */
import { vi } from "vitest";
import { main } from "../../src/review/cli";

export interface CliRun {
  code: number;
  output: string;
  stderr: string;
}

export async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  let output = "";
  let stderr = "";
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const code = await main(args, env, (text) => (output += text));
    return { code, output, stderr };
  } finally {
    spy.mockRestore();
  }
}
