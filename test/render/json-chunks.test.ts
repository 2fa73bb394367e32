/**
 * The streamed JSON documents (src/render/json-chunks.ts): the chunks joined are the text of
 * the one-string rendering, byte for byte, and for a plan of thousands of objects each chunk
 * stays within CHUNK_SIZE, so `plan --format json`, `apply --format json` and `plan --out`
 * never hold the whole document as one string.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonDocument } from '../../src/core/json-document.js';
import { desiredDocuments } from '../../tools/bench/plan.js';
import { desiredState } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import { buildPlan } from '../../src/engine/plan.js';
import type { Plan } from '../../src/engine/plan-types.js';
import { PLAN_FORMAT_VERSION } from '../../src/engine/plan-types.js';
import { planFileOf } from '../../src/operations/steps/saved-plan.js';
import {
  CHUNK_SIZE,
  planJson,
  renderApplyJson,
  renderApplyJsonChunks,
  renderJson,
  renderJsonChunks,
  renderPlanFile,
  renderPlanFileChunks,
} from '../../src/render/index.js';
import { jsonDocumentChunks, MappedArray } from '../../src/render/json-chunks.js';
import { objectDiagnostic } from '../../src/core/diagnostics.js';

/** Every member name gwops writes is a plain word; values are any JSON, with members JSON.stringify leaves out mixed in. */
const member = fc.stringMatching(/^[a-z][A-Za-z]{0,8}$/);
const anyValue: fc.Arbitrary<unknown> = fc.oneof(fc.jsonValue(), fc.constant(undefined), fc.array(fc.oneof(fc.jsonValue(), fc.constant(undefined)), { maxLength: 4 }));

describe('jsonDocumentChunks', () => {
  it('joined, is exactly the text of jsonDocument for any body (empty and nested arrays and objects, left-out members)', () => {
    fc.assert(
      fc.property(fc.string(), fc.dictionary(member, fc.oneof(anyValue, fc.dictionary(member, anyValue, { maxKeys: 4 }))), (version, body) => {
        expect([...jsonDocumentChunks(version, body)].join('')).toBe(jsonDocument(version, body));
      }),
      { numRuns: 150 },
    );
  });

  it('in the lines layout, parses to the same value as jsonDocument, every element of a list of objects on a line of its own', () => {
    const record = fc.dictionary(member, fc.jsonValue(), { maxKeys: 3 });
    fc.assert(
      fc.property(fc.dictionary(member, fc.oneof(anyValue, fc.array(record, { maxLength: 4 }), fc.dictionary(member, fc.array(record), { maxKeys: 2 }))), (body) => {
        const text = [...jsonDocumentChunks('1.0', body, 'lines')].join('');
        expect(JSON.parse(text)).toEqual(JSON.parse(jsonDocument('1.0', body)));
        const lines = text.split('\n');
        for (const list of Object.values(body).filter((v): v is unknown[] => Array.isArray(v) && v.length > 0 && v.every((e) => typeof e === 'object' && e !== null))) {
          for (const element of list) expect(lines).toContain(`    ${JSON.stringify(element)}${element === list.at(-1) ? '' : ','}`);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a MappedArray is written as its mapped elements, made one at a time as the chunks are taken', () => {
    let made = 0;
    const items = Array.from({ length: 8000 }, (_, i) => i);
    const mapped = new MappedArray(items, (i) => {
      made++;
      return { index: i, text: 'x'.repeat(40) };
    });
    const chunks = jsonDocumentChunks('1.0', { steps: mapped });
    const first = chunks.next();
    expect(first.done).toBe(false);
    // The first chunk needed only the elements it holds, not all 8,000.
    expect(made).toBeLessThan(items.length / 4);
    const rest = [...chunks];
    expect([first.value, ...rest].join('')).toBe(jsonDocument('1.0', { steps: items.map((i) => ({ index: i, text: 'x'.repeat(40) })) }));
  });
});

/** A plan of `count` new mappings linked to a back-end group (the plan benchmark's desired state against an empty gateway). */
function bigPlan(count: number): { plan: Plan; desired: ReturnType<typeof desiredState> } {
  const desired = desiredState(desiredDocuments(count));
  const plan = buildPlan(desired, liveState({}, new Map()), { prune: false, isOwned: () => true, allowMassDelete: false, massDeleteShare: 0.5 });
  return { plan, desired };
}

/** True when `text` ends outside a JSON string (so the next chunk starts between two tokens). */
function endsOutsideString(text: string): boolean {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString && c === '\\') i++;
    else if (c === '"') inString = !inString;
  }
  return !inString;
}

function expectBounded(chunks: readonly string[], count: number): void {
  // Many chunks, none longer than CHUNK_SIZE: no one string holds the document.
  expect(chunks.length).toBeGreaterThan(count / 100);
  for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(CHUNK_SIZE);
  // No chunk splits a JSON string, so the redactor, which sees one write at a time, sees every value whole.
  expect(chunks.map(endsOutsideString)).toEqual(chunks.map(() => true));
}

describe('streamed plan documents', () => {
  const count = 800;
  const { plan, desired } = bigPlan(count);
  const diagnostics = [objectDiagnostic({ severity: 'warning', code: 'unresolved-link', message: 'a warning', source: { file: 'bench.yaml', line: 1, column: 1 } })];

  it(`plan --format json: ${count} mappings in chunks of at most CHUNK_SIZE characters, joined exactly renderJson`, () => {
    expect(plan.steps.length).toBeGreaterThan(2 * count);
    // The call that links every mapping to the group is longer than a chunk by itself: it is split too.
    expect(Math.max(...plan.calls.map((call) => JSON.stringify(call, null, 2).length))).toBeGreaterThan(CHUNK_SIZE);
    const chunks = [...renderJsonChunks(plan, { diagnostics })];
    expectBounded(chunks, count);
    expect(chunks.join('')).toBe(renderJson(plan, { diagnostics }));
  });

  it('apply --format json: in bounded chunks, joined exactly renderApplyJson', () => {
    const outcome = { result: 'activated', configuration: '12', comment: 'c' };
    const chunks = [...renderApplyJsonChunks(plan, diagnostics, outcome)];
    expectBounded(chunks, count);
    expect(chunks.join('')).toBe(renderApplyJson(plan, diagnostics, outcome));
  });

  it('plan --out: the plan file in bounded chunks, one step, call or desired object a line, the same JSON as the indented document', () => {
    const file = planFileOf(plan, desired, { mapping: ['labels==bench'] }, { url: 'http://gw.example', variant: 'latest' }, new Map(), '/');
    const chunks = [...renderPlanFileChunks(file)];
    expectBounded(chunks, count);
    const text = chunks.join('');
    expect(text).toBe(renderPlanFile(file));
    const { gateway, ownership, options, commit, desired: saved } = file;
    const indented = jsonDocument(PLAN_FORMAT_VERSION, { ...planJson(plan), gateway, ownership, options, commit, desired: saved });
    expect(JSON.parse(text)).toEqual(JSON.parse(indented));
    expect(text.length).toBeLessThan(indented.length * 0.7);
    const lines = new Set(text.split('\n'));
    const line = (value: unknown, last: boolean): string => `    ${JSON.stringify(value)}${last ? '' : ','}`;
    const steps = planJson(plan).steps as unknown[];
    expect(steps.filter((step, i) => !lines.has(line(step, i === steps.length - 1)))).toEqual([]);
    expect(saved.objects.filter((object, i) => !lines.has(`  ${line(object, i === saved.objects.length - 1)}`))).toEqual([]);
  });
});
