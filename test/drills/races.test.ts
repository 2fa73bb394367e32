/**
 * Drill "races": two, then five applies of different manifests started together against
 * one emulator. Every activation reported as a success is live afterwards (none is lost
 * silently); a loser stops on 409 OUTDATED_CONFIGURATION with a message saying to re-run,
 * or with `--retry-on-conflict N` plans again and succeeds by itself; re-running the
 * losers converges.
 */
import { describe, expect, it } from 'vitest';
import { drillMode, drillSeed, recordDrill } from './record.js';
import type { Run } from './support.js';
import { leakedSecrets, prng, showsCrash, startDrillGateway, writeDrillManifests } from './support.js';

interface Figures {
  rounds: number;
  applies: number;
  activated: number;
  lost: number;
  losers: number;
  losersWithoutAdvice: number;
  retried: number;
  notConverged: number;
  sessionsOpen: number;
  crashes: number;
  secrets: number;
}

/** One round: `parallel` applies at once on a fresh emulator. */
async function round(parallel: number, retry: number, random: () => number, into: Figures): Promise<void> {
  const gateway = await startDrillGateway();
  try {
    const targets: string[] = [];
    for (let i = 0; i < parallel; i++) {
      // Different manifests of different sizes (seeded), so that the applies end in varying order.
      targets.push((await writeDrillManifests(gateway.dir, `race${i}`, 2 + Math.floor(random() * 3))).target);
    }
    const retryArgs = retry > 0 ? ['--retry-on-conflict', String(retry)] : [];
    const runs: Run[] = await Promise.all(targets.map((t) => gateway.cli(['apply', '--yes', ...retryArgs, t, ...gateway.direct])));
    into.rounds += 1;
    into.applies += parallel;
    for (const r of runs) {
      if (showsCrash(r)) into.crashes += 1;
      if (r.stderr.includes('planning again against the new active configuration')) into.retried += 1;
      if (r.code === 0) {
        into.activated += 1;
        continue;
      }
      into.losers += 1;
      if (!(r.stderr.includes('OUTDATED_CONFIGURATION') && r.stderr.includes('Re-run'))) into.losersWithoutAdvice += 1;
    }
    // A reported activation of disjoint objects must still be live after every other one.
    for (const [i, r] of runs.entries()) {
      if (r.code !== 0) continue;
      const drift = await gateway.cli(['drift', targets[i] ?? '', ...gateway.direct]);
      if (drift.code !== 0) into.lost += 1;
    }
    // Re-running the losers converges.
    for (const [i, r] of runs.entries()) {
      if (r.code === 0) continue;
      const again = await gateway.cli(['apply', '--yes', targets[i] ?? '', ...gateway.direct]);
      expect(again.code, again.stderr).toBe(0);
    }
    for (const t of targets) if ((await gateway.cli(['drift', t, ...gateway.direct])).code !== 0) into.notConverged += 1;
    into.sessionsOpen += gateway.emulator.openSessionCount();
    into.secrets += leakedSecrets(gateway.outputs, gateway.secrets).length;
  } finally {
    await gateway.close();
  }
}

describe('drill: races', () => {
  it('loses no reported activation; losers say to re-run or retry by themselves; re-running converges', async () => {
    const seed = drillSeed(5);
    const random = prng(seed);
    const rounds = drillMode() === 'full' ? 10 : 1;
    const rows: (string | number)[][] = [];
    const cases: readonly (readonly [number, number])[] = [
      [2, 0],
      [5, 0],
      [2, 3],
      [5, 8],
    ];
    const results = new Map<string, Figures>();
    for (const [parallel, retry] of cases) {
      const f: Figures = { rounds: 0, applies: 0, activated: 0, lost: 0, losers: 0, losersWithoutAdvice: 0, retried: 0, notConverged: 0, sessionsOpen: 0, crashes: 0, secrets: 0 };
      for (let r = 0; r < rounds; r++) await round(parallel, retry, random, f);
      const name = `${parallel} applies${retry > 0 ? `, --retry-on-conflict ${retry}` : ''}`;
      results.set(name, f);
      rows.push([name, f.rounds, f.applies, f.activated, f.losers, f.retried, f.lost, f.losersWithoutAdvice, f.notConverged, f.sessionsOpen, f.crashes, f.secrets]);
    }
    const violations = recordDrill({
      id: 'races',
      title: 'Races',
      description:
        'Applies of different manifests started together against one emulator. Every activation reported as a success ' +
        'must be live afterwards (lost: it is not); a loser must stop on 409 OUTDATED_CONFIGURATION saying to re-run, or ' +
        'with --retry-on-conflict plan again by itself (retried); re-running the losers must converge.',
      seed,
      columns: ['case', 'rounds', 'applies', 'activated', 'losers', 'retried', 'lost activations', 'losers without advice', 'not converged', 'sessions left open', 'crashes', 'secrets found'],
      rows,
      mustBeZero: ['lost activations', 'losers without advice', 'not converged', 'sessions left open', 'crashes', 'secrets found'],
    });
    expect(violations).toEqual([]);
    // With enough retries, every apply of a round activates by itself.
    for (const [name, f] of results) if (name.includes('--retry-on-conflict')) expect(f.activated, name).toBe(f.applies);
  }, 3_600_000);
});
