/**
 * A markdown plan cut to its size limit (a pull-request comment) never hides a destructive
 * change: deletions keep their sections first, then updates and link removals, then
 * creations; every deletion, update and link removal whose section is cut is still named,
 * and the text says what it left out and where the whole plan is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { identityHandles, desiredState } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import { buildPlan } from '../../src/engine/plan.js';
import type { Plan } from '../../src/engine/plan-types.js';
import type { ManifestDocument } from '../../src/manifest/types.js';
import type { ApiResource } from '../../src/engine/live.js';
import { MARKDOWN_MAX_BYTES, planTopology, renderMarkdown } from '../../src/render/index.js';
import { objectTitle } from '../../src/render/values.js';
import { codeSpan } from '../../src/render/markdown-text.js';
import { doc, many, options, resource } from '../engine/helpers.js';

/** The shape of a plan: new mappings, mappings updated, deleted (pruned), and back-end groups unlinked from a mapping. */
interface Shape {
  readonly creates: number;
  readonly updates: number;
  readonly deletes: number;
  readonly unlinks: number;
  /** Characters of padding in each new mapping's attribute, so a section is larger. */
  readonly padding: number;
}

const pad = (prefix: string, i: number): string => `${prefix}-${String(i).padStart(4, '0')}`;

/** A plan of `shape`, planned with `--prune`, and its picture. */
function planOf(shape: Shape): { plan: Plan; topology: ReturnType<typeof planTopology> } {
  const docs: ManifestDocument[] = [];
  const live: ApiResource[] = [];
  const groups: ApiResource[] = [];
  let id = 1;
  for (let i = 0; i < shape.creates; i++) docs.push(doc('mapping', pad('new', i), { backendPath: `/p${i}/${'x'.repeat(shape.padding)}` }));
  for (let i = 0; i < shape.updates; i++) {
    docs.push(doc('mapping', pad('changed', i), { threatHandling: 'BLOCK' }));
    live.push(resource('mapping', String(id++), { name: pad('changed', i), threatHandling: 'NOTIFY' }));
  }
  for (let i = 0; i < shape.deletes; i++) live.push(resource('mapping', String(id++), { name: pad('gone', i) }));
  for (let i = 0; i < shape.unlinks; i++) {
    const group = String(id++);
    groups.push(resource('back-end-group', group, { name: pad('group', i) }));
    docs.push(doc('back-end-group', pad('group', i)));
    docs.push(doc('mapping', pad('linked', i)));
    live.push(resource('mapping', String(id++), { name: pad('linked', i) }, { backendGroups: many('back-end-group', group) }));
  }
  const desired = desiredState(docs);
  const liveObjects = liveState({ mapping: live, 'back-end-group': groups }, identityHandles(desired));
  const plan = buildPlan(desired, liveObjects, options({ prune: true, allowMassDelete: true }));
  return { plan, topology: planTopology(plan, desired, liveObjects) };
}

/** Whether `md` names the object `title`: in its section's summary, or as a code span in a list. */
function named(md: string, title: string): boolean {
  return md.includes(codeSpan(title)) || md.includes(` ${title}</code>`);
}

/** The objects a plan deletes, updates or unlinks: those a comment must always name. */
function destructive(plan: Plan): string[] {
  const names = new Set<string>();
  for (const step of plan.steps) if (step.action === 'delete' || step.action === 'update' || step.action === 'unlink') names.add(objectTitle(step));
  return [...names];
}

describe('a markdown plan cut to a comment', () => {
  it('300 new mappings, one update and one deletion: the comment names the deleted and the updated mapping', () => {
    const { plan, topology } = planOf({ creates: 300, updates: 1, deletes: 1, unlinks: 0, padding: 60 });
    expect(plan.summary).toMatchObject({ create: 300, update: 1, delete: 1 });
    const md = renderMarkdown(plan, { topology });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(MARKDOWN_MAX_BYTES);
    expect(md).toMatch(/more objects? not shown/);
    expect(named(md, 'mapping "gone-0000"')).toBe(true);
    expect(named(md, 'mapping "changed-0000"')).toBe(true);
    // The deletion's and the update's sections come before any creation's.
    const first = md.indexOf('<details>');
    expect(md.slice(first, md.indexOf('</details>', first))).toContain('mapping "gone-0000"');
    expect(md).toContain('threatHandling');
    expect(md).toContain('the whole plan is in');
  });

  it('property: every deletion, update and link removal is named, and the text stays within its limit', () => {
    fc.assert(
      fc.property(
        fc.record({
          creates: fc.integer({ min: 0, max: 400 }),
          updates: fc.integer({ min: 0, max: 40 }),
          deletes: fc.integer({ min: 0, max: 40 }),
          unlinks: fc.integer({ min: 0, max: 20 }),
          padding: fc.integer({ min: 0, max: 400 }),
        }),
        fc.integer({ min: 12_000, max: 70_000 }),
        fc.boolean(),
        (shape, maxBytes, picture) => {
          const { plan, topology } = planOf(shape);
          const md = renderMarkdown(plan, { maxBytes, ...(picture ? { topology } : {}) });
          expect(Buffer.byteLength(md)).toBeLessThanOrEqual(maxBytes);
          for (const title of destructive(plan)) expect(named(md, title), title).toBe(true);
          const sections = md.split('\n').filter((line) => line.startsWith('<summary>')).length;
          const groups = new Set(plan.steps.map((s) => objectTitle(s))).size;
          if (sections < groups) expect(md).toMatch(/not shown, to keep this text within its size limit: the whole plan is in/);
        },
      ),
      { numRuns: 30, seed: 43 },
    );
  });
});
