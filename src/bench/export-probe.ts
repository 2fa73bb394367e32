/**
 * One run of the export benchmark in a process of its own (src/bench/export.ts), so its
 * wall time is measured from outside and its peak RSS is its own. Reads its work from the
 * environment (never argv): GWOPS_BENCH_URL, GWOPS_BENCH_KEY, GWOPS_BENCH_MODE and, for
 * an export, GWOPS_BENCH_OUT.
 *
 * - `export`: the real CLI as `bin/gwops.js` runs it, `gwops export --url URL --out OUT -q`
 *   (a new directory), the API key read from GWOPS_API_KEY (the parent discards its output);
 * - `fetch`: a bare client fetching the same lists in one session: one GET per collection
 *   of GWOPS_BENCH_COLLECTIONS (comma-separated), each body parsed (element by element past
 *   32 MiB, as gwops's client does) and only each resource's type and id kept.
 *
 * Sends `{ exitCode, maxRssKb, cpuMs }` (its peak RSS and CPU time) to the parent over IPC.
 */
import { GatewaySession } from '../gateway/index.js';

const mode = process.env.GWOPS_BENCH_MODE;
const url = process.env.GWOPS_BENCH_URL ?? '';
const apiKey = process.env.GWOPS_BENCH_KEY ?? '';
let exitCode = 0;
if (mode === 'export') {
  process.env.GWOPS_API_KEY = apiKey;
  const { runProcess } = await import('../cli/process.js');
  await runProcess(['node', 'gwops', 'export', '--url', url, '--out', process.env.GWOPS_BENCH_OUT ?? '', '-q']);
  exitCode = Number(process.exitCode ?? 0);
} else {
  const session = new GatewaySession({ url, apiKey });
  try {
    await session.open();
    await session.loadActive();
    for (const collection of (process.env.GWOPS_BENCH_COLLECTIONS ?? '').split(',')) {
      await session.list(collection, [], { project: (resource) => ({ type: resource.type, id: resource.id, attributes: {}, relationships: {} }) });
    }
  } finally {
    await session.terminate();
  }
}
const cpu = process.cpuUsage();
process.send?.({ exitCode, maxRssKb: process.resourceUsage().maxRSS, cpuMs: (cpu.user + cpu.system) / 1000 }, () => process.exit(0));
