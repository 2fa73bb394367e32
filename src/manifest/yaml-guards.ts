/**
 * Limits of what a manifest's YAML may hold, so that a hostile file cannot stall or crash
 * the loader: control characters in keys and values, aliases that expand without end or
 * beyond {@link MAX_ALIAS_EXPANSION}, and collections nested deeper than {@link MAX_NESTING}.
 * src/manifest/parse.ts applies them while it reads a file.
 */
import { isAlias, isMap, isNode, isPair, isSeq } from 'yaml';
import type { Alias, Document, Node } from 'yaml';
import type { Diagnostic } from '../core/diagnostics.js';
import type { ParsedDocument } from './positions.js';
import { makeDiagnostic } from './positions.js';

/* eslint-disable no-control-regex -- finding control characters is the point */
/** C0 control characters a value may not hold (all but tab, line feed and carriage return). */
const CONTROL = /[\x00-\x08\x0B\x0C\x0E-\x1F]/;
/**
 * Cheap test of a whole file: such a character written raw, or an escape of a double-quoted
 * scalar that may give one (`\0 \a \b \e \f \v`, `\x00`-`\x1F`, `\u0000`-`\u001F`,
 * `\U00000000`-`\U0000001F`). Only files that pass it have their values searched.
 */
export const MAY_HOLD_CONTROL = /[\x00-\x08\x0B\x0C\x0E-\x1F]|\\(?:[0abefv]|x[01]|u00[01]|U000000[01])/;
/* eslint-enable no-control-regex */

/** Reports the keys and values of a document that hold a control character ({@link CONTROL}). */
export function checkControlCharacters(parsed: ParsedDocument, out: Diagnostic[]): void {
  const seen = new Set<object>(); // an alias's value is shared: search it once
  const path: string[] = [];
  const report = (text: string, what: 'key' | 'value'): void => {
    const code = (text.match(CONTROL)?.[0] ?? '').charCodeAt(0);
    const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    out.push(
      makeDiagnostic(parsed, {
        code: 'control-character',
        pointer: [...path],
        at: what,
        message: `control character ${name} in a ${what}: only tab, line feed and carriage return may appear (written raw or as escapes such as "\\0" or "\\x01"); remove it`,
      }),
    );
  };
  const search = (value: unknown): void => {
    if (typeof value === 'string') {
      if (CONTROL.test(value)) report(value, 'value');
      return;
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    for (const [key, item] of entries) {
      path.push(key);
      if (!Array.isArray(value) && CONTROL.test(key)) report(key, 'key');
      search(item);
      path.pop();
    }
  };
  search(parsed.value);
}

/**
 * Most that the aliases of a file may add to it, in characters of YAML with every alias
 * written out; a file longer than this may grow to twice its length.
 */
export const MAX_ALIAS_EXPANSION = 1_000_000;

/** An alias that cannot be resolved safely. */
export interface AliasProblem {
  readonly kind: 'unresolved' | 'cyclic' | 'excessive';
  readonly alias: Alias;
}

/**
 * Checks the aliases of a document before they are resolved: each names an anchor earlier in
 * the document, none is inside the value it names (that value would contain itself), and
 * written out they add at most `budget.left` characters (shared by the documents of a file;
 * what they add is taken from it). Resolved aliases share their value, but what reads the
 * values later (variables, templates, schema checks, requests) reads every copy, and a few
 * hundred bytes of nested aliases ("billion laughs") stand for billions of nodes; merge keys
 * (`<<`) even copy while resolving. Linear in the size of the document: the size of each
 * anchored value is computed once.
 */
export function aliasProblem(doc: Document.Parsed, budget: { left: number }): AliasProblem | undefined {
  const anchors = new Map<string, Node>();
  /** Written-out length of the anchored nodes read so far (not of those still being read). */
  const sizes = new Map<Node, number>();
  let problem: AliasProblem | undefined;
  const length = (node: Node): number => (node.range ? Math.max(1, node.range[1] - node.range[0]) : 1);
  /** Characters the aliases inside `node` add when written out. */
  const added = (node: unknown): number => {
    if (problem) return 0;
    if (isPair(node)) return added(node.key) + added(node.value);
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      const size = target ? sizes.get(target) : undefined;
      if (size === undefined) {
        problem = { kind: target ? 'cyclic' : 'unresolved', alias: node };
        return 0;
      }
      const extra = Math.max(0, size - length(node));
      budget.left -= extra;
      if (budget.left < 0) problem = { kind: 'excessive', alias: node };
      return extra;
    }
    if (!isNode(node)) return 0;
    if (node.anchor !== undefined) anchors.set(node.anchor, node);
    let extra = 0;
    if (isMap(node) || isSeq(node)) for (const item of node.items) extra += added(item);
    if (node.anchor !== undefined) sizes.set(node, length(node) + extra);
    return extra;
  };
  added(doc.contents);
  return problem;
}

export function aliasMessage(problem: AliasProblem, limit: number): string {
  const name = `'*${problem.alias.source}'`;
  switch (problem.kind) {
    case 'unresolved':
      return `YAML error: alias ${name} names no anchor of this document (anchors do not reach across '---')`;
    case 'cyclic':
      return `YAML error: alias ${name} is inside the value its anchor names, so that value would contain itself without end; write the values out or use \`extends\` templates`;
    case 'excessive':
      return `YAML error: too many alias references (YAML anchors/aliases expand to more than ${limit.toLocaleString('en-US')} characters written out); write the values out or use \`extends\` templates`;
  }
}

/**
 * How deeply collections may nest in a manifest. Manifests need a handful of levels; a
 * bound keeps every later recursive walk (duplicate keys, aliases, schema checks) far from
 * the stack's limit, whatever a hostile file holds.
 */
export const MAX_NESTING = 100;

/** True when `value` (plain data) nests collections deeper than `limit` (the root is at level 1); iterative. */
export function nestsTooDeep(value: unknown, limit: number = MAX_NESTING): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [item, depth] = top;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The first collection node nested deeper than {@link MAX_NESTING} (aliases not followed); iterative. */
export function tooDeepNode(root: unknown): Node | undefined {
  const stack: [unknown, number][] = [[root, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > MAX_NESTING) return node;
    for (const item of node.items as unknown[]) {
      if (isPair(item)) stack.push([item.value, depth + 1], [item.key, depth + 1]);
      else stack.push([item, depth + 1]);
    }
  }
  return undefined;
}
