/**
 * One plan in a process of its own, for the plan benchmark's peak-RSS figure: connects to
 * the emulator named by GWOPS_BENCH_URL / GWOPS_BENCH_KEY (environment, never argv), plans
 * GWOPS_BENCH_SIZE mappings and sends its peak RSS (KiB) to the parent over IPC.
 */
import { GatewaySession } from '#src/gateway/index.js';
import { desiredDocuments, planSteps } from './plan.js';
import { peakResidentKib } from './peak-memory.js';

const session = new GatewaySession({ url: process.env.GWOPS_BENCH_URL ?? '', apiKey: process.env.GWOPS_BENCH_KEY ?? '' });
try {
  await session.open();
  await session.loadActive();
  await planSteps(session, desiredDocuments(Number(process.env.GWOPS_BENCH_SIZE ?? '0')));
} finally {
  await session.terminate();
}
process.send?.(peakResidentKib(), () => process.exit(0));
