/**
 * The import graph of src/, for the architecture tests: every edge a module has to another
 * module of the repository, whatever its form: `import … from`, `import type … from`,
 * `export … from`, a side-effect `import '…'` and a dynamic `import('…')` with a literal
 * path. The edges are read by TypeScript's own pre-processor (`ts.preProcessFile`), not by
 * a regular expression, so every syntax the compiler accepts is seen.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One module's import of another, both as absolute paths of .ts files. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

/** The .ts files under `dir`, recursively. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

/** The relative specifiers `text` imports or re-exports, dynamic imports included. */
export function importSpecifiers(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((f) => f.fileName).filter((name) => name.startsWith('./') || name.startsWith('../'));
}

/** Every import edge between the files of `dir` (a `.js` specifier names its `.ts` source). */
export function importEdges(dir: string): ImportEdge[] {
  return sourceFiles(dir).flatMap((from) =>
    importSpecifiers(readFileSync(from, 'utf8')).map((specifier) => ({
      from,
      to: path.resolve(path.dirname(from), specifier).replace(/\.js$/, '.ts'),
    })),
  );
}

/**
 * The cycles of the graph whose nodes are `unitOf` each file (edges within one unit
 * dropped), each as its units in order, the first repeated at the end. Empty when the
 * graph is acyclic. One cycle is reported per back edge found by a depth-first search.
 */
export function unitCycles(edges: readonly ImportEdge[], unitOf: (file: string) => string): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    const a = unitOf(from);
    const b = unitOf(to);
    if (a !== b) graph.set(a, (graph.get(a) ?? new Set()).add(b));
  }
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (unit: string, trail: string[]): void => {
    const seen = state.get(unit);
    if (seen === 'done') return;
    if (seen === 'open') {
      cycles.push([...trail.slice(trail.indexOf(unit)), unit]);
      return;
    }
    state.set(unit, 'open');
    for (const next of [...(graph.get(unit) ?? [])].sort()) visit(next, [...trail, unit]);
    state.set(unit, 'done');
  };
  for (const unit of [...graph.keys()].sort()) visit(unit, []);
  return cycles;
}
