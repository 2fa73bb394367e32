/**
 * Adoption as a property (README.md "Drift"): random projects (test/drills/adopt/world.ts:
 * back-end groups and mappings, a template, links from either side, flow and block style,
 * one target or two with an overlay) are applied to emulators through the CLI, changed at
 * random on the staging gateway, and adopted with `drift --adopt --target staging`; then
 * validate passes, staging's plan is empty, the other target's plan is unchanged, no file it
 * reads changed, and no byte outside the changed values changed (adopt/trial.ts).
 * `npm test` runs a seeded sample; `npm run drills` (GWOPS_DRILLS=full) runs 1,000 sets.
 * A failure prints fast-check's report (repeat it with GWOPS_DRILLS_SEED=<seed>).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { mutationsArbitrary, worldArbitrary } from './adopt/world.js';
import type { TrialResult } from './adopt/trial.js';
import { runTrial } from './adopt/trial.js';
import { drillMode, drillSeed, recordDrill } from './record.js';

const FULL = drillMode() === 'full';
const RUNS = FULL ? 1000 : 3;
const SEED = drillSeed(20261125);

const COUNTED = ['invalid', 'planNotEmpty', 'otherPlanChanged', 'sharedFileChanged', 'bytesOutsideChanged'] as const;
const totals = { trials: 0, applicable: 0, mutations: 0, notAdopted: 0, invalid: 0, planNotEmpty: 0, otherPlanChanged: 0, sharedFileChanged: 0, bytesOutsideChanged: 0 };

describe('drift --adopt round trip', () => {
  let staging: RunningEmulator;
  let production: RunningEmulator;
  let root: string;
  beforeAll(async () => {
    [staging, production] = await Promise.all([startEmulator({ port: 0, tls: false, variant: 'latest' }), startEmulator({ port: 0, tls: false, variant: 'latest' })]);
    root = await mkdtemp(join(tmpdir(), 'gwops-adopt-drill-'));
  });
  afterAll(async () => {
    await Promise.all([staging.close(), production.close()]);
    await rm(root, { recursive: true, force: true });
  });

  it('adopts random live changes: valid, converged, other targets untouched, only the changed values written', async () => {
    let n = 0;
    let failing = false;
    const details = await fc.check(
      fc.asyncProperty(worldArbitrary(), mutationsArbitrary(), async (world, mutations) => {
        n++;
        const dir = await mkdtemp(join(root, 'trial-'));
        const result: TrialResult = await runTrial(dir, `ad${n}x`, world, mutations, { staging, production });
        if (!failing) {
          totals.trials++;
          if (result.applicable) totals.applicable++;
          totals.mutations += result.mutations;
          totals.notAdopted += result.notAdopted;
          for (const key of COUNTED) totals[key] += result[key];
        }
        if (COUNTED.some((key) => result[key] > 0)) {
          failing = true;
          throw new Error(result.why.join('\n\n'));
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: process.env.GWOPS_DRILLS_NO_SHRINK === '1' },
    );
    const violations = recordDrill({
      id: 'adopt-round-trip',
      title: 'drift --adopt round trip',
      description:
        `${totals.trials} random projects (back-end groups and mappings, a template, links from either side, flow and block style, one target or two with an overlay) ` +
        `applied through the CLI, ${totals.mutations} random changes made on the staging gateway, then \`drift --adopt --target staging\`. ` +
        'Counted: validate fails, staging\'s plan is not empty while nothing is listed as not adopted, the other target\'s plan changed, a file the other target reads changed, ' +
        'text outside the changed values changed.',
      seed: SEED,
      columns: ['Trials', 'Applied', 'Changes', 'Listed as not adopted', 'Invalid', 'Plan not empty', 'Other plan changed', 'Shared file changed', 'Bytes outside changed'],
      rows: [
        [totals.trials, totals.applicable, totals.mutations, totals.notAdopted, totals.invalid, totals.planNotEmpty, totals.otherPlanChanged, totals.sharedFileChanged, totals.bytesOutsideChanged],
      ],
      mustBeZero: ['Invalid', 'Plan not empty', 'Other plan changed', 'Shared file changed', 'Bytes outside changed'],
    });
    if (details.failed) {
      const why = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
      expect.fail(`${why}\n\n${fc.defaultReportMessage(details) ?? ''}`);
    }
    expect(violations).toEqual([]);
    expect(totals.applicable).toBeGreaterThan(0);
  }, FULL ? 6 * 3600_000 : 120_000);
});
