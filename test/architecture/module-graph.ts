/**
 * The import graph of src/, read with the TypeScript parser so that it sees every way a
 * module reaches another: `import … from`, `import type`, `export … from`, side-effect
 * imports, dynamic `import('…')` and `import('…')` types. For test/architecture.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** One import of a module: what it names, and how. */
export interface ImportEdge {
  /** The module specifier as written (`'../files.js'`, `'node:crypto'`). */
  readonly specifier: string;
  /** The imported binding names of a static import (`createHash`), empty when not named. */
  readonly names: readonly string[];
  /** `static`, `dynamic` (`import(…)` call), or `type` (a type-only import or an `import('…')` type). */
  readonly form: 'static' | 'dynamic' | 'type';
  /** A dynamic import whose argument is no string literal: where it leads cannot be read. */
  readonly opaque?: true;
}

/** Every import of the TypeScript source `text` (of a file named `fileName`). */
export function importsOf(fileName: string, text: string): ImportEdge[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const edges: ImportEdge[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const bindings = clause?.namedBindings;
      const names = bindings && ts.isNamedImports(bindings) ? bindings.elements.map((e) => (e.propertyName ?? e.name).text) : [];
      edges.push({ specifier: node.moduleSpecifier.text, names, form: clause?.isTypeOnly === true ? 'type' : 'static' });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      edges.push({ specifier: node.moduleSpecifier.text, names: [], form: node.isTypeOnly ? 'type' : 'static' });
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      edges.push({ specifier: node.moduleReference.expression.text, names: [], form: 'static' });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) edges.push({ specifier: argument.text, names: [], form: 'dynamic' });
      else edges.push({ specifier: argument?.getText(source) ?? '', names: [], form: 'dynamic', opaque: true });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      edges.push({ specifier: node.argument.literal.text, names: [], form: 'type' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** The TypeScript file a relative specifier of `from` names (`./x.js` → `x.ts`), or undefined for a package, a JSON file or a missing file. */
export function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(from), specifier.replace(/\.js$/, '.ts'));
  return target.endsWith('.ts') && existsSync(target) ? target : undefined;
}

/** A module reached from the entry files, with the chain of modules that leads to it. */
export interface ReachedModule {
  readonly file: string;
  /** The entry file first, this module last. */
  readonly chain: readonly string[];
  readonly imports: readonly ImportEdge[];
}

/**
 * Every module reachable from `entries` through relative imports of any form (breadth
 * first, so each chain is a shortest one). `read` gives a file's text (the disk by
 * default; a test passes a planted text through it).
 */
export function reachableModules(entries: readonly string[], read: (file: string) => string = (file) => readFileSync(file, 'utf8')): ReachedModule[] {
  const reached = new Map<string, ReachedModule>();
  const queue: { file: string; chain: readonly string[] }[] = entries.map((file) => ({ file, chain: [file] }));
  for (let next = queue.shift(); next; next = queue.shift()) {
    if (reached.has(next.file)) continue;
    const imports = importsOf(next.file, read(next.file));
    reached.set(next.file, { file: next.file, chain: next.chain, imports });
    for (const edge of imports) {
      const target = resolveRelative(next.file, edge.specifier);
      if (target !== undefined && !reached.has(target)) queue.push({ file: target, chain: [...next.chain, target] });
    }
  }
  return [...reached.values()];
}
