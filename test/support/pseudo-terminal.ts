/**
 * A command on a pseudo-terminal, for the tests of what gwops does when a person sits at a
 * terminal (the consent question, the progress line redrawn in place): util-linux's
 * `script` runs it (Debian package bsdutils; `.ci/run` installs it when it is missing).
 * Without `script` such a test fails, never skips: a skipped test proves nothing.
 */
import { execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect } from 'vitest';

/** The `script` program that gives a command a pseudo-terminal. */
export const SCRIPT = '/usr/bin/script';

/**
 * Starts the shell command `command` under `script` in `cwd`, with only PATH from the
 * environment: its stdin and stdout are those of the terminal (`child.stdin`,
 * `child.stdout`), its exit that of `script`. Fails the calling test when `script` is missing.
 */
export function startOnTerminal(command: string, cwd: string): ChildProcess {
  expect(existsSync(SCRIPT), `${SCRIPT} is missing: install util-linux's script (Debian: apt-get install bsdutils), as .ci/run does`).toBe(true);
  return execFile(SCRIPT, ['-qec', command, '/dev/null'], { cwd, env: { PATH: process.env.PATH } });
}
