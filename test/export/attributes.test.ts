import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportAttributes } from '../../src/export/attributes.js';
import { NoSecret } from '../../src/export/values.js';
import { defaultTree, stripDefaults } from '../../src/export/default-tree.js';
import type { ResourceType, Variant } from '../../src/kinds/index.js';
import { KINDS } from '../../src/kinds/index.js';
import { secretAttributes } from '../../src/schema/index.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path of `tree` to an object member (keys only; lists are left whole). */
function memberPaths(tree: unknown, at: string[] = []): string[][] {
  if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) return [];
  return Object.entries(tree).flatMap(([key, child]) => [[...at, key], ...memberPaths(child, [...at, key])]);
}

/** `tree` (a copy) with `value` set at `path` (undefined: the member deleted), where its parents are objects. */
function setAt(tree: Record<string, Json>, path: readonly string[], value: Json | undefined): void {
  let node: unknown = tree;
  for (const key of path.slice(0, -1)) {
    node = typeof node === 'object' && node !== null && !Array.isArray(node) ? (node as Record<string, Json>)[key] : undefined;
  }
  const last = path[path.length - 1];
  if (last === undefined || typeof node !== 'object' || node === null || Array.isArray(node)) return;
  if (value === undefined) delete (node as Record<string, Json>)[last];
  else (node as Record<string, Json>)[last] = value;
}

/**
 * Live attributes of a kind: its default tree with members changed, deleted or added (known
 * secrets among them, with values), unknown members included.
 */
function liveOf(type: ResourceType): fc.Arbitrary<Record<string, Json>> {
  const base = defaultTree(type) as Record<string, Json>;
  const paths = [...memberPaths(base), ...secretAttributes(type).map((s) => s.segments.filter((seg) => seg !== '*'))];
  const edit = fc.record({
    path: paths.length > 0 ? fc.oneof(fc.constantFrom(...paths), fc.constantFrom(...paths).map((p) => [...p.slice(0, -1), 'zz-unknown'])) : fc.constant(['zz-unknown']),
    value: fc.option(fc.oneof(fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>, fc.constant('SECRET-VALUE'), fc.constant(''), fc.constant(null).map((): Json => ({}))), { nil: undefined }),
  });
  return fc.array(edit, { maxLength: 8 }).map((edits) => {
    const live = structuredClone(base);
    for (const { path, value } of edits) setAt(live, path, value);
    return live;
  });
}

const VARIANTS: readonly Variant[] = ['latest', 'middle'];

describe('exportAttributes', () => {
  it('leaving defaults out gives what keeping them gives with the defaults stripped, reports the same unknown attributes and never changes the live object (property, every kind)', () => {
    const kinds = KINDS.map((k) => k.type);
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds).chain((type) => fc.tuple(fc.constant(type), fc.constantFrom(...VARIANTS), liveOf(type))),
        ([type, variant, live]) => {
          const before = structuredClone(live);
          const unknownKept: string[] = [];
          const unknownStripped: string[] = [];
          const kept = exportAttributes(type, live, { variant, keepDefaults: true, unknown: (p) => unknownKept.push(p) });
          const stripped = exportAttributes(type, live, { variant, keepDefaults: false, unknown: (p) => unknownStripped.push(p) });
          expect(stripped).toEqual(stripDefaults(kept, defaultTree(type)));
          expect(unknownStripped).toEqual(unknownKept);
          expect(live).toEqual(before);
        },
      ),
      { seed: 24, numRuns: 300 },
    );
  });

  it('a member value shared deep-frozen by several objects (as the REST client shares repeated members) gives what a fresh copy gives, unknown attributes reported for each object (property, every kind)', () => {
    const kinds = KINDS.map((k) => k.type);
    const deepFrozen = <T>(value: T): T => {
      if (typeof value === 'object' && value !== null) {
        for (const child of Object.values(value)) deepFrozen(child);
        Object.freeze(value);
      }
      return value;
    };
    fc.assert(
      fc.property(
        fc.constantFrom(...kinds).chain((type) => fc.tuple(fc.constant(type), fc.constantFrom(...VARIANTS), fc.array(liveOf(type), { minLength: 1, maxLength: 4 }), fc.array(fc.nat(3), { minLength: 2, maxLength: 6 }))),
        ([type, variant, lives, picks]) => {
          // The objects of a list: each a pick of the lives, whose object and list members are
          // (after the first time) the very values an earlier object held, under any name.
          const shared = new Map<string, unknown>();
          const sharedObjects = picks.map((pick) => {
            const live = lives[pick % lives.length] ?? {};
            const object: Record<string, unknown> = {};
            for (const [key, value] of Object.entries(live)) {
              if (typeof value !== 'object' || value === null) {
                object[key] = value;
                continue;
              }
              const id = JSON.stringify(value);
              if (!shared.has(id)) shared.set(id, deepFrozen(structuredClone(value)));
              object[key] = shared.get(id);
            }
            return object;
          });
          for (const object of sharedObjects) {
            const fresh = structuredClone(object);
            const unknownShared: string[] = [];
            const unknownFresh: string[] = [];
            const fromShared = exportAttributes(type, object, { variant, keepDefaults: false, unknown: (p) => unknownShared.push(p) });
            const fromFresh = exportAttributes(type, fresh, { variant, keepDefaults: false, unknown: (p) => unknownFresh.push(p) });
            expect(fromShared).toEqual(fromFresh);
            expect(unknownShared).toEqual(unknownFresh);
          }
        },
      ),
      { seed: 26, numRuns: 200 },
    );
  });

  it('reports each unknown attribute by its dotted path and leaves it out', () => {
    const unknown: string[] = [];
    const out = exportAttributes('mapping', { name: 'm', bogus: 1, access: { nope: [1] }, backendPath: '/x/' }, { variant: 'latest', keepDefaults: false, unknown: (p) => unknown.push(p) });
    expect(unknown).toEqual(['bogus', 'access.nope']);
    expect(out).toEqual({ name: 'm', backendPath: '/x/' });
  });

  it('leaves a write-only secret out and makes a readable one a slot, defaults kept or not', () => {
    for (const keepDefaults of [false, true]) {
      const out = exportAttributes('ssl-certificate', { certificate: 'no pem', privateKey: 'KEY', passphrase: 'PASS' }, { variant: 'latest', keepDefaults, unknown: () => undefined });
      // No value is kept; `KEY` is no encrypted key, so no source is asked for either.
      expect(out.passphrase).toBeInstanceOf(NoSecret);
      expect(out.privateKey).toMatchObject({ writeOnly: false });
    }
  });
});
