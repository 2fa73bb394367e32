/**
 * A mistyped command or option: the error, a did-you-mean when a name is close, and one
 * line pointing to --help; never the whole help text after it.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/in-process-cli.js';
import type { CliResult } from '../support/in-process-cli.js';
import { REPO } from './harness.js';

const cli = (args: readonly string[]): Promise<CliResult> => runCli(args, { PATH: process.env.PATH, NO_COLOR: '1' }, REPO);

const lines = (text: string): string[] => text.trim().split('\n');

describe('usage errors read in a few lines', () => {
  it('an unknown command: the error, the command meant, and where the help is', async () => {
    const r = await cli(['plna']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)).toEqual(["error: unknown command 'plna'", '(Did you mean plan?)', "Run 'gwops --help' for usage."]);
  });

  it("an unknown option of a command: the error, the option meant, and the command's help", async () => {
    const r = await cli(['plan', '--verbos']);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual(["error: unknown option '--verbos'", '(Did you mean --verbose?)', "Run 'gwops plan --help' for usage."]);
  });

  it('every command points to its own help, without printing it', async () => {
    for (const command of ['validate', 'plan', 'apply', 'drift', 'rollback', 'history', 'export', 'graph', 'init', 'targets', 'schema', 'emulator', 'demo']) {
      const r = await cli([command, '--no-such-option']);
      expect(r.code, command).toBe(1);
      expect(r.stderr, command).not.toContain('Usage:');
      expect(lines(r.stderr).length, command).toBeLessThanOrEqual(3);
      expect(r.stderr, command).toContain(`Run 'gwops ${command} --help'`);
    }
  });

  it('a missing argument of an option also points to the help in one line', async () => {
    const r = await cli(['plan', '--format']);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual(["error: option '--format <format>' argument missing", "Run 'gwops plan --help' for usage."]);
  });
});
