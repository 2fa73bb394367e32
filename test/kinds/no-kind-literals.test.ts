/**
 * Generic code never names a kind (docs/architecture.md "Habits": one module per kind, in
 * an explicit registry): no resource type of the registry and no template kind appears as
 * a string literal in the generic directories. Behaviour that needs a kind's name belongs
 * in the kind's module (`src/kinds/<kind>/`), reached through the hooks of
 * `KindDefinition`. Comments and documentation may name kinds: only string literals and
 * template literals without substitutions count, found with the TypeScript compiler.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { KINDS, templateKinds } from '../../src/kinds/index.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/**
 * The directories of src/ that are not generic code, and why: the kind modules themselves,
 * and the demo, which builds sample objects of particular kinds for its story (the
 * benchmarks, which do too, live in tools/, outside src/).
 */
const NOT_GENERIC: Readonly<Record<string, string>> = {
  kinds: 'the kind modules',
  demo: 'the demo tells a story with particular kinds',
};

/**
 * The generic code: every other directory of src/ (a new one is covered without an edit
 * here), and the files directly in src/.
 */
const GENERIC_DIRECTORIES: readonly string[] = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !Object.hasOwn(NOT_GENERIC, entry.name))
  .map((entry) => `src/${entry.name}`)
  .sort();

/** Every kind name: the resource types and the template kinds. */
const KIND_NAMES: ReadonlySet<string> = new Set<string>([...KINDS.map((k) => k.type), ...templateKinds()]);

function tsFiles(dir: string, deep = true): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return deep ? tsFiles(path) : [];
    return entry.isFile() && entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** `file:line:column 'kind'` for every string literal in `text` whose value is a kind name. */
function kindLiterals(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && KIND_NAMES.has(node.text)) {
      const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${file}:${line + 1}:${character + 1} '${node.text}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('kind names in generic code', () => {
  it('the finder sees literals in code and types, not in comments or other strings', () => {
    const text = [
      "// a 'mapping' in a comment",
      '/** `virtual-host` in a doc comment */',
      "const a = 'mapping';",
      'const b = `ssl-certificate`;',
      "type C = 'acme-service';",
      "const d = { 'back-end-group': 1 };",
      'const e = `${a} mapping-template`;',
      "const f = 'a mapping';",
      "const g = 'mapping-template';",
    ].join('\n');
    expect(kindLiterals('x.ts', text)).toEqual([
      "x.ts:3:11 'mapping'",
      "x.ts:4:11 'ssl-certificate'",
      "x.ts:5:10 'acme-service'",
      "x.ts:6:13 'back-end-group'",
      "x.ts:9:11 'mapping-template'",
    ]);
  });

  it('knows every kind of the registry and its template kind', () => {
    const expected = KINDS.flatMap((k) => (k.template === undefined ? [k.type] : [k.type, k.template]));
    expect([...KIND_NAMES].sort()).toEqual(expected.sort());
    expect(templateKinds().length).toBeGreaterThan(0);
  });

  it('covers every directory of src/ but the kind modules and the sample builders', () => {
    for (const dir of ['src/export', 'src/adopt', 'src/jwks', 'src/manifest', 'src/render', 'src/schema', 'src/gateway', 'src/emulator', 'src/cli']) {
      expect(GENERIC_DIRECTORIES).toContain(dir);
    }
    expect(GENERIC_DIRECTORIES).not.toContain('src/kinds');
  });

  const MOVE = 'move what is special about a kind into its module (src/kinds/<kind>/) and call it through KindDefinition';

  it.each(GENERIC_DIRECTORIES)('%s spells no kind name as a string literal', (dir) => {
    const found = tsFiles(join(ROOT, dir)).flatMap((file) => kindLiterals(relative(ROOT, file), readFileSync(file, 'utf8')));
    expect(found, MOVE).toEqual([]);
  });

  it('the files directly in src/ spell no kind name as a string literal', () => {
    const files = tsFiles(join(ROOT, 'src'), false);
    expect(files.length).toBeGreaterThan(0);
    expect(files.flatMap((file) => kindLiterals(relative(ROOT, file), readFileSync(file, 'utf8'))), MOVE).toEqual([]);
  });
});
