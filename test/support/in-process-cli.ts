/**
 * The CLI run in this process (`main` of src/cli/main.ts), as the end-to-end tests and the
 * drills run it: stdout and stderr captured, no terminal, an empty stdin.
 */
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';

/** What one run printed, and its exit code. */
export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `gwops ...args` in `cwd` with exactly the environment `env`. */
export async function runCli(args: readonly string[], env: Readonly<Record<string, string | undefined>>, cwd: string): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'gwops', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env,
    cwd,
    isTTY: false,
    stdin: Readable.from([]),
  });
  return { code, stdout, stderr };
}
