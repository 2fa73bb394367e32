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
