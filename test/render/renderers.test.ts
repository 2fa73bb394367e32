import { describe, expect, it } from 'vitest';
import { identityHandles, desiredState } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import { buildPlan } from '../../src/engine/plan.js';
import type { Plan } from '../../src/engine/plan-types.js';
import { CHUNK_SIZE, MARKDOWN_MARKER, NO_CHANGES, renderJson, renderMarkdown, renderText, renderTextChunks, summaryLine } from '../../src/render/index.js';
import { doc, options, resource } from '../engine/helpers.js';

function planFor(docs: Parameters<typeof desiredState>[0], lists: Parameters<typeof liveState>[0]): Plan {
  const desired = desiredState(docs);
  return buildPlan(desired, liveState(lists, identityHandles(desired)), options());
}

const empty = planFor([doc('mapping', 'a')], { mapping: [resource('mapping', '1', { name: 'a' })] });
const tricky = planFor([doc('mapping', 'a', { backendPath: '/x```y|<b>' })], { mapping: [resource('mapping', '1', { name: 'a', backendPath: '/old' })] });

describe('renderText', () => {
  it('says so when there is nothing to do', () => {
    expect(renderText(empty, { color: false })).toBe(`${NO_CHANGES}\n`);
  });

  it('colours only when asked', () => {
    expect(renderText(tricky, { color: false })).not.toContain('\u001b[');
    expect(renderText(tricky, { color: true })).toContain('\u001b[');
  });

  it('closes with the Terraform-style summary line, singular and plural', () => {
    expect(renderText(tricky, { color: false }).trimEnd().split('\n').at(-1)).toBe('Plan: 0 to create, 1 to update, 0 to delete, 0 links to change.');
    expect(summaryLine({ create: 1, update: 0, delete: 0, link: 1, unlink: 0 })).toBe('Plan: 1 to create, 0 to update, 0 to delete, 1 link to change.');
  });

  it('shows only changed attributes with a count of the hidden ones', () => {
    const text = renderText(tricky, { color: false });
    expect(text).toContain('~ backendPath = "/old" -> "/x```y|<b>"');
    expect(text).toContain('# (1 unchanged attribute hidden)');
    expect(text).not.toContain('name');
  });
});

describe('renderTextChunks', () => {
  // 3,000 new mappings, each with an attribute long enough that the text spans many chunks.
  const large = planFor(
    Array.from({ length: 3000 }, (_, i) => doc('mapping', `m${i}`, { backendPath: `/${'p'.repeat(i % 97)}/${i}` })),
    {},
  );

  it('gives the text of renderText in chunks of at most CHUNK_SIZE characters, cut between lines', () => {
    const chunks = [...renderTextChunks(large, { color: false })];
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.join('')).toBe(renderText(large, { color: false }));
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(CHUNK_SIZE);
      expect(chunk.endsWith('\n')).toBe(true);
    }
    expect(chunks.join('')).toContain('+ mapping "m2999" {');
  });

  it('makes each chunk when it is asked for', () => {
    const chunks = renderTextChunks(large, { color: false });
    const first = chunks.next();
    expect(first.done).toBe(false);
    expect(first.value).toContain('gwops will perform the following actions:');
    expect(first.value).not.toContain('Plan: 3000 to create');
  });
});

describe('renderMarkdown', () => {
  it('starts with the hidden marker and a heading, also when empty', () => {
    const md = renderMarkdown(empty, { title: 'Plan for prod' });
    expect(md.split('\n').slice(0, 2)).toEqual([MARKDOWN_MARKER, '### Plan for prod']);
    expect(md).toContain(NO_CHANGES);
  });

  it('fences values longer than their backtick runs and escapes table cells', () => {
    const md = renderMarkdown(tricky, {
      validatorMessages: [{ severity: 'error', code: 'X', file: 'm.yaml', line: 3, column: 1, pointer: '', object: { kind: 'mapping', name: 'a' }, message: 'a | b <script>' }],
    });
    expect(md).toContain('````diff');
    expect(md).toContain('| ❌ ERROR | `X` | `mapping "a"` | `m.yaml:3` | `a \\| b <script>` |');
    expect(md).toContain('<details>');
    expect(md).toContain('1 error (apply would not activate)');
  });
});

describe('renderJson', () => {
  it('puts formatVersion first and round-trips', () => {
    const json = renderJson(tricky);
    expect(json.split('\n')[1]).toBe('  "formatVersion": "7.0",');
    expect(JSON.parse(json)).toEqual(tricky);
    expect(renderJson(JSON.parse(json) as Plan)).toBe(json);
  });
});

describe('terminal safety', () => {
  it('shows control characters of multi-line values escaped', () => {
    const p = planFor([doc('mapping', 'a', { expertSettings: { apache: { settings: 'a\u001b[2J\nb\n' } } })], { mapping: [resource('mapping', '1', { name: 'a' })] });
    const text = renderText(p, { color: false });
    expect(text).not.toContain('\u001b');
    expect(text).toContain('a\\u001b[2J');
  });
});

describe('renderMarkdown size', () => {
  it('leaves out object sections beyond maxBytes, keeping summary and validator messages', () => {
    const docs = Array.from({ length: 200 }, (_, i) => doc('mapping', `m${String(i).padStart(3, '0')}`, { backendPath: `/p${i}` }));
    const p = planFor(docs, {});
    const full = renderMarkdown(p, { maxBytes: 1_000_000 });
    expect(full).not.toContain('not shown');
    const short = renderMarkdown(p, { maxBytes: 5_000, validatorMessages: [{ severity: 'error', code: 'validator-message', message: 'kept' }] });
    expect(short.length).toBeLessThanOrEqual(5_000);
    expect(short).toContain('Plan: 200 to create');
    expect(short).toContain('| `kept` |');
    expect(short).toMatch(/_\d+ more objects not shown, to keep this text within its size limit: the whole plan is in `gwops plan --format json`/);
  });
});
