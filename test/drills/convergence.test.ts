/**
 * Convergence as a property (README.md "Drift"): random manifest sets derived from the JSON
 * Schemas of every kind, in every variant (earliest, middle, latest), applied to the
 * emulator through the real CLI; the six properties of convergence/trial.ts must hold in
 * every trial. `npm test` runs a seeded sample; `npm run drills` (GWOPS_DRILLS=full) runs
 * 1,000 sets. A failure prints fast-check's report: the seed, the path and the shrunk
 * counterexample (repeat it with GWOPS_DRILLS_SEED=<seed>).
 *
 * Three drill results are recorded (test/drills/record.ts): `convergence`, the trials and
 * outcomes per property; `convergence-live-mutations`, per class of live change
 * (convergence/live-mutation.ts) how often drift and apply did what they must; and
 * `convergence-coverage`, per kind and variant the schema attributes the applied sets
 * exercised out of all.
 */
import { createPrivateKey } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../src/emulator/index.js';
import type { ResourceType, Variant } from '../../src/kinds/index.js';
import { KINDS, VARIANTS, kindExistsIn } from '../../src/kinds/index.js';
import type { Pem } from './convergence/manifest-set.js';
import { fixUp } from './convergence/fixups.js';
import { manifestSetArbitrary, readable } from './convergence/manifest-set.js';
import { schemaPaths } from './convergence/schema-arbitrary.js';
import type { Mutation, MutationOutcome } from './convergence/live-mutation.js';
import { MUTATIONS } from './convergence/live-mutation.js';
import type { Outcome, Property } from './convergence/trial.js';
import { PROPERTIES, runTrial } from './convergence/trial.js';
import { drillMode, drillSeed, recordDrill } from './record.js';

const FULL = drillMode() === 'full';
/** Sets per variant: 1,000 in all under `npm run drills`, a handful in `npm test`. */
const RUNS: Readonly<Record<Variant, number>> = FULL ? { earliest: 333, middle: 333, latest: 334 } : { earliest: 2, middle: 2, latest: 3 };
const SEED = drillSeed(20261123);
/** Time spent shrinking a counterexample, each step a whole trial, before it is reported. */
const SHRINK_BUDGET_MS = FULL ? 10 * 60_000 : 60_000;
/** Time of one variant's seeded sample in `npm test`, shrinking included. */
const SAMPLE_BUDGET_MS = 100_000;

const counts = new Map<Property, Record<Outcome, number>>(PROPERTIES.map((p) => [p, { held: 0, 'not-applicable': 0, violated: 0 }]));
const exercised = new Map<string, Set<string>>(); // `${kind} ${variant}` → paths
const MUTATION_OUTCOMES: readonly MutationOutcome[] = ['reported and restored', 'ignored and kept', 'refused', 'missed', 'false report', 'not restored'];
const mutationCounts = new Map<Mutation, Record<MutationOutcome, number>>(
  MUTATIONS.map((m) => [m, Object.fromEntries(MUTATION_OUTCOMES.map((o) => [o, 0])) as Record<MutationOutcome, number>]),
);
let trials = 0;

describe('convergence', () => {
  let pems: Pem[] = [];
  beforeAll(async () => {
    const passphrase = 'cv-drill-passphrase';
    pems = (await Promise.all(['cv-a.example.com', 'cv-b.example.com', 'cv-c.example.com'].map((host) => selfSignedCertificate(host)))).map((p) => ({
      ...p,
      encrypted: { key: createPrivateKey(p.key).export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }).toString(), passphrase },
    }));
  }, 120_000);

  for (const variant of VARIANTS) {
    it(`holds for random manifest sets of the ${variant} variant`, async () => {
      let failing = false; // shrinking runs after the first failure are not counted
      let shrinkUntil = Infinity;
      const set = manifestSetArbitrary(variant, pems).map((s) => readable(fixUp(s)));
      const details = await fc.check(
        fc.asyncProperty(set, set, fc.gen(), async (first, second, gen) => {
          // Past the shrink budget every further candidate passes untried, so fast-check
          // stops shrinking and reports the smallest counterexample found so far.
          if (failing && Date.now() > shrinkUntil) return;
          const result = await runTrial(variant, first, second, gen);
          if (!failing) {
            trials++;
            for (const [property, outcome] of Object.entries(result.outcomes) as [Property, Outcome][]) {
              const row = counts.get(property);
              if (row) row[outcome]++;
            }
            for (const m of result.mutations) {
              const row = mutationCounts.get(m.mutation);
              if (row) row[m.outcome]++;
            }
            for (const [kind, paths] of result.exercised) {
              const key = `${kind} ${variant}`;
              const all = exercised.get(key) ?? new Set<string>();
              for (const p of paths) all.add(p);
              exercised.set(key, all);
            }
          }
          if (result.violation !== undefined) {
            if (!failing) shrinkUntil = Date.now() + SHRINK_BUDGET_MS;
            failing = true;
            throw new Error(result.violation);
          }
        }),
        {
          seed: SEED + VARIANTS.indexOf(variant),
          numRuns: RUNS[variant],
          endOnFailure: process.env.GWOPS_DRILLS_NO_SHRINK === '1',
          // Shrinking a counterexample (each run a whole trial against the emulator) stops
          // before the test's own timeout, so a violation is reported, not a timeout.
          ...(FULL ? {} : { interruptAfterTimeLimit: SAMPLE_BUDGET_MS }),
        },
      );
      if (details.failed) {
        const why = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
        expect.fail(`${why}\n\n${fc.defaultReportMessage(details) ?? ''}`);
      }
      expect(details.interrupted, `the sample ran out of time after ${details.numRuns} of ${RUNS[variant]} trials`).toBe(false);
    }, FULL ? 6 * 3600_000 : SAMPLE_BUDGET_MS + 20_000);
  }

  it('records the outcomes and the attribute coverage', () => {
    const violations = recordDrill({
      id: 'convergence',
      title: 'Convergence of random manifest sets',
      description:
        `${trials} random manifest sets, derived from the JSON Schemas of every kind in the earliest, middle and latest variants, applied to the emulator ` +
        'through the CLI. Each property holds, is not applicable (the set was invalid locally or refused by the gateway\'s validator, or the raw change was refused), or is violated.',
      seed: SEED,
      columns: ['Property', 'Trials', 'Held', 'Not applicable', 'Violated'],
      rows: PROPERTIES.map((p) => {
        const c = counts.get(p) ?? { held: 0, 'not-applicable': 0, violated: 0 };
        return [p, c.held + c['not-applicable'] + c.violated, c.held, c['not-applicable'], c.violated];
      }),
      mustBeZero: ['Violated'],
    });
    const mutationViolations = recordDrill({
      id: 'convergence-live-mutations',
      title: 'Live changes anywhere in the declared surface',
      description:
        'Changes made behind gwops\'s back after a convergence set was applied (a top-level or nested attribute, a member of a list item declared or not, a list shortened, a link added or removed at either end). ' +
        '`drift` must report a change exactly when it touches what the manifests declare (a declared list item counts whole, with its item defaults), and `apply` must restore it, or leave an undeclared one as it is.',
      seed: SEED,
      columns: ['Mutation', 'Reported and restored', 'Ignored and kept', 'Refused by the gateway', 'Missed', 'False report', 'Not restored'],
      rows: MUTATIONS.map((m) => {
        const c = mutationCounts.get(m);
        return [m, ...MUTATION_OUTCOMES.map((o) => c?.[o] ?? 0)];
      }),
      mustBeZero: ['Missed', 'False report', 'Not restored'],
    });
    const rows: (string | number)[][] = [];
    for (const variant of VARIANTS) {
      for (const kind of KINDS.filter((k) => kindExistsIn(k, variant))) {
        const all = schemaPaths(kind.type, variant, ['name']);
        const seen = exercised.get(`${kind.type satisfies ResourceType} ${variant}`) ?? new Set<string>();
        const hit = all.filter((p) => seen.has(p)).length;
        rows.push([kind.type, variant, hit, all.length, `${Math.round((100 * hit) / Math.max(1, all.length))}%`, all.filter((p) => !seen.has(p)).slice(0, 5).join(', ')]);
      }
    }
    recordDrill({
      id: 'convergence-coverage',
      title: 'Schema attributes exercised by the convergence corpus',
      description: 'Per kind and variant, how many attribute paths of the JSON Schema (nested properties and array items) the applied manifest sets declared, out of all; the goal is every one.',
      seed: SEED,
      columns: ['Kind', 'Variant', 'Exercised', 'Attributes', 'Share', 'First not exercised'],
      rows,
      mustBeZero: [],
    });
    // Both tables are written first, so that a failed run still reports them.
    expect([...violations, ...mutationViolations]).toEqual([]);
    expect(rows.length).toBeGreaterThan(0);
    expect(trials).toBe(Object.values(RUNS).reduce((a, b) => a + b, 0));
  });
});
