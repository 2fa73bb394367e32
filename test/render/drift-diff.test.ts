/**
 * A changed member of a list item, as the drift report's text and markdown show it: the
 * plan's value diff (src/render/values.ts `changeRows`) of both sides cut to what the
 * manifests declare (src/engine/declared-view.ts). For every list of every kind whose
 * items have defaults (the schema's `items.default`, nested lists included), every scalar
 * leaf of an item, and any set of members the manifest leaves out: the report shows the
 * leaf's old value on a `-` line and its new one on a `+` line, and none of the members
 * the manifest left out that are equal on both sides; the JSON report keeps both values whole.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attributeDrift } from '../../src/engine/drift-attribution.js';
import { buildDriftReport } from '../../src/engine/drift-report.js';
import { desiredState, identityHandles } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import { buildPlan } from '../../src/engine/plan.js';
import { KINDS } from '../../src/kinds/index.js';
import type { ResourceType } from '../../src/kinds/index.js';
import { renderDriftJson, renderDriftMarkdown, renderDriftText } from '../../src/render/drift.js';
import { itemDefaultsRules, publicKeyAttributes, referenceAttributes, secretAttributes, urlAttributes } from '../../src/schema/index.js';
import { doc, options, resource } from '../engine/helpers.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every scalar leaf of `value`, as key paths. */
function leaves(value: Json, at: string[] = []): string[][] {
  return Object.entries(value).flatMap(([key, child]) => (isObject(child) ? leaves(child, [...at, key]) : Array.isArray(child) ? [] : [[...at, key]]));
}

/** A different value of the same type. */
function changed(value: unknown): unknown {
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value + 7;
  if (typeof value === 'string') return `${value}changed`;
  return 'changed';
}

/** `root` with `value` set at `path` (`*`: item 0 of a list, made when missing); a copy. */
function setAt(root: Json, path: readonly string[], value: unknown): Json {
  const [head, ...rest] = path;
  if (head === undefined) return root;
  const copy = structuredClone(root);
  if (rest.length === 0) {
    copy[head] = value;
    return copy;
  }
  const [next, ...after] = rest;
  if (next === '*') {
    const list = Array.isArray(copy[head]) ? (copy[head] as unknown[]) : [];
    const item = isObject(list[0]) ? list[0] : {};
    copy[head] = [after.length === 0 ? value : setAt(item, after, value), ...list.slice(1)];
  } else {
    copy[head] = setAt(isObject(copy[head]) ? (copy[head]) : {}, rest, value);
  }
  return copy;
}

/** Every key name in `value`, at any depth. */
function keyNames(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) keyNames(item, into);
  else if (isObject(value)) for (const [key, child] of Object.entries(value)) keyNames(child, into.add(key));
  return into;
}

/** Attribute paths whose values are shown other than as they are (names for ids, masks, key ids), `/`-joined with `*` for items. */
function transformed(type: ResourceType): Set<string> {
  return new Set([referenceAttributes, secretAttributes, urlAttributes, publicKeyAttributes].flatMap((of) => of(type).map((p) => p.segments.join('/'))));
}

/** One list with item defaults of a kind whose identity is its name, with the leaves of its default item shown as they are. */
const CASES = KINDS.filter((k) => k.identity.byName).flatMap((k) =>
  itemDefaultsRules(k.type)
    .map((rule) => ({
      kind: k.type,
      segments: rule.segments,
      defaults: rule.defaults,
      leaves: leaves(rule.defaults).filter((leaf) => !transformed(k.type).has([...rule.segments, '*', ...leaf].join('/'))),
    }))
    .filter((c) => c.leaves.length > 0),
);

describe('drift shows one changed member of a list item as a short diff of what the manifests declare', () => {
  it('has lists to draw from, nested ones included', () => {
    expect(CASES.length).toBeGreaterThan(5);
    expect(CASES.some((c) => c.segments.includes('*'))).toBe(true);
  });

  it('shows the old and new value of the leaf, and no member the manifest leaves out that is equal on both sides', () => {
    const arbitrary = fc
      .constantFrom(...CASES)
      .chain((c) => fc.record({ c: fc.constant(c), leaf: fc.constantFrom(...c.leaves), declared: fc.subarray(Object.keys(c.defaults)) }));
    fc.assert(
      fc.property(arbitrary, ({ c, leaf, declared }) => {
        const name = 'dd-object';
        // The item as the manifest writes it: some members of the default item; as the gateway holds it: all, one leaf changed.
        const written: Json = Object.fromEntries(declared.map((key) => [key, structuredClone(c.defaults[key])]));
        const old = leaf.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), c.defaults);
        const liveItem = setAt(structuredClone(c.defaults), leaf, changed(old));
        const desired = desiredState([doc(c.kind, name, setAt({}, [...c.segments, '*'], written))]);
        const live = liveState({ [c.kind]: [resource(c.kind, '1', setAt({ name }, [...c.segments, '*'], liveItem))] }, identityHandles(desired));
        const plan = buildPlan(desired, live, options());
        const report = buildDriftReport({ plan, desired, live, attribution: attributeDrift([]), ignore: [], expiredIgnores: [] });
        expect(report.entries.map((e) => e.direction)).toEqual(['changed']);

        const key = JSON.stringify(leaf[leaf.length - 1]);
        const line = (sign: string, value: unknown): RegExp => new RegExp(`^\\s*\\${sign} .*${escape(key)}: ?${escape(JSON.stringify(value))}`, 'm');
        // Members left out by the manifest, equal on both sides, whose names appear nowhere they may be shown.
        const shownNames = keyNames(written);
        for (const key of leaf) shownNames.add(key);
        const leftOut = Object.keys(c.defaults).filter((k) => !declared.includes(k) && k !== leaf[0] && !shownNames.has(k));
        for (const out of [renderDriftText(report, { color: false }), renderDriftMarkdown(report)]) {
          expect(out).toMatch(line('-', old));
          expect(out).toMatch(line('+', changed(old)));
          for (const member of leftOut) expect(out).not.toContain(`${JSON.stringify(member)}:`);
        }
        // The JSON report keeps both values whole.
        const [entry] = (JSON.parse(renderDriftJson(report)) as { entries: { declared: unknown; live: unknown }[] }).entries;
        expect(JSON.stringify(entry?.live)).toContain(JSON.stringify(changed(old)));
        for (const member of Object.keys(c.defaults)) expect(JSON.stringify(entry?.live)).toContain(`${JSON.stringify(member)}:`);
      }),
      { numRuns: 300 },
    );
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
