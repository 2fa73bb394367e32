/**
 * Text of the gateway in the drift report (object names, values, paths, activation
 * comments and authors): inert in markdown (code spans: no link, mention or HTML; the
 * report is the nightly recipe's issue body) and escaped in the text report (no carriage
 * return or escape sequence, colours on or off).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { attributeDrift } from '../../src/engine/drift-attribution.js';
import type { DriftReport } from '../../src/engine/drift-report.js';
import { buildDriftReport } from '../../src/engine/drift-report.js';
import { renderDriftMarkdown, renderDriftText } from '../../src/render/drift.js';
import { HOSTILE, channelViolations } from '../drills/output-oracle.js';
import { loadCase } from '../golden/cases.js';

let base: DriftReport;
beforeAll(async () => {
  const c = await loadCase('shop');
  base = buildDriftReport({ plan: c.plan, desired: c.desired, live: c.live, attribution: attributeDrift([]), ignore: [], expiredIgnores: [] });
});

/** The shop report with `text` in every name, path, value and activation field the gateway gives. */
function hostileReport(text: string): DriftReport {
  const entries = base.entries.map((e) => ({ ...e, name: `${e.name}${text}`, ...(e.path !== undefined ? { path: `${e.path}${text}` } : {}), ...('live' in e && typeof e.live !== 'object' ? { live: text } : {}) }));
  const changed = base.entries.find((e) => e.direction === 'changed');
  if (changed) entries.push({ ...changed, name: text, live: { value: text, nested: [text] }, declared: text });
  const activation = { id: `14${text}`, createdAt: text, createdBy: `night-ops ${text}`, comment: `hotfix ${text}` };
  return {
    ...base,
    entries,
    attribution: { lastGwops: { id: '11', createdAt: text, createdBy: 'ci', comment: 'gwops apply' }, since: [activation] },
  };
}

describe('the drift report with hostile text of the gateway', () => {
  it.each(HOSTILE.map((h) => [h.label, h.text] as const))('%s: markdown inert, text escaped with colours on and off', (_label, text) => {
    const report = hostileReport(text);
    expect(channelViolations(renderDriftMarkdown(report), { markdown: true })).toEqual([]);
    expect(channelViolations(renderDriftText(report, { color: true }), { colors: true })).toEqual([]);
    expect(channelViolations(renderDriftText(report, { color: false }))).toEqual([]);
  });
});
