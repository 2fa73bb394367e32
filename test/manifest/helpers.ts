import { Readable } from 'node:stream';
import type { CliIO } from '../../src/cli/io.js';

/** A CliIO whose output is captured as strings. */
export function captureIO(cwd: string, env: Record<string, string | undefined> = {}, stdin = ''): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: (s: string) => (err += s) },
    env,
    cwd,
    isTTY: false,
    stdin: Readable.from([stdin]),
    out: () => out,
    err: () => err,
  };
}
