/**
 * Commands choose their view once (docs/architecture.md "Where things live", `src/cli/`):
 * the action of a command (its folder's run.ts, src/cli/commands/<command>/) reads `--format`
 * only to pick its view from the folder's view files, and
 * never branches on the format itself.
 */
import { readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const COMMANDS = path.resolve(import.meta.dirname, '../../src/cli/commands');

describe('views per command', () => {
  it('every action reads --format only to choose its view', async () => {
    const runs = readdirSync(COMMANDS, { recursive: true, encoding: 'utf8' })
      .filter((f) => /(^|[-/])run\.ts$/.test(f))
      .map((f) => f.split(path.sep).join('/'));
    expect(runs.length).toBeGreaterThan(5);
    const uses: Record<string, string[]> = {};
    for (const file of runs) {
      const text = await readFile(path.join(COMMANDS, file), 'utf8');
      const found = [...text.matchAll(/^.*\b(?:flags|options)\.format\b.*$/gm)].map((m) => m[0].trim());
      if (found.length > 0) uses[file] = found;
    }
    const outsideAView = Object.entries(uses).flatMap(([file, lines]) => lines.filter((l) => !/\b[a-z]+View\((?:flags|options)\.format, io\b/.test(l)).map((l) => `${file}: ${l}`));
    expect(outsideAView).toEqual([]);
    expect(Object.keys(uses).sort()).toEqual([
      'doctor/run.ts',
      'export/run.ts',
      'graph/run.ts',
      'history/run.ts',
      'reconcile/drift-run.ts',
      'reconcile/run.ts',
      'rollback/run.ts',
      'targets/run.ts',
      'validate/run.ts',
    ]);
  });
});
