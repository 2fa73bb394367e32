/**
 * Each command's --help (src/cli/help.ts): one or two examples of that very command, and
 * its exit codes, in ascending order, each one of the one table (src/core/exit-codes.ts) with
 * what it means; no command shows the program's whole table. That the listed codes are
 * exactly the ones each command returns is test/e2e/exit-codes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { programHelp } from '../../tools/docs/cli-reference.js';
import { EXIT } from '../../src/core/exit-codes.js';
import { helpCommands, listedExitCodes } from '../support/exit-codes.js';

describe('the help of every command', () => {
  it('shows one or two examples of the command and exactly one list of exit codes', async () => {
    const commands = await helpCommands();
    expect(commands.length).toBeGreaterThan(10);
    const known: number[] = Object.values(EXIT);
    for (const command of commands) {
      const help = await programHelp([command]);
      const examples = [...(help.split('\nExamples:\n')[1]?.split('\n\n')[0] ?? '').matchAll(/^ {2}\$ (.+)$/gm)].map((m) => m[1] ?? '');
      expect(examples.length, command).toBeGreaterThanOrEqual(1);
      expect(examples.length, command).toBeLessThanOrEqual(2);
      for (const example of examples) expect(example, command).toMatch(new RegExp(`(^|\\s)gwops ${command}(\\s|$)`));
      expect(help.split('\nExit codes:\n'), `${command}: one list of exit codes`).toHaveLength(2);
      const codes = listedExitCodes(help);
      expect(codes.length, command).toBeGreaterThanOrEqual(2);
      expect(codes, command).toEqual([...codes].sort((a, b) => a - b));
      expect(codes.filter((c) => !known.includes(c)), command).toEqual([]);
      // The program's environment notes belong to `gwops --help` only.
      expect(help, command).not.toContain('Environment: GWOPS_DEBUG');
    }
  });

  it('of the program keeps the whole table', async () => {
    expect(listedExitCodes(await programHelp([]))).toEqual(Object.values(EXIT));
  });
});
