/**
 * Drill "signals": SIGINT or SIGTERM sent to a real gwops process (bin/gwops.js over
 * dist/, which `npm test` builds first) at a seeded call of `plan` or `apply`. The process
 * must exit 130 or 143 (or 0 when the apply had already activated and confirmed), the
 * session must be terminated, and the active configuration untouched unless the
 * activation request had been sent, in which case the message says what happened or
 * points to `gwops drift`.
 */
import { describe, expect, it } from 'vitest';
import { startGwops } from '../e2e/spawn.js';
import { drillMode, drillSeed, recordDrill } from './record.js';
import { activeText, leakedSecrets, prng, startDrillGateway, writeDrillManifests } from './support.js';

const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type DrillSignal = keyof typeof SIGNAL_CODES;
const ACTIVATE = '/configuration/configurations/activate';

interface Figures {
  trials: number;
  afterActivation: number;
  wrongExit: number;
  changedBeforeActivation: number;
  corrupted: number;
  unexplained: number;
  sessionsOpen: number;
  stackTraces: number;
  hangs: number;
  secrets: number;
}

/** Calls of each command without a signal: plan (with the server check) and apply of the drill manifests. */
const CALLS = { plan: 39, apply: 41 } as const;

async function trial(command: 'plan' | 'apply', signal: DrillSignal, k: number, into: Figures): Promise<void> {
  const gateway = await startDrillGateway();
  try {
    const m = await writeDrillManifests(gateway.dir);
    expect((await gateway.cli(['apply', '--yes', m.base, ...gateway.direct])).code).toBe(0);
    const before = activeText(gateway.emulator);
    const args = [command, ...(command === 'apply' ? ['--yes'] : []), m.target, ...gateway.viaProxy];
    const proc = startGwops(args, { CI: 'true' });
    gateway.resetCount();
    gateway.intercept = (_call, index) => (index === k ? { before: () => Promise.resolve(void proc.child.kill(signal)) } : undefined);
    let code: number;
    let hang = false;
    const bound = new Promise<number>((resolve) => setTimeout(() => resolve(-1), 60_000).unref());
    code = await Promise.race([proc.exited, bound]);
    if (code === -1) {
      hang = true;
      proc.child.kill('SIGKILL');
      code = await proc.exited;
    }
    const sent = gateway.proxy.calls.some((c) => c.path === ACTIVATE);
    const unchanged = activeText(gateway.emulator) === before;
    const converged = !unchanged && (await gateway.cli(['drift', m.target, ...gateway.direct])).code === 0;
    into.trials += 1;
    if (sent) into.afterActivation += 1;
    const expected = code === SIGNAL_CODES[signal] || (code === 0 && sent && converged);
    if (!expected && !hang) into.wrongExit += 1;
    if (!sent && !unchanged) into.changedBeforeActivation += 1;
    if (!unchanged && !converged) into.corrupted += 1;
    if (sent && code !== 0 && !/activated the configuration|gwops drift/.test(proc.stderr)) into.unexplained += 1;
    into.sessionsOpen += gateway.emulator.openSessionCount();
    if (/\n\s+at .+:\d+:\d+/.test(proc.stderr)) into.stackTraces += 1;
    if (hang) into.hangs += 1;
    into.secrets += leakedSecrets([proc.stdout, proc.stderr, ...gateway.outputs], [...gateway.secrets, ...gateway.proxy.sessionCookies]).length;
  } finally {
    await gateway.close();
  }
}

describe('drill: signals', () => {
  it('SIGINT and SIGTERM at seeded calls of plan and apply: exit 130/143, session terminated, nothing half-activated', async () => {
    const seed = drillSeed(2026);
    const random = prng(seed);
    const perCase = drillMode() === 'full' ? 10 : 1;
    const rows: (string | number)[][] = [];
    for (const command of ['plan', 'apply'] as const) {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const f: Figures = { trials: 0, afterActivation: 0, wrongExit: 0, changedBeforeActivation: 0, corrupted: 0, unexplained: 0, sessionsOpen: 0, stackTraces: 0, hangs: 0, secrets: 0 };
        const ks: number[] = [];
        for (let i = 0; i < perCase; i++) ks.push(1 + Math.floor(random() * CALLS[command]));
        for (const k of ks) await trial(command, signal, k, f);
        rows.push([
          `${command}, ${signal}`,
          ks.join(', '),
          f.trials,
          f.afterActivation,
          f.wrongExit,
          f.changedBeforeActivation,
          f.corrupted,
          f.unexplained,
          f.sessionsOpen,
          f.stackTraces,
          f.hangs,
          f.secrets,
        ]);
      }
    }
    const violations = recordDrill({
      id: 'signals',
      title: 'Signals',
      description:
        'A real gwops process gets SIGINT or SIGTERM when its k-th call (seeded) reaches the gateway. It must exit 130 or ' +
        '143 (or 0 after a confirmed activation), terminate its session, and leave the active configuration untouched ' +
        'unless the activation request had been sent; then its message must say that the configuration was activated ' +
        'or point to gwops drift (unexplained counts those that do not).',
      seed,
      columns: ['case', 'calls k', 'trials', 'after activation sent', 'wrong exit code', 'changed before activation', 'corrupted', 'unexplained', 'sessions left open', 'stack traces', 'hangs', 'secrets found'],
      rows,
      mustBeZero: ['wrong exit code', 'changed before activation', 'corrupted', 'unexplained', 'sessions left open', 'stack traces', 'hangs', 'secrets found'],
    });
    expect(violations).toEqual([]);
  }, 3_600_000);
});
