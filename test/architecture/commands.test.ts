/**
 * Each command is one folder and its use case an operation (docs/architecture.md "Where
 * things live", `src/cli/`): src/cli/commands/ holds one folder per command with its
 * declaration (command.ts), and a command's files call the operations, never the layers
 * the operations are made of (loading manifests, opening a gateway session, starting the
 * emulator, writing adopted manifests).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../support/import-graph.js';

const CLI = path.resolve(import.meta.dirname, '../../src/cli');
const COMMANDS = path.join(CLI, 'commands');

/** The functions that do a use case's work below the operations: only an operation calls them. */
const BELOW_THE_OPERATIONS = ['loadManifests', 'withSession', 'startEmulator', 'readOrCreateKeyFile', 'adoptDrift', 'surveyInit', 'writeInitFile', 'guardInterrupts'];

describe('commands', () => {
  it('src/cli/commands holds one folder per command, each with its command.ts, and src/cli/views is gone', () => {
    const entries = readdirSync(COMMANDS);
    expect(entries.filter((e) => !statSync(path.join(COMMANDS, e)).isDirectory())).toEqual([]);
    expect(entries.filter((e) => !readdirSync(path.join(COMMANDS, e)).includes('command.ts'))).toEqual([]);
    expect(readdirSync(CLI)).not.toContain('views');
  });

  it("a command's files call operations, never what the operations are made of", () => {
    const found = sourceFiles(COMMANDS).flatMap((file) => {
      const imports = [...readFileSync(file, 'utf8').matchAll(/^import\s+(?!type\b)\{([^}]*)\}/gm)].flatMap((m) => (m[1] ?? '').split(',').map((n) => n.trim()));
      return imports.filter((name) => BELOW_THE_OPERATIONS.includes(name)).map((name) => `${path.relative(COMMANDS, file)}: ${name}`);
    });
    expect(found).toEqual([]);
  });
});
