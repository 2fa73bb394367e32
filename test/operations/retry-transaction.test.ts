/**
 * The bounds of redoing an apply transaction (src/operations/steps/retry-transaction.ts): an
 * expired session once, a refused activation `retryOnConflict` times, nothing else; and
 * the plan comparison that decides whether consent is asked again. The end-to-end
 * behaviour is drilled in test/drills/session-expiry.test.ts and races.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import type { TransactionAttempt } from '../../src/operations/steps/retry-transaction.js';
import { redoReason, redoTransaction, samePlan } from '../../src/operations/steps/retry-transaction.js';
import type { Plan } from '../../src/engine/plan-types.js';
import { PLAN_FORMAT_VERSION } from '../../src/engine/plan-types.js';
import { ApiError, OutdatedConfigurationError, SessionError } from '../../src/gateway/errors.js';

const expired = (): SessionError => new SessionError('expired', 'GET', '/configuration/mappings', 401);
const conflict = (): OutdatedConfigurationError =>
  new OutdatedConfigurationError({ method: 'POST', path: '/configuration/configurations/activate', status: 409, code: 'OUTDATED_CONFIGURATION' });

/** Runs redoTransaction with attempts that fail with `failures` in turn, then succeed. */
async function attempts(failures: readonly Error[], retryOnConflict: number): Promise<{ result: unknown; seen: TransactionAttempt[]; warnings: string[] }> {
  const seen: TransactionAttempt[] = [];
  const warnings: string[] = [];
  const result = await redoTransaction({ retryOnConflict, warn: (m) => warnings.push(m) }, (a) => {
    seen.push(a);
    const failure = failures[a.number - 1];
    return failure ? Promise.reject(failure) : Promise.resolve('done');
  }).catch((error: unknown) => error);
  return { result, seen, warnings };
}

describe('redoTransaction', () => {
  it('redoes a transaction whose session expired once, telling why', async () => {
    const { result, seen, warnings } = await attempts([expired()], 0);
    expect(result).toBe('done');
    expect(seen).toEqual([{ number: 1 }, { number: 2, redoing: 'session-expired' }]);
    expect(warnings).toEqual([expect.stringContaining('redoing the whole apply once in a new session')]);
  });

  it('gives up on a second expiry with that error', async () => {
    const second = expired();
    const { result, seen } = await attempts([expired(), second], 5);
    expect(result).toBe(second);
    expect(seen).toHaveLength(2);
  });

  it('retries a refused activation at most retryOnConflict times', async () => {
    expect((await attempts([conflict(), conflict()], 2)).result).toBe('done');
    const last = conflict();
    const { result, seen, warnings } = await attempts([conflict(), conflict(), last], 2);
    expect(result).toBe(last);
    expect(seen.map((a) => a.redoing)).toEqual([undefined, 'conflict', 'conflict']);
    expect(warnings[1]).toContain('retry 2 of 2');
  });

  it('does not retry a refused activation by default, nor any other failure', async () => {
    const refused = conflict();
    expect((await attempts([refused], 0)).result).toBe(refused);
    const other = new ApiError({ method: 'GET', path: '/x', status: 500 });
    const { result, seen } = await attempts([other], 3);
    expect(result).toBe(other);
    expect(seen).toHaveLength(1);
    expect(redoReason(new SessionError('key-rejected', 'POST', '/session/create', 401))).toBeUndefined();
  });
});

describe('samePlan', () => {
  const plan = (steps: unknown[], digest: string): Plan =>
    ({ formatVersion: PLAN_FORMAT_VERSION, liveDigest: digest, summary: {}, steps, calls: [], unmanaged: [] }) as unknown as Plan;
  it('compares the steps and calls, not the digest of the live state', () => {
    expect(samePlan(plan([{ index: 1 }], 'a'), plan([{ index: 1 }], 'b'))).toBe(true);
    expect(samePlan(plan([{ index: 1 }], 'a'), plan([{ index: 2 }], 'a'))).toBe(false);
  });
});

describe('apply --retry-on-conflict', () => {
  it('takes a whole number from 0 to 100 and refuses anything else before any connection, in one line', async () => {
    for (const value of ['-1', 'three', '1.5', '101']) {
      let stderr = '';
      const code = await main(['node', 'gwops', 'apply', '--yes', '--retry-on-conflict', value, '--url', 'http://127.0.0.1:9/airlock/rest'], {
        stdout: { write: () => true },
        stderr: {
          write: (text: string) => {
            stderr += text;
            return true;
          },
        },
        env: { PATH: process.env.PATH },
        cwd: process.cwd(),
        isTTY: false,
        stdin: Readable.from([]),
      });
      expect(code, value).toBe(1);
      expect(stderr.trim().split('\n'), value).toEqual([expect.stringContaining('expected a whole number from 0 to 100')]);
    }
  });
});
