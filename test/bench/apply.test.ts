/**
 * The apply-at-latency bench (tools/bench/apply.ts) at tiny sizes, and the generated report
 * (tools/bench/report-doc.ts, tools/bench/svg.ts). Checks shapes and that the request counts
 * are consistent, never timing targets (CONTRIBUTING.md: speed targets are checked only
 * by the benchmarks).
 */
import { describe, expect, it } from 'vitest';
import type { ApplyBenchReport } from '../../tools/bench/apply.js';
import { benchApply, inProcessEmulator, minimumRequests, sessionCalls } from '../../tools/bench/apply.js';
import { applyRows, baselineRows, formatApplyBench } from '../../tools/bench/apply-format.js';
import type { PlanBenchRow } from '../../tools/bench/plan.js';
import { formatPlanBench, planVerdicts } from '../../tools/bench/plan.js';
import type { BenchResults } from '../../tools/bench/report-doc.js';
import { APPLY_SVG, PLAN_SVG, applySvg, machineInfo, performanceMarkdown, planSvg } from '../../tools/bench/report-doc.js';
import { linearTicks, logTicks } from '../../tools/bench/svg.js';
import type { Plan } from '../../src/engine/plan-types.js';

const link = (name: string, group: string): unknown => ({
  action: 'link',
  kind: 'mapping',
  name,
  relationship: 'back-end-groups',
  related: { kind: 'back-end-group', name: group },
});
const create = (kind: string, name: string): unknown => ({ action: 'create', kind, name });

describe('minimum requests', () => {
  it('counts objects, link groups on the cheaper side and the fixed session calls', () => {
    const steps = [create('mapping', 'a'), create('mapping', 'b'), create('mapping', 'c'), link('a', 'g1'), link('b', 'g1'), link('c', 'g2')];
    const min = minimumRequests({ steps } as unknown as Pick<Plan, 'steps'>, 'apply', 5);
    // 3 mappings on one side, 2 groups on the other: 2 calls
    expect(min).toEqual({ objects: 3, linkGroups: 2, session: 13, total: 18 });
    expect(minimumRequests({ steps: [link('a', 'g1'), link('a', 'g2')] } as unknown as Pick<Plan, 'steps'>, 'plan', 2).linkGroups).toBe(1);
  });

  it('has only the reading calls for an empty plan', () => {
    expect(sessionCalls('apply', 5, 0)).toBe(9);
    expect(sessionCalls('plan', 5, 3)).toBe(10);
    expect(minimumRequests({ steps: [] }, 'apply', 5).total).toBe(9);
  });
});

describe('apply bench at tiny sizes', () => {
  it('measures gwops, the plan and the baseline, with request counts no lower than the minimum', async () => {
    const progress: string[] = [];
    const report = await benchApply({
      latencyMs: 1,
      newSizes: [6],
      changedSize: 20,
      groups: 2,
      hosts: 1,
      emulator: inProcessEmulator,
      runner: 'in-process',
      progress: (line) => void progress.push(line),
    });
    expect(report.latencyMs).toBe(1);
    expect(report.rssMet).toBeNull(); // RSS is measured only when gwops runs in a process of its own
    expect(report.scenarios.map((s) => [s.scenario, s.shape.mappings])).toEqual([
      ['new', 6],
      ['changed', 20],
    ]);
    const [fresh, changed] = report.scenarios;
    // 6 mappings + 2 groups + 1 host created; every tenth of 20 mappings changed
    expect(fresh?.apply.summary.create).toBe(9);
    expect(fresh?.changes).toBe(9);
    expect(changed?.apply.summary).toMatchObject({ create: 0, update: 2, delete: 0, link: 0, unlink: 0 });
    expect(changed?.changes).toBe(2);
    expect(changed?.plan).toBeNull();
    for (const s of report.scenarios) {
      for (const run of [s.apply, s.plan]) {
        if (!run) continue;
        expect(run.minimum.total).toBe(run.minimum.objects + run.minimum.linkGroups + run.minimum.session);
        expect(run.requests).toBeGreaterThanOrEqual(run.minimum.total);
        // the measured round trip is the added latency at least; the emulator's own work is counted apart
        expect(run.roundTripMs).toBeGreaterThanOrEqual(report.latencyMs * 0.99);
        expect(run.fetched.length).toBe(3);
        expect(run.listsMs).toBeGreaterThan(0);
        expect(run.floorMs).toBeCloseTo((run.minimum.total - 3) * run.roundTripMs + run.listsMs, 6);
        expect(run.nominalFloorMs).toBe(run.minimum.total * report.latencyMs);
        expect(run.emulatorMs).toBeGreaterThanOrEqual(0);
        expect(run.floorRatio).toBeCloseTo((run.wallMs - run.emulatorMs) / run.floorMs, 6);
        expect(run.requestsMet).toBe(run.requests === run.minimum.total);
        expect(run.wallMs).toBeGreaterThan(0);
      }
      // the baseline makes every change itself, with a GET by name before each
      expect(s.baseline.requests).toBeGreaterThanOrEqual(s.apply.minimum.objects * 2);
      expect(s.baseline.wallMs).toBeGreaterThan(0);
    }
    // plan executes the same changes without activating: fewer fixed calls
    expect(fresh?.plan?.minimum.session).toBe((fresh?.apply.minimum.session ?? 0) - 3);
    expect(applyRows(report)).toHaveLength(3);
    expect(baselineRows(report)).toHaveLength(2);
    const text = formatApplyBench(report).join('\n');
    expect(text).toContain('apply at 1 ms latency per call');
    expect(text).toMatch(/^6 new\s+apply/m);
    expect(text).toMatch(/^2 of 20 changed\s+apply/m);
    expect(progress.length).toBeGreaterThan(0);
  }, 60_000);
});

const planRows: PlanBenchRow[] = [1000, 20000].map((mappings) => ({
  mappings,
  fetchMs: mappings / 10,
  planMs: mappings / 8,
  planCpuMs: mappings / 9,
  fetchMb: 10,
  planMb: 20,
  planRssMb: mappings === 20000 ? 300 : 120,
  requests: 5,
  minimumRequests: 5,
  steps: mappings / 10,
}));

const applyReport: ApplyBenchReport = {
  latencyMs: 20,
  runner: 'child',
  rssMet: true,
  scenarios: [200, 2000].map((mappings) => {
    const minimum = { objects: mappings + 15, linkGroups: 10, session: 12, total: mappings + 37 };
    const run = {
      wallMs: mappings * 60,
      summary: { create: mappings + 15, update: 0, delete: 0, link: mappings * 2, unlink: 0 },
      steps: mappings * 3 + 15,
      minimum,
      requests: mappings * 3 + 27,
      emulatorMs: mappings * 0.5,
      roundTripMs: 21.5,
      listsMs: 70,
      fetched: ['mappings', 'back-end-groups', 'virtual-hosts'],
      nominalFloorMs: minimum.total * 20,
      floorMs: minimum.total * 21.5,
      floorRatio: (mappings * 59.5) / (minimum.total * 21.5),
      rssMb: 150,
      requestsMet: false,
      timeMet: false,
    };
    return { scenario: 'new' as const, shape: { mappings, groups: 10, hosts: 5, changeEvery: 0 }, changes: mappings + 15, apply: run, plan: run, baseline: { requests: mappings * 4, wallMs: mappings * 85 } };
  }),
};

describe('generated performance report', () => {
  const results: BenchResults = {
    startedAt: '2025-01-02T03:04:05.000Z',
    command: 'npm run bench -- --write-docs',
    quick: false,
    machine: machineInfo(),
    validate: [{ mappings: 10000, documents: 10120, bytes: 5_000_000, firstMs: 1500, medianMs: 900, valid: true }],
    plan: planRows,
    apply: applyReport,
    scale: null,
  };

  it('says which command wrote it, when and on what machine, and links its plots', () => {
    const md = performanceMarkdown(results);
    expect(md).toContain('Generated by `npm run bench -- --write-docs`');
    expect(md).toContain('on 2025-01-02T03:04:05.000Z');
    expect(md).toContain(`Node.js ${process.version}`);
    expect(md).toContain(`${results.machine.cores} cores`);
    expect(md).toContain(`](${APPLY_SVG})`);
    expect(md).toContain(`](${PLAN_SVG})`);
    expect(md).toContain('Target: 10,000 mappings in under 2000 ms: pass');
    expect(md).toContain('| 2,000 new | apply | 6,027 | 2,037 (2,015 + 10 + 12) |');
    expect(md).toContain('| 200 new | 800 | 627 | 1.28x |');
    expect(md).toContain('plan at most 1.5x the fetch-and-parse at 20,000 mappings: pass');
  });

  it('says which parts were not measured', () => {
    const md = performanceMarkdown({ ...results, quick: true, validate: null, plan: null, apply: null });
    expect(md).toContain('quick mode');
    expect(md.match(/Not measured in this run\./g)).toHaveLength(4);
    expect(md).not.toContain('.svg');
  });

  it('draws the plots as standalone SVG from the numbers', () => {
    for (const svg of [applySvg(applyReport), planSvg(planRows)]) {
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
      expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
      expect(svg).toContain('<polyline');
      expect(svg).not.toMatch(/NaN|undefined|Infinity/);
    }
    expect(applySvg(applyReport)).toContain('hand-written script');
    expect(planSvg(planRows)).toContain('target: under 500 MB');
  });

  it('picks round ticks', () => {
    expect(logTicks(100, 10000)).toEqual([100, 200, 500, 1000, 2000, 5000, 10000]);
    expect(linearTicks(430)).toEqual([0, 100, 200, 300, 400, 500]);
  });

  it('renders the plan verdicts at 20,000 mappings', () => {
    expect(planVerdicts(planRows)).toEqual({ ratioMet: true, rssMet: true, requestsMet: true });
    expect(planVerdicts(planRows.slice(0, 1)).ratioMet).toBeNull();
    expect(formatPlanBench(planRows).join('\n')).toContain('plan/fetch <= 1.5 at 20000 mappings: pass');
  });
});
