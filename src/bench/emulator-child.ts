/**
 * A gateway emulator in a child process for benchmarks, so the parent's memory and CPU
 * figures are the reconciler's alone. Speaks over IPC: sends `{url, apiKey}` when
 * listening, closes on 'close'.
 */
import { startEmulator } from '../emulator/index.js';

const emulator = await startEmulator({ port: 0, tls: false, variant: 'latest' });
process.send?.({ url: emulator.url, apiKey: emulator.apiKey });
process.on('message', (message) => {
  if (message === 'close') void emulator.close().then(() => process.exit(0));
});
