/**
 * One run of bench work in a process of its own (tools/bench/probe-run.ts starts it), so its
 * wall time is measured from outside and its peak RSS is its own. Reads its work from the
 * environment (never argv): GWOPS_BENCH_URL, GWOPS_BENCH_KEY (the emulator) and
 * GWOPS_BENCH_WORK, a {@link ProbeWork} as JSON:
 *
 * - `cli`: the real CLI as `bin/gwops.js` runs it, `gwops ARGS --url URL` in the process's
 *   working directory, the API key read from GWOPS_API_KEY (the parent discards its output);
 * - `fetch`: a bare client fetching lists in one session: one GET per collection, each
 *   body parsed the plain way (every element parsed whole with JSON.parse, element by
 *   element past 32 MiB; none of the repeated members gwops's own client jumps over or
 *   shares) and only each resource's type and id kept;
 * - `calls`: the calls of `gwops apply` or `gwops plan` for new mappings, made by a bare
 *   client that is told the changes (tools/bench/minimum-calls.ts).
 *
 * Sends `{ exitCode, maxRssKb, cpuMs }` (its peak RSS and CPU time) to the parent over IPC.
 */
import type { ProbeWork } from './probe-run.js';
import { peakResidentKib } from './peak-memory.js';

const work = JSON.parse(process.env.GWOPS_BENCH_WORK ?? '{}') as ProbeWork;
const url = process.env.GWOPS_BENCH_URL ?? '';
const apiKey = process.env.GWOPS_BENCH_KEY ?? '';
let exitCode = 0;
if (work.mode === 'cli') {
  process.env.GWOPS_API_KEY = apiKey;
  const { runProcess } = await import('#src/cli/process.js');
  await runProcess(['node', 'gwops', ...work.args, '--url', url]);
  exitCode = Number(process.exitCode ?? 0);
  process.exitCode = 0;
} else if (work.mode === 'fetch') {
  const { GatewaySession } = await import('#src/gateway/index.js');
  const session = new GatewaySession({ url, apiKey });
  try {
    await session.open();
    await session.loadActive();
    for (const collection of work.collections) {
      await session.list(collection, [], { plain: true, project: (resource) => ({ type: resource.type, id: resource.id, attributes: {}, relationships: {} }) });
    }
  } finally {
    await session.terminate();
  }
} else {
  const { runMinimumCalls } = await import('./minimum-calls.js');
  await runMinimumCalls(work.command, work.shape, work.existing, { url, apiKey });
}
const cpu = process.cpuUsage();
process.send?.({ exitCode, maxRssKb: peakResidentKib(), cpuMs: (cpu.user + cpu.system) / 1000 }, () => process.exit(0));
