/**
 * withIndex (src/engine/indexed.ts): the numbered copy of a draft step or call has the
 * draft's members in order (but the one omitted) and its index, leaves the draft alone,
 * and, where drafts of many shapes meet, gives copies of one shape one hidden class (a
 * spread gave each copy a class of its own: checked in a node with V8's natives syntax).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withIndex } from '../../src/engine/indexed.js';
import { REPO } from '../e2e/harness.js';

const key = fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== '__proto__' && k !== 'index' && !/^\d+$/.test(k));

describe('withIndex', () => {
  it("keeps the draft's members in their order but the omitted one, adds the index last, and changes no draft (property)", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(key, fc.jsonValue()), { selector: ([k]) => k, maxLength: 12 }), fc.nat(), fc.boolean(), (entries, index, omitFirst) => {
        const draft = Object.fromEntries(entries) as Record<string, unknown>;
        const before = JSON.stringify(draft);
        const omit = omitFirst ? entries[0]?.[0] : undefined;
        const out = withIndex(draft, index, omit) as Record<string, unknown>;
        expect(Object.keys(out)).toEqual([...entries.map(([k]) => k).filter((k) => k !== omit), 'index']);
        for (const [k] of entries) if (k !== omit) expect(out[k]).toBe(draft[k]);
        expect(out.index).toBe(index);
        expect(JSON.stringify(draft)).toBe(before);
      }),
    );
  });

  it('gives copies of one shape one hidden class where drafts of many shapes meet', () => {
    const module = pathToFileURL(join(REPO, 'dist', 'engine', 'indexed.js')).href;
    const script = `
      const { withIndex } = await import(${JSON.stringify(module)});
      const shapes = [
        (i) => ({ action: 'create', method: 'POST', kind: 'mapping', name: 'm' + i, path: '/p', changes: [], reason: 'r' + i }),
        (i) => ({ action: 'link', kind: 'mapping', name: 'm' + i, relationship: 'r', related: {}, reason: 'r' }),
        (i) => ({ endpoint: 'relationship', method: 'PATCH', kind: 'k', name: 'n' + i, id: String(i), steps: [i] }),
        (i) => ({ endpoint: 'content', method: 'PUT', kind: 'k', name: 'n' + i, of: i, digest: 'd', data: 'x' }),
        (i) => ({ action: 'delete', method: 'DELETE', kind: 'k', name: 'n' + i, path: '/p' }),
      ];
      const drafts = [];
      for (let i = 0; i < 2000; i++) drafts.push(shapes[i % shapes.length](i));
      const numbered = drafts.map((d, i) => withIndex(d, i + 1));
      let shared = true;
      for (let i = shapes.length; i < numbered.length; i++) shared &&= %HaveSameMap(numbered[i], numbered[i % shapes.length]);
      const spread = drafts.map((d, i) => ({ ...d, index: i + 1 }));
      let spreadShared = true;
      for (let i = shapes.length; i < spread.length; i++) spreadShared &&= %HaveSameMap(spread[i], spread[i % shapes.length]);
      process.stdout.write(JSON.stringify({ shared, spreadShared }));
    `;
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], { encoding: 'utf8' });
    // The spread is the control: on this V8 it does give classes of their own, so the check can fail.
    expect(JSON.parse(out)).toEqual({ shared: true, spreadShared: false });
  });
});
