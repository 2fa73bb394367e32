/**
 * Golden drift reports: the `shop` case (test/golden/shop/: its live state differs from its
 * manifests in every direction) as `gwops drift` renders it, with a fixed history and one
 * ignore entry, in `drift.txt`, `drift.md` and `drift.json`. Regenerate with
 * `UPDATE_GOLDEN=1 npx vitest run test/golden` and review the diff.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { attributeDrift } from '../../src/engine/drift-attribution.js';
import { parseDriftSettings } from '../../src/manifest/drift-ignore.js';
import type { DriftReport } from '../../src/engine/drift-report.js';
import { buildDriftReport } from '../../src/engine/drift-report.js';
import { renderDriftJson, renderDriftMarkdown, renderDriftText } from '../../src/render/drift.js';
import type { GoldenCase } from './cases.js';
import { golden, loadCase } from './cases.js';


const HISTORY = [
  { id: '14', configType: 'CURRENTLY_ACTIVE', comment: 'hotfix: raise the <timeout> | see ticket', createdAt: '2026-11-22T03:10:00Z', createdBy: 'night-ops' },
  { id: '13', configType: 'SAVED', comment: 'draft', createdAt: '2026-11-21T18:00:00Z', createdBy: 'alice' },
  { id: '12', configType: 'PREVIOUSLY_ACTIVE', comment: undefined, createdAt: '2026-11-21T17:00:00Z', createdBy: 'bob' },
  { id: '11', configType: 'PREVIOUSLY_ACTIVE', comment: 'gwops apply: 1a2b3c4 Shop launch (Carol)', createdAt: '2026-11-20T09:00:00Z', createdBy: 'ci' },
];

describe('golden drift report (shop)', () => {
  let c: GoldenCase;
  let report: DriftReport;
  beforeAll(async () => {
    c = await loadCase('shop');
    const { settings } = parseDriftSettings({ ignore: [{ object: 'virtual-host/shop', attribute: 'keepAliveTimeout', reason: 'load test until the sale ends', until: '2026-12-31' }] });
    report = buildDriftReport({ plan: c.plan, desired: c.desired, live: c.live, attribution: attributeDrift(HISTORY), ignore: settings.ignore, expiredIgnores: [] });
  });

  it('text', () => golden(new URL('drift.txt', c.dir), renderDriftText(report, { color: false })));
  it('markdown', () => golden(new URL('drift.md', c.dir), renderDriftMarkdown(report)));
  it('json', () => golden(new URL('drift.json', c.dir), renderDriftJson(report)));

  it('names the activations since gwops\'s last one, newest first, saved ones left out', () => {
    expect(report.attribution.lastGwops?.id).toBe('11');
    expect(report.attribution.since.map((a) => a.id)).toEqual(['14', '12']);
  });

  it('never shows a secret value of the manifests', () => {
    const outputs = [renderDriftText(report, { color: false }), renderDriftMarkdown(report), renderDriftJson(report)];
    // The case holds secrets, or the check below proves nothing.
    expect(c.loaded.secretValues.length).toBeGreaterThan(0);
    for (const out of outputs) for (const secret of c.loaded.secretValues) expect(out).not.toContain(secret);
  });
});
