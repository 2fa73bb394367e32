import { EventEmitter, getEventListeners } from 'node:events';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { ApiError, InterruptedError } from '../../src/gateway/errors.js';
import { withSession } from '../../src/gateway/lifecycle.js';
import type { SignalSource } from '../../src/gateway/lifecycle.js';
import { TEST_POLICY } from './helpers.js';

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, tls: false });
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(() => {
  emulator.faults.clear();
  emulator.requestLog.length = 0;
});

function signalSource(): EventEmitter & SignalSource {
  return new EventEmitter();
}

const handlerCount = (e: EventEmitter): number => e.listenerCount('SIGINT') + e.listenerCount('SIGTERM');

describe('withSession', () => {
  it('returns the result, terminates the session and removes its signal handlers', async () => {
    const signals = signalSource();
    let during = 0;
    const result = await withSession({ url: emulator.url, apiKey: emulator.apiKey, retry: TEST_POLICY, signals }, async (s) => {
      during = handlerCount(signals);
      await s.loadActive();
      return s.isOpen;
    });
    expect(result).toBe(true);
    expect(during).toBe(2);
    expect(handlerCount(signals)).toBe(0);
    expect(emulator.openSessionCount()).toBe(0);
  });

  it("leaves nothing on the run's signal from the requests it made (a run of 100,000 calls keeps no trace of each)", async () => {
    const signals = signalSource();
    let during = -1;
    let after = -1;
    await withSession({ url: emulator.url, apiKey: emulator.apiKey, retry: TEST_POLICY, signals }, async (s, signal) => {
      during = getEventListeners(signal, 'abort').length;
      for (let i = 0; i < 50; i++) await s.loadActive();
      after = getEventListeners(signal, 'abort').length;
    });
    expect(after).toBe(during);
  });

  it('leaves process signal handlers as it found them', async () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
    let during: number[] = [];
    await withSession({ url: emulator.url, apiKey: emulator.apiKey, retry: TEST_POLICY }, () => {
      during = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
      return Promise.resolve();
    });
    expect(during).toEqual(before.map((n) => n + 1));
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before);
  });

  it('on SIGINT aborts, terminates the session and ends with exit code 130', async () => {
    const signals = signalSource();
    let afterSignal: unknown;
    let aborted = false;
    const run = withSession({ url: emulator.url, apiKey: emulator.apiKey, retry: TEST_POLICY, signals }, async (s, signal) => {
      await s.loadActive();
      signals.emit('SIGINT');
      aborted = signal.aborted;
      afterSignal = await s.list('mappings').catch((e: unknown) => e);
      return 'finished';
    });
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InterruptedError);
    expect((error as InterruptedError).exitCode).toBe(130);
    expect(aborted).toBe(true);
    expect(afterSignal).toBeInstanceOf(InterruptedError);
    expect(emulator.requestLog.some((e) => e.method === 'GET')).toBe(false);
    expect(emulator.openSessionCount()).toBe(0);
    expect(handlerCount(signals)).toBe(0);
  });

  it('on SIGTERM cancels a running call and ends with exit code 143', async () => {
    const signals = signalSource();
    emulator.faults.add({ method: 'GET', path: '/configuration/mappings', latencyMs: 3000 });
    const run = withSession({ url: emulator.url, apiKey: emulator.apiKey, retry: TEST_POLICY, signals }, async (s) => {
      await s.loadActive();
      const pending = s.list('mappings');
      setImmediate(() => signals.emit('SIGTERM'));
      return pending;
    });
    await expect(run).rejects.toMatchObject({ exitCode: 143, signal: 'SIGTERM' });
    expect(emulator.openSessionCount()).toBe(0);
  });

  it('gives up on work that ignores the signal past the grace period: rejects at once with 130, abandoned, for the caller to end the process', async () => {
    const signals = signalSource();
    const run = withSession({ url: emulator.url, apiKey: emulator.apiKey, retry: TEST_POLICY, signals, graceMs: 1 }, async (s) => {
      await s.loadActive();
      signals.emit('SIGINT');
      return new Promise<never>(() => undefined);
    });
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InterruptedError);
    expect(error).toMatchObject({ exitCode: 130, signal: 'SIGINT', abandoned: true });
    expect(emulator.openSessionCount()).toBe(0);
    expect(handlerCount(signals)).toBe(0);
  });

  it('lets the original error through when terminating fails, and reports the failure', async () => {
    const warnings: string[] = [];
    emulator.faults.add({ method: 'POST', path: '/session/terminate', status: 500 });
    const run = withSession({ url: emulator.url, apiKey: emulator.apiKey, retry: TEST_POLICY, signals: signalSource(), onWarning: (m) => warnings.push(m) }, async (s) => {
      await s.list('mappings');
    });
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'CONFIGURATION_LOAD_REQUIRED' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/could not terminate the REST session.*500/);
    emulator.faults.clear();
    emulator.expireSessions();
  });
});
