/**
 * checkVariant walks only the parts of a value whose schema marks some property as missing
 * from the variant: every such property, wherever a value holds it, must still be found.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VARIANTS, kindOfDocument } from '../../src/kinds/index.js';
import type { Variant } from '../../src/kinds/index.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { SCHEMA_KINDS, deref, documentSchema, existsInVariant } from '../../src/schema/index.js';
import type { JsonSchema, SchemaKind } from '../../src/schema/index.js';
import type { Entry } from '../../src/manifest/entries.js';
import { identityOrigin } from '../../src/manifest/entries.js';
import type { ParsedDocument } from '../../src/manifest/positions.js';
import { checkVariant } from '../../src/manifest/rules.js';

/** Pointer segments (under the document) of every property reachable in a schema that `variant` lacks, `*` for list items; cycles cut. */
function excludedPaths(schema: JsonSchema, root: JsonSchema, variant: Variant, at: string[], seen: Set<JsonSchema>, out: string[][]): string[][] {
  const n = deref(schema, root);
  if (seen.has(n) || at.length > 8) return out;
  const inner = new Set(seen).add(n);
  for (const [key, child] of Object.entries(n.properties ?? {})) {
    if (!existsInVariant(child, variant)) out.push([...at, key]);
    else excludedPaths(child, root, variant, [...at, key], inner, out);
  }
  if (n.items) excludedPaths(n.items, root, variant, [...at, '*'], inner, out);
  return out;
}

/** A value holding `segments` (list items at index `index`, the lists padded with empty objects). */
function valueAt(segments: readonly string[], index: number): unknown {
  const [head, ...rest] = segments;
  if (head === undefined) return 'x';
  if (head === '*') return [...Array.from({ length: index }, () => ({})), valueAt(rest, index)];
  return { [head]: valueAt(rest, index) };
}

function entryOf(kind: SchemaKind, value: Record<string, unknown>): Entry {
  const parsed: ParsedDocument = { source: { file: 'm.yaml', dir: '/', text: '' }, index: 0, value, start: { line: 1, column: 1 }, ast: () => undefined };
  return { kind, name: 'n', base: parsed, value, overlays: [], baseOrigin: identityOrigin(parsed, new Set()) };
}

describe('checkVariant', () => {
  const cases = SCHEMA_KINDS.flatMap((kind) =>
    VARIANTS.flatMap((variant) => {
      const doc = documentSchema(kind);
      if (!existsInVariant(doc, variant)) return [];
      const root = documentSchema(kindOfDocument(kind).type);
      return excludedPaths(doc, root, variant, [], new Set(), [])
        .filter((p) => p[0] === 'attributes' || p[0] === 'relationships')
        .map((path) => ({ kind, variant, path }));
    }),
  );

  it('finds every property the variant lacks, at any list index (property)', () => {
    expect(cases.length).toBeGreaterThan(10);
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.nat({ max: 2 }), ({ kind, variant, path }, index) => {
        const value = valueAt(path, index) as Record<string, unknown>;
        const out: Diagnostic[] = [];
        checkVariant(entryOf(kind, value), variant, out);
        const pointer = '/' + path.map((s) => (s === '*' ? String(index) : s)).join('/');
        expect(out.map((d) => d.pointer)).toContain(pointer);
      }),
      { numRuns: 300 },
    );
  });
});
