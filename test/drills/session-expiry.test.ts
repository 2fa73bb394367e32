/**
 * Drill "session expiry is survivable": when the REST session expires before activation,
 * apply redoes the whole transaction once in a new session (load, fetch, plan) and
 * succeeds; when the new plan differs from the one shown it shows it and asks again
 * (`--yes` consents), `apply --plan FILE` refuses; a second expiry ends the run with the
 * active configuration unchanged. Never a half-done session continued.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { drillMode, drillSeed, recordDrill } from './record.js';
import type { DrillGateway, Run, Terminal } from './support.js';
import { activeText, leakedSecrets, prng, sample, showsCrash, startDrillGateway, writeDrillManifests } from './support.js';

const REDO = 'redoing the whole apply once in a new session';

/** One row's figures. */
interface Figures {
  trials: number;
  exitedAsExpected: number;
  converged: number;
  unchanged: number;
  corrupted: number;
  redone: number;
  questions: number;
  sessionsOpen: number;
  crashes: number;
  secrets: number;
}

const empty = (): Figures => ({ trials: 0, exitedAsExpected: 0, converged: 0, unchanged: 0, corrupted: 0, redone: 0, questions: 0, sessionsOpen: 0, crashes: 0, secrets: 0 });

interface Scenario {
  /** Expected exit code. */
  readonly code: number;
  readonly args?: readonly string[];
  /** Which calls (1-based, counted by the proxy) expire the session first. */
  readonly expireAt: readonly number[];
  /** Before the expiry at the first of them, another client applies `intruder` manifests. */
  readonly intruder?: boolean;
  /** Answer consent questions on a terminal instead of --yes. */
  readonly terminal?: boolean;
  /** Save a plan first and apply it with --plan. */
  readonly planFile?: boolean;
}

/** Runs one scenario on a fresh gateway and adds its figures to `into`. */
async function run(scenario: Scenario, into: Figures): Promise<Run> {
  const gateway: DrillGateway = await startDrillGateway();
  try {
    const m = await writeDrillManifests(gateway.dir);
    // The intruder already made one of the target's changes: the redone plan is shorter.
    const intruder = join(gateway.dir, 'intruder.yaml');
    await writeFile(
      intruder,
      'apiVersion: gwops/v1\nkind: back-end-group\nname: drill-backend-1\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: app1.internal, port: 9090 }]\n',
    );
    expect((await gateway.cli(['apply', '--yes', m.base, ...gateway.direct])).code).toBe(0);
    const planFile = join(gateway.dir, 'plan.json');
    if (scenario.planFile) expect((await gateway.cli(['plan', m.target, '--out', planFile, ...gateway.viaProxy])).code).toBe(0);
    let before = activeText(gateway.emulator);
    let expiries = 0;
    gateway.resetCount();
    gateway.intercept = (call, index) => {
      if (!scenario.expireAt.includes(index)) return undefined;
      expiries += 1;
      return {
        before: async () => {
          if (scenario.intruder && expiries === 1) {
            expect((await gateway.cli(['apply', '--yes', intruder, ...gateway.direct])).code).toBe(0);
            before = activeText(gateway.emulator);
          }
          gateway.emulator.expireSessions();
        },
      };
    };
    const stdin = new PassThrough();
    let questions = 0;
    const terminal: Terminal = {
      stdin,
      onStderr: (text) => {
        if (!text.includes('Do you want to apply')) return;
        questions += 1;
        setImmediate(() => stdin.write('yes\n'));
      },
    };
    const args = ['apply', ...(scenario.terminal ? [] : ['--yes']), ...(scenario.planFile ? ['--plan', planFile] : [m.target]), ...gateway.viaProxy];
    const result = await gateway.cli(args, {}, scenario.terminal ? terminal : undefined);
    gateway.intercept = () => undefined;
    const unchanged = activeText(gateway.emulator) === before;
    const converged = !unchanged && (await gateway.cli(['drift', m.target, ...gateway.direct])).code === 0;
    into.trials += 1;
    if (result.code === scenario.code) into.exitedAsExpected += 1;
    if (converged) into.converged += 1;
    if (unchanged) into.unchanged += 1;
    if (!converged && !unchanged) into.corrupted += 1;
    if (result.stderr.includes(REDO)) into.redone += 1;
    into.questions += questions;
    into.sessionsOpen += gateway.emulator.openSessionCount();
    if (showsCrash(result)) into.crashes += 1;
    into.secrets += leakedSecrets(gateway.outputs, [...gateway.secrets, ...gateway.proxy.sessionCookies]).length;
    return result;
  } finally {
    await gateway.close();
  }
}

describe('drill: session expiry is survivable', () => {
  it('redoes the transaction once in a new session, asks again only for a changed plan, refuses a stale plan file', async () => {
    const seed = drillSeed(11);
    const random = prng(seed);
    const full = drillMode() === 'full';
    // Calls of the drilled apply (faults.test.ts measures the same plan): 1 session/create … activate at 39.
    const activateAt = 39;
    const beforeActivation = Array.from({ length: activateAt - 1 }, (_, i) => i + 2);
    const rows: (string | number)[][] = [];
    const row = (name: string, figures: Figures): void => {
      rows.push([
        name,
        figures.trials,
        figures.exitedAsExpected,
        figures.converged,
        figures.unchanged,
        figures.corrupted,
        figures.redone,
        figures.questions,
        figures.sessionsOpen,
        figures.crashes,
        figures.secrets,
      ]);
    };

    const once = empty();
    for (const k of full ? beforeActivation : sample(beforeActivation, 2, random)) await run({ code: 0, expireAt: [k] }, once);
    row('expiry at one call before activation, --yes (exit 0)', once);

    const twice = empty();
    for (const k of full ? [2, 20, 38] : sample(beforeActivation.slice(0, 30), 1, random)) {
      // The first attempt ends at call k, its terminate is k + 1, the new session k + 2, its load-active k + 3.
      const r = await run({ code: 1, expireAt: [k, k + 3] }, twice);
      expect(r.stderr).toContain('the REST session is no longer valid');
    }
    row('expiry again in the redone transaction (exit 1)', twice);

    const changedYes = empty();
    const yes = await run({ code: 0, expireAt: [36], intruder: true }, changedYes);
    expect(yes.stdout.match(/Plan:/g)?.length ?? 0).toBe(2);
    row('live state changed meanwhile, --yes: new plan shown (exit 0)', changedYes);

    const changedAsk = empty();
    await run({ code: 0, expireAt: [36], intruder: true, terminal: true }, changedAsk);
    row('live state changed meanwhile, terminal: asked again (exit 0)', changedAsk);

    const sameAsk = empty();
    await run({ code: 0, expireAt: [36], terminal: true }, sameAsk);
    row('live state unchanged, terminal: asked once (exit 0)', sameAsk);

    const stale = empty();
    const refused = await run({ code: 1, expireAt: [36], intruder: true, planFile: true }, stale);
    expect(refused.stderr).toContain('changed since plan file');
    row('live state changed meanwhile, --plan FILE: refused (exit 1)', stale);

    const saved = empty();
    await run({ code: 0, expireAt: [36], planFile: true }, saved);
    row('live state unchanged, --plan FILE: applied (exit 0)', saved);

    // Figures the rows must show besides the zero columns.
    expect(once.exitedAsExpected).toBe(once.trials);
    expect(once.converged).toBe(once.trials);
    expect(once.redone).toBe(once.trials);
    expect(twice.unchanged).toBe(twice.trials);
    expect(changedAsk.questions).toBe(2);
    expect(sameAsk.questions).toBe(1);
    expect(stale.unchanged).toBe(1);

    const violations = recordDrill({
      id: 'session-expiry',
      title: 'Session expiry is survivable',
      description:
        'The REST session of an apply expires (the emulator ends every session) at a call before activation. The apply ' +
        'must redo the whole transaction once in a new session and converge; show and ask again only when the new plan ' +
        'differs; with --plan FILE refuse when the live state changed; and after a second expiry stop with the active ' +
        'configuration unchanged. "as expected" counts runs with the expected exit code; questions counts consent questions.',
      seed,
      columns: ['case', 'trials', 'as expected', 'converged', 'unchanged', 'corrupted', 'redone', 'questions', 'sessions left open', 'crashes', 'secrets found'],
      rows,
      mustBeZero: ['corrupted', 'sessions left open', 'crashes', 'secrets found'],
    });
    expect(violations).toEqual([]);
    for (const r of rows) expect(r[2], String(r[0])).toBe(r[1]);
  }, 3_600_000);
});
