/**
 * Generic code never names a kind (docs/architecture.md "Habits": one module per kind, in
 * an explicit registry): no resource type of the registry, no template kind and nothing a
 * kind contributes by name (its collection, its sub-resources' types and segments, its
 * export option, its diagnostic codes) appears as a string literal in the generic directories, and no generic module
 * imports from a kind's folder (`src/kinds/<kind>/`), statically, as a type or dynamically;
 * within src/kinds only the registry (index.ts) does. Behaviour that needs a kind's name
 * belongs in the kind's module, reached through the hooks of `KindDefinition`. Comments
 * and documentation may name kinds: only string literals and template literals without
 * substitutions count, found with the TypeScript compiler.
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

/**
 * The names a kind contributes through its module: its collection (the path segment under
 * `/configuration`), the JSON:API types, path segments and catalogues of its sub-resources,
 * its export option (with and without `--`/`--no-`) and its diagnostic codes.
 */
const CONTRIBUTED: ReadonlySet<string> = new Set<string>(
  KINDS.flatMap((k) => [
    k.collection,
    ...Object.values(k.subResources ?? {}).flatMap((d) => [d.type, d.segment, ...('catalogue' in d.key ? [d.key.catalogue] : [])]),
    ...(k.exportOption ? [k.exportOption.name, `--${k.exportOption.name}`, `--no-${k.exportOption.name}`] : []),
    ...Object.keys(k.diagnosticCodes ?? {}),
  ]),
);

/** What a generic module may not spell: the kind names and what the kinds contribute by name. */
const KIND_SPECIFIC: ReadonlySet<string> = new Set<string>([...KIND_NAMES, ...CONTRIBUTED]);

/** The folders of the kind modules, `src/kinds/<kind>/` (each named after its resource type). */
const KIND_FOLDERS: readonly string[] = readdirSync(join(ROOT, 'src/kinds'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => join(ROOT, 'src/kinds', entry.name));

function tsFiles(dir: string, deep = true): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return deep ? tsFiles(path) : [];
    return entry.isFile() && entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * True for a route `pattern` outside `/configuration` (`['session', 'create']`: the REST
 * session, not the singleton `session`).
 */
function isOutsideConfiguration(list: ts.ArrayLiteralExpression): boolean {
  const holder = list.parent;
  const [first] = list.elements;
  return ts.isPropertyAssignment(holder) && holder.name.getText() === 'pattern' && first !== undefined && ts.isStringLiteral(first) && first.text !== 'configuration';
}

/**
 * True for an element of the argument list of a Git command (or of a route pattern outside `/configuration`) (`git(dir, ['log', ...])`,
 * `execFileSync('git', ['log', ...])`): `log` is a singleton kind and a Git subcommand.
 */
function isGitArgument(node: ts.Node): boolean {
  const list = node.parent;
  const call = list?.parent;
  if (list && ts.isArrayLiteralExpression(list) && isOutsideConfiguration(list)) return true;
  if (!list || !ts.isArrayLiteralExpression(list) || !call || !ts.isCallExpression(call)) return false;
  const callee = call.expression.getText();
  const first = call.arguments[0];
  return callee === 'git' || callee.endsWith('.git') || (first !== undefined && ts.isStringLiteral(first) && first.text === 'git');
}

/**
 * `file:line:column 'kind'` for every string literal in `text` whose value is a kind name or
 * a name a kind contributes; module specifiers of imports are checked by {@link kindImports}.
 */
function kindLiterals(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && KIND_SPECIFIC.has(node.text) && !isGitArgument(node)) {
      const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${file}:${line + 1}:${character + 1} '${node.text}'`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The module specifier of every import in `text`: static, type-only, re-exports and `import()`. */
function specifiers(file: string, text: string): { readonly specifier: string; readonly at: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: { specifier: string; at: string }[] = [];
  const add = (node: ts.Expression | undefined): void => {
    if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) {
      const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push({ specifier: node.text, at: `${file}:${line + 1}:${character + 1}` });
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `file:line:column specifier` for every import in `file` (an absolute path) that reaches into a kind's folder. */
function kindImports(file: string, text: string): string[] {
  return specifiers(relative(ROOT, file), text)
    .filter(({ specifier }) => specifier.startsWith('.'))
    .filter(({ specifier }) => {
      const target = join(file, '..', specifier);
      return KIND_FOLDERS.some((folder) => target.startsWith(`${folder}/`));
    })
    .map(({ specifier, at }) => `${at} ${specifier}`);
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

  it('the import finder sees static, type, re-exported and dynamic imports of a kind folder', () => {
    const file = join(ROOT, 'src/emulator/x.ts');
    const text = [
      "import { a } from '../kinds/mapping/emulator.js';",
      "import type { B } from '../kinds/ssl-certificate/identity.js';",
      "export { c } from '../kinds/virtual-host/index.js';",
      "const d = await import('../kinds/mapping/rules.js');",
      "type E = import('../kinds/mapping/index.js').F;",
      "import { KINDS } from '../kinds/index.js';",
      "import type { G } from '../kinds/emulator-hooks.js';",
    ].join('\n');
    expect(kindImports(file, text)).toEqual([
      "src/emulator/x.ts:1:19 ../kinds/mapping/emulator.js",
      "src/emulator/x.ts:2:24 ../kinds/ssl-certificate/identity.js",
      "src/emulator/x.ts:3:19 ../kinds/virtual-host/index.js",
      "src/emulator/x.ts:4:24 ../kinds/mapping/rules.js",
      "src/emulator/x.ts:5:17 ../kinds/mapping/index.js",
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

  it('knows the names the kinds contribute: an export option, diagnostic codes, sub-resource types', () => {
    expect([...CONTRIBUTED].filter((name) => name.startsWith('--no-')).length).toBeGreaterThan(0);
    expect(KINDS.some((k) => Object.keys(k.diagnosticCodes ?? {}).some((code) => CONTRIBUTED.has(code)))).toBe(true);
    expect(KINDS.some((k) => Object.values(k.subResources ?? {}).some((d) => CONTRIBUTED.has(d.type)))).toBe(true);
    expect(KIND_FOLDERS.length).toBe(KINDS.length);
  });

  it.each(GENERIC_DIRECTORIES)('%s imports nothing from a kind folder (src/kinds/<kind>/)', (dir) => {
    const found = tsFiles(join(ROOT, dir)).flatMap((file) => kindImports(file, readFileSync(file, 'utf8')));
    expect(found, MOVE).toEqual([]);
  });

  /**
   * The one import of a kind folder that a generic module of src/kinds still makes, and why:
   * the emulator's stored object keeps a mapping's deny rule usage in a member of its own,
   * which the emulator's state files hold under that name.
   */
  const KNOWN_IMPORTS: readonly string[] = ['src/kinds/emulator-hooks.ts ./mapping/deny-rules.js'];

  it('in src/ and src/kinds, only the registry (src/kinds/index.ts) imports from a kind folder', () => {
    const files = [...tsFiles(join(ROOT, 'src'), false), ...tsFiles(join(ROOT, 'src/kinds'), false)].filter((file) => file !== join(ROOT, 'src/kinds/index.ts'));
    expect(files.length).toBeGreaterThan(4);
    const found = files.flatMap((file) => kindImports(file, readFileSync(file, 'utf8'))).map((at) => at.replace(/:\d+:\d+ /, ' '));
    expect(found.filter((at) => !KNOWN_IMPORTS.includes(at)), MOVE).toEqual([]);
    expect(found, 'an import listed in KNOWN_IMPORTS is gone: drop it from the list').toEqual(KNOWN_IMPORTS);
  });

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
