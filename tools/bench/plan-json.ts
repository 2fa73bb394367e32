/**
 * Plan-JSON memory benchmark (`npm run bench -- planjson`): the peak RSS of writing what
 * `gwops plan --format json --out FILE` writes for 10,000 new mappings (100,000 with
 * `--large`), the documents as one string each with the plan file indented (as gwops wrote
 * them before) against the documents in chunks with the plan file laid out in lines (as
 * gwops writes them now), each in a fresh process
 * (tools/bench/plan-json-probe.ts). Target: under 1 GB at 100,000 mappings, for the whole
 * command; this part shows what the rendering adds on top of the plan itself.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One measured size. */
export interface PlanJsonBenchRow {
  readonly mappings: number;
  /** Size of the plan file (bytes), indented as before and laid out in lines as now. */
  readonly stringFileBytes: number;
  readonly chunksFileBytes: number;
  /** Peak RSS of the process (MB, node and the plan included) with one string per document, and with chunks. */
  readonly stringRssMb: number;
  readonly chunksRssMb: number;
}

async function probe(size: number, mode: 'string' | 'chunks', out: string): Promise<{ maxRssKb: number; bytes: number }> {
  const child = fork(fileURLToPath(new URL('./plan-json-probe.js', import.meta.url)), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, GWOPS_BENCH_SIZE: String(size), GWOPS_BENCH_MODE: mode, GWOPS_BENCH_OUT: out },
  });
  const result = new Promise<{ maxRssKb: number; bytes: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { maxRssKb: number; bytes: number }));
    child.once('exit', (code) => reject(new Error(`plan-json probe (${mode}) exited with ${String(code)}`)));
  });
  const measured = await result;
  await new Promise((resolve) => child.once('exit', resolve));
  return measured;
}

/** Runs both modes for each size, one process each. */
export async function benchPlanJson(sizes: readonly number[], progress: (line: string) => void): Promise<PlanJsonBenchRow[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gwops-plan-json-bench-'));
  const rows: PlanJsonBenchRow[] = [];
  try {
    for (const size of sizes) {
      progress(`plan-json bench: ${size} mappings, one string per document`);
      const before = await probe(size, 'string', path.join(dir, `string-${size}.json`));
      progress(`plan-json bench: ${size} mappings, in chunks`);
      const after = await probe(size, 'chunks', path.join(dir, `chunks-${size}.json`));
      rows.push({ mappings: size, stringFileBytes: before.bytes, chunksFileBytes: after.bytes, stringRssMb: before.maxRssKb / 1024, chunksRssMb: after.maxRssKb / 1024 });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

/** The plan-JSON benchmark as printable lines. */
export function formatPlanJsonBench(rows: readonly PlanJsonBenchRow[]): string[] {
  const lines = [
    'plan --format json --out: the plan of N new mappings written to stdout (redacted, as the CLI does) and to the plan file, one fresh process per rendering',
    `${'mappings'.padStart(9)} ${'file MB before'.padStart(15)} ${'file MB now'.padStart(12)} ${'RSS before'.padStart(11)} ${'RSS now'.padStart(8)}`,
  ];
  for (const r of rows) {
    const mb = (bytes: number, width: number): string => (bytes / 1024 ** 2).toFixed(1).padStart(width);
    lines.push(`${String(r.mappings).padStart(9)} ${mb(r.stringFileBytes, 15)} ${mb(r.chunksFileBytes, 12)} ${r.stringRssMb.toFixed(0).padStart(11)} ${r.chunksRssMb.toFixed(0).padStart(8)}`);
  }
  lines.push('before: each document one string, the plan file indented; now: in chunks, the plan file laid out in lines');
  lines.push('RSS: peak resident memory of the process in MB (node, the desired state and the plan included)');
  return lines;
}
