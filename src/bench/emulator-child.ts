/**
 * A gateway emulator in a child process for benchmarks, so the parent's memory and CPU
 * figures are the reconciler's alone. Speaks over IPC: sends `{url, apiKey}` when
 * listening, answers `{type: 'requests'}` with `{type: 'requests', count}` (requests
 * handled so far, from the emulator's request log), closes on 'close'.
 *
 * Options come from the environment: GWOPS_BENCH_LATENCY_MS (EmulatorOptions `latencyMs`,
 * added to every call) and GWOPS_BENCH_STATE_FILE (`stateFile`: start from, and persist
 * to, that file).
 */
import { startEmulator } from '../emulator/index.js';

const latencyMs = Number(process.env.GWOPS_BENCH_LATENCY_MS ?? '0');
const stateFile = process.env.GWOPS_BENCH_STATE_FILE;
let handled = 0;
const emulator = await startEmulator({
  port: 0,
  tls: false,
  variant: 'latest',
  latencyMs: Number.isFinite(latencyMs) && latencyMs > 0 ? latencyMs : 0,
  ...(stateFile ? { stateFile } : {}),
  // Counted, not kept: a long bench would otherwise hold every entry.
  requestLogLimit: 1,
  onRequest: () => void handled++,
});
process.send?.({ url: emulator.url, apiKey: emulator.apiKey });
process.on('message', (message) => {
  if (message === 'close') void emulator.close().then(() => process.exit(0));
  else if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'requests') {
    process.send?.({ type: 'requests', count: handled });
  }
});
