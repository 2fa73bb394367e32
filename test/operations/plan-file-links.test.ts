/**
 * The links and declared relationships of a plan file (src/engine/plan-file.ts), saved as
 * tuples: every link of every kind's canonical relationships, with any names, comes back from
 * the file as it was, in its order; anything else in their place is refused with one line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { emptyObjectMaps } from '../../src/engine/model.js';
import type { DeclaredRelationship, Link, State } from '../../src/engine/model.js';
import { planFileOf, readPlanFile } from '../../src/operations/steps/saved-plan.js';
import { desiredOfPlanFile } from '../../src/operations/steps/saved-plan-secrets.js';
import { renderPlanFile } from '../../src/render/index.js';
import { EMPTY_PLAN } from '../engine/helpers.js';

const plan = EMPTY_PLAN;
const gateway = { url: 'https://gw.example:8443/airlock/rest', variant: 'latest' } as const;

/** Every relationship of every kind: the canonical ones make links, all of them can be declared. */
const relationships = KINDS.flatMap((kind) => Object.values(kind.relationships).map((def) => ({ kind: kind.type, def })));
const canonical = relationships.filter((r) => r.def.canonical);

/** Any name, JSON's special characters, line breaks and astral characters included. */
const name = fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\u2028', '\u{1F600}', ':', ','), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 12 });

const link = fc.record({ at: fc.nat({ max: canonical.length - 1 }), from: name, to: name }).map(({ at, from, to }): Link => {
  const { kind, def } = canonical[at] as (typeof canonical)[number];
  return { from: { kind, name: from }, relationship: def.name, to: { kind: def.target, name: to } };
});

const declared = fc.record({ at: fc.nat({ max: relationships.length - 1 }), object: name }).map(({ at, object }): DeclaredRelationship => {
  const { kind, def } = relationships[at] as (typeof relationships)[number];
  return { object: { kind, name: object }, relationship: def.name };
});

function desiredWith(links: readonly Link[], declaredRelationships: readonly DeclaredRelationship[]): State {
  return { objects: emptyObjectMaps(), links, declaredRelationships };
}

function write(content: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gwops-plan-links-'));
  writeFileSync(join(dir, 'plan.json'), content);
  return { dir, file: 'plan.json' };
}

describe('plan file links and declared relationships', () => {
  it('come back from the file as they were, in their order, for every kind, relationship and name (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(link, { maxLength: 8 }), fc.array(declared, { maxLength: 8 }), async (links, declaredRelationships) => {
        const saved = planFileOf(plan, desiredWith(links, declaredRelationships), {}, gateway, new Map(), '/work');
        const { dir, file } = write(renderPlanFile(saved));
        const state = desiredOfPlanFile(await readPlanFile(file, dir), file, {}, dir);
        expect(state.links).toEqual(links);
        expect(state.declaredRelationships).toEqual(declaredRelationships);
      }),
      { numRuns: 60 },
    );
  });

  it('are one tuple a line: a link is [kind, name, relationship, related name], a declared relationship [kind, name, relationship]', () => {
    const { kind, def } = canonical[0] as (typeof canonical)[number];
    const text = renderPlanFile(
      planFileOf(plan, desiredWith([{ from: { kind, name: 'a' }, relationship: def.name, to: { kind: def.target, name: 'b' } }], [{ object: { kind, name: 'a' }, relationship: def.name }]), {}, gateway, new Map(), '/work'),
    );
    expect(text).toContain(`\n      ${JSON.stringify([kind, 'a', def.name, 'b'])}\n`);
    expect(text).toContain(`\n      ${JSON.stringify([kind, 'a', def.name])}\n`);
  });

  const kinds = KINDS.map((k) => k.type);
  const lacks = (kind: string, relationship: string): boolean => !Object.hasOwn(KINDS.find((k) => k.type === kind)?.relationships ?? {}, relationship);

  /**
   * Values that are not a tuple of `valid`'s shape: another length, a part that is not a
   * string, an unknown kind, a relationship the kind lacks, or the object a link used to be.
   */
  const malformed = (valid: readonly string[]): fc.Arbitrary<unknown> =>
    fc.oneof(
      fc.array(fc.string(), { maxLength: 6 }).filter((parts) => parts.length !== valid.length),
      fc.tuple(fc.constantFrom<unknown>(1, null, {}, []), fc.nat({ max: valid.length - 1 })).map(([odd, at]) => valid.map((part, i) => (i === at ? odd : part))),
      name.filter((kind) => !(kinds as string[]).includes(kind)).map((kind) => [kind, ...valid.slice(1)]),
      fc.record({ kind: fc.constantFrom(...kinds), relationship: name })
        .filter(({ kind, relationship }) => lacks(kind, relationship))
        .map(({ kind, relationship }) => valid.map((part, i) => (i === 0 ? kind : i === 2 ? relationship : part))),
      fc.constant({ object: { kind: valid[0], name: valid[1] }, relationship: valid[2] }),
    );

  const first = canonical[0] as (typeof canonical)[number];
  /** A relationship that is not the side links are stored on is no link either. */
  const notALink = fc.oneof(
    malformed([first.kind, 'a', first.def.name, 'b']),
    fc.constantFrom(...relationships.filter((r) => !r.def.canonical)).map(({ kind, def }) => [kind, 'a', def.name, 'b']),
  );

  it.each([
    ['a desired link', 'links', 'a desired link is malformed', notALink],
    ['a declared relationship', 'declaredRelationships', 'a declared relationship is malformed', malformed([first.kind, 'a', first.def.name])],
  ] as const)('refuses anything else in place of %s, with one line naming the file (property)', async (_what, member, message, values) => {
    const valid = planFileOf(plan, desiredWith([], []), {}, gateway, new Map(), '/work');
    await fc.assert(
      fc.asyncProperty(values, async (value) => {
        const { dir, file } = write(JSON.stringify({ ...valid, desired: { ...valid.desired, [member]: [value] } }));
        await expect(readPlanFile(file, dir)).rejects.toThrow(new RegExp(`^plan file plan\\.json is not a complete gwops plan: ${message} \\([^\\n]*\\)$`));
      }),
      { numRuns: 60 },
    );
  });
});

