/**
 * A gateway emulator in a child process for benchmarks, so the parent's memory and CPU
 * figures are the reconciler's alone. Speaks over IPC: sends `{url, apiKey}` when
 * listening, answers `{type: 'counters'}` with `{type: 'counters', requests, processingMs, cpuMs}`
 * (requests handled so far, the emulator's processing time beyond the added latency, ms, and
 * the process's CPU time, ms;
 * tools/bench/apply-emulator.ts), answers `{type: 'memory'}` with `{type: 'memory', peakRssBytes}`
 * (the process's peak resident set size so far), closes on 'close'.
 *
 * Options come from the environment: GWOPS_BENCH_LATENCY_MS (EmulatorOptions `latencyMs`,
 * added to every call) and GWOPS_BENCH_STATE_FILE (`stateFile`: start from, and persist
 * to, that file).
 */
import { startEmulator } from '#src/emulator/index.js';
import { cpuMsOfProcess, processingMs } from './apply-emulator.js';
import { peakResidentKib } from './peak-memory.js';

const latencyMs = Number(process.env.GWOPS_BENCH_LATENCY_MS ?? '0');
const stateFile = process.env.GWOPS_BENCH_STATE_FILE;
let handled = 0;
let processing = 0;
const emulator = await startEmulator({
  port: 0,
  tls: false,
  variant: 'latest',
  latencyMs: Number.isFinite(latencyMs) && latencyMs > 0 ? latencyMs : 0,
  ...(stateFile ? { stateFile } : {}),
  // Counted, not kept: a long bench would otherwise hold every entry.
  requestLogLimit: 1,
  onRequest: (entry) => {
    handled++;
    processing += processingMs(entry.durationMs, latencyMs);
  },
});
process.send?.({ url: emulator.url, apiKey: emulator.apiKey });
process.on('message', (message) => {
  if (message === 'close') void emulator.close().then(() => process.exit(0));
  else if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'counters') {
    process.send?.({ type: 'counters', requests: handled, processingMs: processing, cpuMs: cpuMsOfProcess() });
  } else if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'memory') {
    process.send?.({ type: 'memory', peakRssBytes: peakResidentKib() * 1024 });
  }
});
