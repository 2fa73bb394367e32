/**
 * One gwops run in a process of its own, for the apply benchmark (tools/bench/apply.ts): runs
 * `apply` or `plan` (GWOPS_BENCH_MODE) on the project in GWOPS_BENCH_DIR against the
 * emulator named by GWOPS_BENCH_URL / GWOPS_BENCH_KEY (environment, never argv), and sends
 * its figures and its peak RSS (KiB) to the parent over IPC.
 */
import { runGwops } from './apply.js';
import { peakResidentKib } from './peak-memory.js';

const mode = process.env.GWOPS_BENCH_MODE === 'plan' ? 'plan' : 'apply';
const figures = await runGwops(mode, process.env.GWOPS_BENCH_DIR ?? '', {
  url: process.env.GWOPS_BENCH_URL ?? '',
  apiKey: process.env.GWOPS_BENCH_KEY ?? '',
});
process.send?.({ figures, maxRssKb: peakResidentKib() }, () => process.exit(0));
