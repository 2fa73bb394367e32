/**
 * No import cycle between the folders of src/ (docs/architecture.md "Where things live"),
 * whatever form an import takes: static, `import type`, `export … from` and dynamic
 * `import()` all count (test/support/import-graph.ts). Three granularities: the top-level
 * folders and one-file modules of src/; the operations and their steps
 * (src/operations vs src/operations/steps); each command's folder
 * (src/cli/commands/<command>/) vs the rest of src/cli.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importEdges, importSpecifiers, unitCycles } from '../support/import-graph.js';

const SRC = path.resolve(import.meta.dirname, '../../src');
const edges = importEdges(SRC);

/** The parts of a file's path below src/. */
function parts(file: string): string[] {
  return path.relative(SRC, file).split(path.sep);
}

/** The top-level unit of src/ a file belongs to: its folder, or the file itself for one-file modules. */
function topLevel(file: string): string {
  const [first = '', second] = parts(file);
  return second === undefined ? first.replace(/\.ts$/, '') : first;
}

/** The files of src/cli that register and run every command. */
const PROGRAM = new Set(['main.ts', 'process.ts']);

/** A finer unit inside the folders that hold layers of their own: operations/steps, each command folder; else the top-level unit. */
function layered(file: string): string {
  const p = parts(file);
  if (p[0] === 'operations') return p[1] === 'steps' ? 'operations/steps' : 'operations';
  if (p[0] === 'cli') {
    // A command's folder is its own unit (a file directly in cli/commands is one too); the
    // program that registers and runs them all (main.ts, process.ts) is above them, and the
    // shared modules of the CLI (io, help, progress, consent, …) below them.
    if (p[1] === 'commands') return `cli/commands/${(p[2] ?? '').replace(/\.ts$/, '')}`;
    return PROGRAM.has(p[1] ?? '') ? 'cli (program)' : 'cli (shared)';
  }
  return topLevel(file);
}

const show = (cycles: string[][]): string[] => cycles.map((c) => c.join(' → '));

describe('import cycles', () => {
  it('the edges count every form of import: static, type-only, re-export, side effect and dynamic', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c.js';",
      "export type { D } from './d.js';",
      "import './e.js';",
      "const f = await import('../f.js');",
      "import { g } from 'node:fs';",
    ].join('\n');
    expect(importSpecifiers(text).sort()).toEqual(['../b.js', '../f.js', './a.js', './c.js', './d.js', './e.js']);
  });

  it('finds a cycle made by a dynamic import alone', () => {
    const edges = [
      { from: '/x/a.ts', to: '/y/b.ts' },
      { from: '/y/b.ts', to: '/x/c.ts' },
    ];
    expect(show(unitCycles(edges, (f) => path.dirname(f)))).toEqual(['/x → /y → /x']);
  });

  it('the top-level folders and one-file modules of src/ import each other without a cycle', () => {
    expect(edges.length).toBeGreaterThan(100);
    expect(show(unitCycles(edges, topLevel))).toEqual([]);
  });

  it('operations and their steps, each command folder and the rest of the CLI import each other without a cycle', () => {
    expect(show(unitCycles(edges, layered))).toEqual([]);
  });
});
