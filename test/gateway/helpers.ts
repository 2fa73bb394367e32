import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startFaultProxy } from './fault-proxy.js';
import type { FaultProxy } from './fault-proxy.js';
/** Shared test helpers for the gateway client tests. */
import type { RetryClock, RetryPolicy } from '../../src/gateway/retry.js';

/** A clock whose sleeps return at once and advance its time; every wait is recorded (ms). */
export function recordingClock(): RetryClock & { waits: number[] } {
  let t = Date.parse('2026-11-22T03:00:00Z');
  const waits: number[] = [];
  return {
    waits,
    now: () => t,
    random: () => 0.5,
    sleep: (ms) => {
      t += ms;
      waits.push(ms);
      return Promise.resolve();
    },
  };
}

/** A retry policy for tests: a few attempts, small delays. */
export const TEST_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 10, maxDelayMs: 100, maxTotalMs: 60_000 };

/** Minimal valid mapping attributes. */
export function mappingAttributes(name: string): Record<string, unknown> {
  return { name, entryPath: { value: `/${name}/` }, backendPath: '/' };
}

/**
 * Registers the hooks of the gateway client suites: before them, a plain-HTTP emulator
 * and a fault proxy in front of it, handed to `ready`; before each test, no injected
 * faults and an empty request log; after them, both closed.
 */
export function useEmulatorAndProxy(ready: (emulator: RunningEmulator, proxy: FaultProxy) => void): void {
  let emulator: RunningEmulator | undefined;
  let proxy: FaultProxy | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, tls: false });
    proxy = await startFaultProxy(emulator.url);
    ready(emulator, proxy);
  });
  afterAll(async () => {
    await proxy?.close();
    await emulator?.close();
  });
  beforeEach(() => {
    emulator?.faults.clear();
    if (emulator) emulator.requestLog.length = 0;
  });
}
