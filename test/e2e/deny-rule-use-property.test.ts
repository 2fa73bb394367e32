/**
 * A property (docs/manifest-reference.md "Deny rule use"): random declarations
 * of a mapping's use of deny rules (which built-in groups and rules, each flag set or left
 * out, exception lists of 0-3 items with either pattern and any members left out, custom
 * groups and rules by name) applied to the emulator through the real CLI, one after the
 * other on the same gateway, so each set starts from what the one before left. Property:
 * apply succeeds and the plan right after it has no change. `npm test` runs a seeded
 * sample of a few sets (each is two CLI runs); GWOPS_DRILLS=full runs 100; a failure prints
 * fast-check's seed and shrunk counterexample (repeat it with GWOPS_DRILLS_SEED=<seed>).
 */
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drillMode, drillSeed } from '../drills/record.js';
import { useHarness, writeManifests } from './harness.js';

const FULL = drillMode() === 'full';
const RUNS = FULL ? 100 : 3;
const SEED = drillSeed(20261126);

const GROUPS = ['SQLI_PARAM_VALUE', 'SQLI_PARAM_NAME', 'XSS_PARAM_VALUE', 'PATH_TRAVERSAL'] as const;
const RULES = ['SQL_001a', 'SQL_001b', 'XSS_001a', 'PT_001a'] as const;
const CUSTOM_RULES = ['drill-rule-a', 'drill-rule-b'] as const;
const CUSTOM_GROUP = 'drill-rules';

const flag = fc.option(fc.boolean(), { nil: undefined });
const patternArb = fc.record({ enabled: fc.boolean(), pattern: fc.constantFrom('^q$', '^debug', 'token', '^X-Trace$'), name: fc.constantFrom('search', 'debug', '') });
const exceptionArb = fc.oneof(fc.record({ enabled: fc.boolean(), parameterNamePattern: patternArb }), fc.record({ enabled: fc.boolean(), headerNamePattern: patternArb }));
/** One group's declared use: at least one member. */
const groupUseArb = fc
  .record({ enabled: flag, logOnly: flag, exceptions: fc.option(fc.array(exceptionArb, { maxLength: 3 }), { nil: undefined }) })
  .map((u) => Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined)))
  .filter((u) => Object.keys(u).length > 0);
const logOnlyArb = fc.record({ logOnly: fc.boolean() });

function subsetMap<T>(keys: readonly string[], value: fc.Arbitrary<T>): fc.Arbitrary<Record<string, T>> {
  return fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length });
}

const useArb = fc.record({
  denyRuleGroups: subsetMap(GROUPS, groupUseArb),
  denyRules: subsetMap(RULES, logOnlyArb),
  customDenyRuleGroups: subsetMap([CUSTOM_GROUP], logOnlyArb),
  customDenyRules: subsetMap(CUSTOM_RULES, logOnlyArb),
});
type Use = typeof useArb extends fc.Arbitrary<infer U> ? U : never;

function manifests(use: Use): Record<string, string> {
  const attributes: Record<string, unknown> = { entryPath: { value: '/drill/' } };
  for (const [block, map] of Object.entries(use)) if (Object.keys(map).length > 0) attributes[block] = map;
  const docs = [
    { kind: 'back-end-group', name: 'drill-backend', attributes: { backendHosts: [{ protocol: 'HTTP', hostName: 'drill.internal', port: 80 }] } },
    ...CUSTOM_RULES.map((name) => ({ kind: 'custom-deny-rule', name, attributes: { restrictions: { pathPattern: { enabled: true, pattern: `^/${name}/` } } } })),
    { kind: 'custom-deny-rule-group', name: CUSTOM_GROUP, relationships: { 'custom-deny-rules': [...CUSTOM_RULES] } },
    { kind: 'mapping', name: 'drill', attributes, relationships: { 'back-end-groups': ['drill-backend'] } },
  ];
  // JSON is YAML: each document on its own.
  return { 'gwops.yaml': 'manifests: [all.yaml]\n', 'all.yaml': docs.map((d) => JSON.stringify({ apiVersion: 'gwops/v1', ...d })).join('\n---\n') + '\n' };
}

describe('deny rule use converges (property)', () => {
  const t = useHarness();

  it('apply, then plan: no change, for random declared uses', async () => {
    let n = 0;
    const details = await fc.check(
      fc.asyncProperty(useArb, async (use) => {
        const folder = await writeManifests(t.h, `set-${(n += 1)}`, manifests(use));
        const config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
        const apply = await t.h.cli(['apply', ...config, '--yes', '--comment', `drill set ${n}`]);
        if (apply.code !== 0) {
          throw new Error(`apply failed: ${apply.stderr}`);
        }
        const plan = await t.h.cli(['plan', ...config, '--detailed-exitcode']);
        if (plan.code !== 0) {
          throw new Error(`plan after apply is not empty (exit ${plan.code}):\n${plan.stdout}${plan.stderr}`);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: !FULL },
    );
    expect(details.failed ? fc.defaultReportMessage(details) : '').toBe('');
  }, FULL ? 1_800_000 : 300_000);
});
