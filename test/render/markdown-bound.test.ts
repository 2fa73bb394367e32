/**
 * `--max-bytes` is an upper bound of the markdown plan, whatever it holds: every part (the
 * validator's messages, the objects no manifest declares, the picture, the object
 * sections) is cut to fit, and what was cut is said.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { identityHandles, desiredState } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import { buildPlan } from '../../src/engine/plan.js';
import type { Plan } from '../../src/engine/plan-types.js';
import { planTopology, renderMarkdown } from '../../src/render/index.js';
import { doc, options, resource } from '../engine/helpers.js';

/** `creates` new mappings and `unmanaged` mappings on the gateway that no manifest declares. */
function planOf(creates: number, unmanaged: number, nameLength = 8): { plan: Plan; topology: ReturnType<typeof planTopology> } {
  const name = (prefix: string, i: number): string => `${prefix}${String(i).padStart(nameLength, '0')}`;
  const desired = desiredState(Array.from({ length: creates }, (_, i) => doc('mapping', name('m', i), { backendPath: `/p${i}` })));
  const live = liveState({ mapping: Array.from({ length: unmanaged }, (_, i) => resource('mapping', String(i + 1), { name: name('u', i) })) }, identityHandles(desired));
  const plan = buildPlan(desired, live, options());
  return { plan, topology: planTopology(plan, desired, live) };
}

/** `count` validator messages (the gateway rejecting mappings), each `extra` characters longer than the plain text. */
function rejections(count: number, extra: number): Diagnostic[] {
  return Array.from({ length: count }, (_, i) => ({
    severity: 'error',
    code: 'MAPPING_BACKEND_MISSING',
    file: `manifests/m${i}.yaml`,
    line: i + 1,
    column: 1,
    pointer: '',
    object: { kind: 'mapping', name: `m${i}` },
    message: `Mapping has no back-end group ${'x'.repeat(extra)}`,
  }));
}

describe('the markdown plan within --max-bytes', () => {
  it('1,000 mappings the validator rejects, under --max-bytes 60000: within the bound, the cut messages counted', () => {
    const { plan, topology } = planOf(1_000, 0);
    const md = renderMarkdown(plan, { maxBytes: 60_000, validatorMessages: rejections(1_000, 20), topology });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(60_000);
    expect(md).toMatch(/_\d+ more validator messages not shown, to keep this text within its size limit/);
    expect(md).toContain('#### Gateway validator: 1000 messages, 1000 errors');
    expect(md).toContain('**Plan: 1000 to create');
  });

  it('2,500 rejected mappings within the 1 MiB of a job summary', () => {
    const { plan } = planOf(2_500, 0);
    const md = renderMarkdown(plan, { maxBytes: 1_040_000, validatorMessages: rejections(2_500, 400) });
    expect(Buffer.byteLength(md)).toBeLessThanOrEqual(1_040_000);
  });

  it('property: for random plans, messages, undeclared objects and bounds, the output is at most --max-bytes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 0, max: 3_000 }),
        fc.integer({ min: 1_000, max: 40_000 }),
        fc.boolean(),
        (creates, unmanaged, messages, extra, maxBytes, picture) => {
          const { plan, topology } = planOf(creates, unmanaged, 1 + (extra % 40));
          const md = renderMarkdown(plan, { maxBytes, validatorMessages: rejections(messages, extra), ...(picture ? { topology } : {}) });
          expect(Buffer.byteLength(md)).toBeLessThanOrEqual(maxBytes);
          expect(md.startsWith('<!-- gwops-plan -->\n### gwops plan\n')).toBe(true);
          const shownMessages = md.split('\n').filter((l) => l.startsWith('| ❌ ERROR')).length;
          if (shownMessages < messages) expect(md).toMatch(new RegExp(`[_ ]${messages - shownMessages} more validator message`));
          else expect(md).not.toContain('more validator message');
        },
      ),
      { numRuns: 40, seed: 4242 },
    );
  });
});
