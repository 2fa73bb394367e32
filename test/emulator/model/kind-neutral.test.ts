import { readFileSync, readdirSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../../src/kinds/index.js';

const DIR = new URL('../../../src/emulator/', import.meta.url);

/**
 * True for an element of a route `pattern` outside `/configuration` (`['session', 'create']`:
 * the REST session, not the singleton kind `session`).
 */
function outsideConfiguration(node: ts.Node): boolean {
  const list = node.parent;
  if (!list || !ts.isArrayLiteralExpression(list)) return false;
  const holder = list.parent;
  const [first] = list.elements;
  return ts.isPropertyAssignment(holder) && holder.name.getText() === 'pattern' && first !== undefined && ts.isStringLiteral(first) && first.text !== 'configuration';
}

/** Every string literal of a source file that is exactly one of `words`, with its line. */
function literals(file: string, words: ReadonlySet<string>): string[] {
  const text = readFileSync(new URL(file, DIR), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && words.has(node.text) && !outsideConfiguration(node)) {
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} '${node.text}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the emulator's generic code", () => {
  it('names no kind: per-kind knowledge is in src/kinds/<kind>/emulator.ts (docs/architecture.md "Habits")', () => {
    const words = new Set<string>(KINDS.flatMap((k) => (k.template === undefined ? [k.type] : [k.type, k.template])));
    const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap((f) => literals(f, words))).toEqual([]);
  });

  it('gets a title for every validator code the kinds emit', () => {
    expect(KINDS.flatMap((kind) => Object.keys(kind.emulator.validator?.titles ?? {})).length).toBeGreaterThan(0);
    for (const kind of KINDS) {
      for (const [code, title] of Object.entries(kind.emulator.validator?.titles ?? {})) {
        expect(code, `${kind.type}`).toMatch(/^[A-Z][A-Z0-9_]*$/);
        expect(title, `${kind.type} ${code}`).not.toBe('');
      }
    }
  });
});
