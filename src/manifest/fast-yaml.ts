/**
 * The fast path for reading manifests: `js-yaml` (YAML 1.2 core schema, the `yaml`
 * package's default) gives the values of every document, and its parser events give where
 * each document's content starts.
 *
 * Why two YAML libraries: the `yaml` package keeps the node positions every diagnostic
 * needs, but reads about 1-2 MB/s here, and the target is 10,000 mappings (about 5 MB)
 * validated in under 2 s (`npm run bench`); `js-yaml` reads them in about 0.3 s. So
 * `js-yaml` reads, and the `yaml` package parses a file only when a diagnostic needs a
 * position in it, or whenever `js-yaml` refuses the file (syntax errors, duplicate keys:
 * the `yaml` package then reports every problem with its position) or the file uses what
 * the two libraries treat differently (merge keys `<<`, tabs, CR line ends, empty list items, a byte-order
 * mark). A differential test checks that both give the same values and positions. Files
 * with aliases are left to the `yaml` package too: `js-yaml` has no bound on what aliases
 * expand to (a "billion laughs" file of 1 KB stands for billions of nodes), while parseFile
 * checks it on the `yaml` package's syntax tree.
 */
import yaml from 'js-yaml';
import { Schema, isScalar } from 'yaml';

/** One document read by the fast path. */
export interface FastDocument {
  readonly value: unknown;
  /** 1-based position of the document's first content node. */
  readonly line: number;
  readonly column: number;
}

interface CoreTag {
  readonly tag: string;
  readonly test?: RegExp;
  resolve(value: string, onError: (message: string) => void, options: object): unknown;
}

/**
 * A `js-yaml` schema whose plain scalars resolve exactly as the `yaml` package's YAML 1.2
 * core schema resolves them: one implicit type per core tag (null, bool, int, float),
 * testing and constructing with that package's own tag definitions.
 */
const CORE = (() => {
  const byTag = new Map<string, CoreTag[]>();
  const tests: RegExp[] = [];
  for (const tag of new Schema({ schema: 'core' }).tags as CoreTag[]) {
    if (!tag.test) continue;
    byTag.set(tag.tag, [...(byTag.get(tag.tag) ?? []), tag]);
    tests.push(tag.test);
  }
  // Most plain scalars (keys, names) are strings that no tag matches: js-yaml asks each
  // implicit type in turn, so one test of all the tags' patterns at once, remembered for
  // the scalar asked about, answers them (the patterns have no flags: a union is exact).
  const any = new RegExp(tests.map((t) => `(?:${t.source})`).join('|'));
  let last: string | undefined;
  let lastMatches = false;
  const mayMatch = (text: string): boolean => {
    if (text !== last) {
      last = text;
      lastMatches = any.test(text);
    }
    return lastMatches;
  };
  const implicit = [...byTag].map(
    ([name, tags]) =>
      new yaml.Type(name, {
        kind: 'scalar',
        resolve: (data: string | null) => mayMatch(data ?? '') && tags.some((t) => t.test?.test(data ?? '')),
        construct: (data: string | null) => {
          const text = data ?? '';
          const tag = tags.find((t) => t.test?.test(text));
          const value = tag ? tag.resolve(text, () => undefined, {}) : text;
          return isScalar(value) ? value.value : value; // booleans come wrapped, to keep their source form
        },
      }),
  );
  return yaml.FAILSAFE_SCHEMA.extend({ implicit });
})();

/**
 * Inputs the fast path leaves to the `yaml` package: tabs, CR, a byte-order mark, merge
 * keys, and empty block sequence items (a line of only `-`, as in `- - x` then `  -`), which
 * js-yaml reads into the wrong list when a less indented item follows.
 */
const DIFFERENT = /\t|\r|^\uFEFF|<<\s*:|^[ ]*(?:-[ ]+)*-[ ]*(?:#.*)?$/m;

/**
 * True when `text` may hold an alias (`*name`): it has an anchor (`&`; an alias without one
 * is an error for `js-yaml` anyway) and a `*` where a node may start (at the start of a
 * line, after white space or after `[ { , :`) followed by a character an anchor name may
 * start with. Never false for a text with an alias; true for a few texts without one
 * (`" *"` in a quoted string), which then merely take the slower path. Finds the stars
 * with `indexOf`, so texts without any cost a scan at memory speed.
 */
export function mayHoldAlias(text: string): boolean {
  if (!text.includes('&')) return false;
  for (let at = text.indexOf('*'); at !== -1; at = text.indexOf('*', at + 1)) {
    const before = at === 0 ? '\n' : (text[at - 1] ?? '\n');
    const after = text[at + 1];
    if (after === undefined || /[\s,[\]{}]/.test(after)) continue;
    if (/[\s[{,:]/.test(before)) return true;
  }
  return false;
}

/** Options of {@link fastParse}. */
export interface FastParseOptions {
  /**
   * Refuse (undefined) a text with a collection nested deeper than this (the root is at
   * level 1), so that the caller's parser can say where; default: no limit. Counted on the
   * parser's events, so no value needs to be walked for it: the nodes of keys count as a
   * level, and so does a block node that js-yaml first reads as a possible key (a text one
   * level less deep than the limit may be refused too; never one deeper accepted).
   */
  readonly maxNesting?: number;
}

/**
 * Reads every document of `text` with `js-yaml`. Returns undefined when the text is not
 * valid YAML for it (or uses anything listed in {@link DIFFERENT}, or may hold an alias:
 * {@link mayHoldAlias}, or nests deeper than `options.maxNesting`); the caller then uses
 * the `yaml` package. Empty documents (no content, or just `null`) are left out.
 */
export function fastParse(text: string, options: FastParseOptions = {}): FastDocument[] | undefined {
  if (DIFFERENT.test(text) || mayHoldAlias(text)) return undefined;
  const maxNesting = options.maxNesting ?? Infinity;
  /** Line and column of each document's first node, two numbers per document. */
  const starts: number[] = [];
  let depth = 0;
  let tooDeep = false;
  let values: unknown[];
  try {
    values = yaml.loadAll(text, null, {
      schema: CORE,
      listener(event, state) {
        if (event === 'open') {
          if (depth === 0) starts.push(state.line + 1, state.position - state.lineStart + 1);
          depth += 1;
        } else if (event === 'close') {
          // Each node is composed inside its parent's composition: a collection closing at
          // `depth` is nested at most `depth` levels deep.
          // A collection: js-yaml's node kinds are scalar, sequence and mapping (null: no node).
          if (depth > maxNesting && state.kind !== null && state.kind !== 'scalar') tooDeep = true;
          // js-yaml grows each list item by item, leaving room for about 16 items in each (most
          // lists of a manifest hold one or two): the node's value, which its parent takes
          // once this event returns, becomes a copy of exactly its length. (No alias can name
          // the list being replaced: texts with aliases never take this path.)
          if (state.kind === 'sequence' && Array.isArray(state.result)) state.result = state.result.slice();
          depth -= 1;
        }
      },
    });
  } catch {
    return undefined;
  }
  if (tooDeep || starts.length !== 2 * values.length) return undefined;
  const docs: FastDocument[] = [];
  values.forEach((value, i) => {
    if (value !== null && value !== undefined) docs.push({ value, line: starts[2 * i] ?? 1, column: starts[2 * i + 1] ?? 1 });
  });
  return docs;
}
