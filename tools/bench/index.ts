/**
 * `npm run bench`: the speed and memory targets of gwops, measured side by side in one run
 * (never as timed tests: the machines are shared and noisy).
 *
 * Parts: `validate` (1,000 and 10,000 mappings, target 10,000 under 2 s),
 * `plan` (1,000 / 5,000 / 20,000 mappings against the emulator, plan time vs bare
 * fetch-and-parse, request count, peak memory) and `apply` (apply and plan with the server
 * check at 20 ms latency per call: requests and wall time against the minimum and its
 * floor, a hand-written script as baseline; tools/bench/apply.ts) and `export` (1,000 and
 * 10,000 mappings, 100,000 with `--large`: export time vs a bare client fetching the same
 * lists, ms per object, peak RSS; tools/bench/export.ts), `planjson` (peak RSS of writing
 * `plan --format json --out` for 10,000 mappings, 100,000 with `--large`, the documents as
 * one string vs in chunks; tools/bench/plan-json.ts) and `scale` (1,000 / 10,000 / 100,000
 * mappings: plan, drift, export, server-checked plan and apply against a bare client doing
 * the same work, ms per object, peak RSS of gwops and of the emulator; tools/bench/scale.ts).
 * The emulator's own list latency is `npm run bench:emulator`.
 *
 * Usage: `node dist-tools/bench/index.js [validate] [plan] [apply] [export] [planjson] [scale] [--quick] [--large] [--sizes=N,...] [--write-docs]`
 * (`--quick`: small sizes; `--large`: also the largest export size; `--sizes`: the scale bench's sizes; `--write-docs`: also
 * writes docs/performance.md and its plots, tools/bench/report-doc.ts).
 */
import { fileURLToPath } from 'node:url';
import { applyBenchOptions, benchApply } from './apply.js';
import { formatApplyBench } from './apply-format.js';
import type { ApplyBenchReport } from './apply.js';
import { benchExport, formatExportBench, removeExportOutputs } from './export.js';
import { benchPlan, formatPlanBench } from './plan.js';
import { benchPlanJson, formatPlanJsonBench } from './plan-json.js';
import type { PlanBenchRow } from './plan.js';
import { machineInfo, writePerformanceDocs } from './report-doc.js';
import { benchScale, scaleSizes } from './scale.js';
import { formatScaleBench } from './scale-format.js';
import type { ScaleBenchReport } from './scale-format.js';
import { benchValidate, formatValidateBench } from './validate.js';
import type { ValidateBenchResult } from './validate.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const writeDocs = args.includes('--write-docs');
const large = args.includes('--large');
/** `--sizes=N,M`: the scale bench at these sizes only (e.g. `--sizes=100000` to measure one size). */
const sizesOption = args.find((a) => a.startsWith('--sizes='))?.slice('--sizes='.length);
const parts = args.filter((a) => !a.startsWith('--'));
const want = (part: string): boolean => parts.length === 0 || parts.includes(part);
const progress = (line: string): void => void process.stderr.write(`${line}\n`);
const startedAt = new Date().toISOString();

let validate: ValidateBenchResult[] | null = null;
let plan: PlanBenchRow[] | null = null;
let apply: ApplyBenchReport | null = null;
let scale: ScaleBenchReport | null = null;
if (want('validate')) {
  validate = await benchValidate(quick ? [200, 1000] : [1000, 10000], quick ? 1 : 3);
  process.stdout.write(`${formatValidateBench(validate)}\n\n`);
}
if (want('plan')) {
  plan = await benchPlan(quick ? [200, 1000] : [1000, 5000, 20000], progress);
  process.stdout.write(`${formatPlanBench(plan).join('\n')}\n\n`);
}
if (want('apply')) {
  apply = await benchApply(applyBenchOptions(quick, progress));
  process.stdout.write(`${formatApplyBench(apply).join('\n')}\n`);
}
// Every export's files stay until the end (tools/bench/export.ts exportOutputs): deleting them between runs slowed the next ones.
try {
  if (want('export')) {
    const sizes = quick ? [200, 1000] : [1000, 10000, ...(large ? [100000] : [])];
    process.stdout.write(`${formatExportBench(await benchExport(sizes, progress)).join('\n')}\n\n`);
  }
  if (want('planjson')) {
    const sizes = quick ? [1000] : [10000, ...(large ? [100000] : [])];
    process.stdout.write(`${formatPlanJsonBench(await benchPlanJson(sizes, progress)).join('\n')}\n\n`);
  }
  if (want('scale')) {
    scale = await benchScale(scaleSizes(quick, sizesOption), progress);
    process.stdout.write(`${formatScaleBench(scale).join('\n')}\n\n`);
  }
} finally {
  await removeExportOutputs();
}
if (writeDocs) {
  const command = ['npm run bench --', ...args].join(' ');
  const docsDir = fileURLToPath(new URL('../../docs/', import.meta.url));
  const files = await writePerformanceDocs({ startedAt, command, quick, machine: machineInfo(), validate, plan, apply, scale }, docsDir);
  progress(`wrote ${files.join(', ')}`);
}
