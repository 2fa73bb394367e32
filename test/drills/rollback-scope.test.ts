/**
 * Drill "rollback scope" (README.md "Commands", docs/adoption-guide.md "gwops rollback"):
 * two teams on one gateway. Team A's project (ownership: its mappings by label, its
 * back-end groups by name) applies a random first state, then a random second one (paths
 * changed, mappings deleted and added); around those applies team B's project makes
 * random objects of its own (mappings with its label, back-end groups, virtual hosts:
 * created before or after A's first apply, changed, deleted), and the objects of earlier
 * trials stay on the gateway. Then `gwops rollback <A's first configuration> --yes` in A's
 * project.
 *
 * Properties: every object outside A's scope is, after the rollback, exactly as it was
 * before (attributes and links, as the active configuration holds them); A's objects are
 * again what A's first manifests make (plan --prune finds nothing to do).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drillMode, drillSeed, recordDrill } from './record.js';
import { showsCrash, startDrillGateway, within } from './support.js';

const FULL = drillMode() === 'full';
const SEED = drillSeed(4242);
const RUNS = FULL ? 30 : 2;

const PATHS = ['/', '/v1/', '/v2/', '/api/', '/legacy/'] as const;

/** One of team B's objects: its kind, its index (its name) and a value that changes between phases. */
interface Other {
  readonly kind: 'mapping' | 'back-end-group' | 'virtual-host';
  readonly index: number;
  readonly value: number;
}

/** One trial: A's mappings (back-end group index, path) in the first and second state, and B's objects at three moments. */
interface Trial {
  readonly first: readonly { readonly group: number; readonly path: number }[];
  readonly second: readonly ({ readonly group: number; readonly path: number } | null)[];
  readonly added: readonly { readonly group: number; readonly path: number }[];
  readonly others: readonly (readonly Other[])[];
}

const mappingSpec = fc.record({ group: fc.integer({ min: 0, max: 1 }), path: fc.integer({ min: 0, max: PATHS.length - 1 }) });
const otherSpec = fc.record({ kind: fc.constantFrom('mapping' as const, 'back-end-group' as const, 'virtual-host' as const), index: fc.integer({ min: 0, max: 3 }), value: fc.integer({ min: 1, max: 9 }) });
const trialSpec: fc.Arbitrary<Trial> = fc.record({
  first: fc.array(mappingSpec, { minLength: 1, maxLength: 3 }),
  second: fc.array(fc.option(mappingSpec, { nil: null }), { minLength: 3, maxLength: 3 }),
  added: fc.array(mappingSpec, { maxLength: 2 }),
  others: fc.array(fc.uniqueArray(otherSpec, { minLength: 1, maxLength: 5, selector: (o) => `${o.kind}/${o.index}` }), { minLength: 3, maxLength: 3 }),
});

const group = (name: string, port: number): string => `apiVersion: gwops/v1\nkind: back-end-group\nname: ${name}\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: ${name}.internal, port: ${port} }]\n`;
const mapping = (name: string, label: string, path: string, backend: string): string =>
  `apiVersion: gwops/v1\nkind: mapping\nname: ${name}\nattributes:\n  labels: [${label}]\n  entryPath: { value: /${name}/ }\n  backendPath: ${path}\nrelationships:\n  back-end-groups: [${backend}]\n`;
const host = (name: string, value: number): string =>
  `apiVersion: gwops/v1\nkind: virtual-host\nname: ${name}\nattributes:\n  hostName: h${value}.${name}.example\n  networkInterface: { https: { enabled: false, http2Allowed: false }, http: { enabled: true, port: 80 } }\n`;

/** Team A's manifests of a state: two back-end groups and its mappings. */
function teamA(prefix: string, label: string, mappings: readonly ({ group: number; path: number } | null)[]): string {
  const docs = [group(`${prefix}g0`, 8080), group(`${prefix}g1`, 8081)];
  mappings.forEach((m, i) => {
    if (m) docs.push(mapping(`${prefix}m${i}`, label, PATHS[m.path] ?? '/', `${prefix}g${m.group}`));
  });
  return docs.join('---\n');
}

/** Team B's manifests at one moment: its objects, and a back-end group its mappings link to when it has no other (a mapping needs one). */
function teamB(prefix: string, label: string, others: readonly Other[]): string {
  const groups = others.filter((o) => o.kind === 'back-end-group').map((o) => `${prefix}back-end-group-${o.index}`);
  const pool = groups.length === 0 && others.some((o) => o.kind === 'mapping') ? [group(`${prefix}pool`, 9000)] : [];
  return [
    ...pool,
    ...others.map((o) => {
      const name = `${prefix}${o.kind}-${o.index}`;
      if (o.kind === 'back-end-group') return group(name, 9000 + o.value);
      if (o.kind === 'virtual-host') return host(name, o.value);
      return mapping(name, label, `/b${o.value}/`, groups[o.value % Math.max(1, groups.length)] ?? `${prefix}pool`);
    }),
  ].join('---\n');
}

interface Figures {
  trials: number;
  rolledBack: number;
  failed: number;
  outsideChanged: number;
  scopeNotRestored: number;
  crashes: number;
}

describe('drill: rollback within the ownership scope', () => {
  it("a rollback never changes an object outside the project's scope, and restores the scope's objects", async () => {
    const gateway = await startDrillGateway();
    const figures: Figures = { trials: 0, rolledBack: 0, failed: 0, outsideChanged: 0, scopeNotRestored: 0, crashes: 0 };
    const samples: string[] = [];
    let n = 0;
    try {
      const details = await fc.check(
        fc.asyncProperty(trialSpec, async (trial) => {
          n += 1;
          figures.trials += 1;
          const a = `a${n}-`;
          const labelA = `team-a-${n}`;
          const b = `b${n}-`;
          const labelB = `team-b-${n}`;
          const dir = join(gateway.dir, `trial-${n}`);
          const project = async (name: string, ownership: string, text: string): Promise<string> => {
            await mkdir(join(dir, name, 'm'), { recursive: true });
            await writeFile(join(dir, name, 'gwops.yaml'), `manifests: [m]\nownership:\n${ownership}`);
            await writeFile(join(dir, name, 'm', 'all.yaml'), text);
            return join(dir, name, 'gwops.yaml');
          };
          const scopeA = `  mapping: ['label==${labelA}']\n  back-end-group: ['name=@${a}']\n`;
          const scopeB = `  mapping: ['label==${labelB}']\n  back-end-group: ['name=@${b}']\n  virtual-host: ['name=@${b}']\n`;
          const run = async (what: string, args: readonly string[]): Promise<void> => {
            const result = await within(60_000, what, gateway.cli([...args, ...gateway.direct]));
            if (showsCrash(result)) figures.crashes += 1;
            if (result.code === 0) return;
            samples.push(`trial ${n}: ${what}: exit ${result.code}: ${result.stderr.slice(0, 300)}`);
            throw new Error(samples[samples.length - 1]);
          };
          const applyB = async (phase: number): Promise<void> =>
            run(`team B ${phase}`, ['apply', '--yes', '--prune', '--allow-mass-delete', '--config', await project(`b${phase}`, scopeB, teamB(b, labelB, trial.others[phase] ?? []))]);
          await applyB(0);
          const firstConfig = await project('a1', scopeA, teamA(a, labelA, trial.first));
          await run('team A first', ['apply', '--yes', '--config', firstConfig, '--comment', `gwops apply: ${String(n).padStart(7, '0')} first`]);
          const first = (gateway.emulator.activeSnapshot() as { id: string }).id;
          await applyB(1);
          const second = [...trial.first.map((m, i) => (trial.second[i] === null ? null : (trial.second[i] ?? m))), ...trial.added];
          await run('team A second', ['apply', '--yes', '--prune', '--allow-mass-delete', '--config', await project('a2', scopeA, teamA(a, labelA, second))]);
          await applyB(2);

          const outside = (): Map<string, string> => {
            const objects = (gateway.emulator.activeSnapshot() as { objects: { type: string; attributes: { name?: unknown }; relationships?: unknown }[] }).objects;
            const out = new Map<string, string>();
            for (const o of objects) {
              const name = typeof o.attributes.name === 'string' ? o.attributes.name : '';
              if (!name.startsWith(a)) out.set(`${o.type} ${name}`, JSON.stringify([o.attributes, o.relationships ?? null]));
            }
            return out;
          };
          const before = outside();
          const rollback = await within(60_000, 'rollback', gateway.cli(['rollback', '--yes', '--config', firstConfig, ...gateway.direct, first]));
          if (showsCrash(rollback)) figures.crashes += 1;
          if (rollback.code !== 0) {
            figures.failed += 1;
            samples.push(`trial ${n}: rollback exit ${rollback.code}: ${rollback.stderr.slice(0, 300)}`);
            throw new Error(samples[samples.length - 1]);
          }
          figures.rolledBack += 1;
          const after = outside();
          const changed = [...new Set([...before.keys(), ...after.keys()])].filter((key) => before.get(key) !== after.get(key));
          if (changed.length > 0) {
            figures.outsideChanged += 1;
            samples.push(`trial ${n}: the rollback changed objects outside the scope: ${changed.join(', ')}`);
          }
          const restored = await gateway.cli(['plan', '--prune', '--allow-mass-delete', '--no-server-check', '--detailed-exitcode', '--config', firstConfig, ...gateway.direct]);
          if (restored.code !== 0) {
            figures.scopeNotRestored += 1;
            samples.push(`trial ${n}: the scope is not as the first apply made it (plan exit ${restored.code}): ${restored.stdout.slice(0, 300)}`);
          }
          if (samples.length > 0) throw new Error(samples[samples.length - 1]);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      if (details.failed) samples.push(fc.defaultReportMessage(details) ?? '');
    } finally {
      await gateway.close();
    }
    const violations = recordDrill({
      id: 'rollback-scope',
      title: 'Rollback within the ownership scope',
      description:
        `${RUNS} random histories on one gateway: team A's project (mappings by label, back-end groups by name) applies a first and a ` +
        "second state (paths changed, mappings deleted and added); team B's project makes, changes and deletes random mappings, back-end " +
        "groups and virtual hosts before, between and after them; earlier trials' objects stay. Then gwops rollback to A's first " +
        'configuration. No object outside the scope may change (attributes and links); the scope must be as the first apply made it.',
      seed: SEED,
      columns: ['histories', 'trials', 'rolled back', 'rollback failed', 'changed outside the scope', 'scope not restored', 'crashes'],
      rows: [['all', figures.trials, figures.rolledBack, figures.failed, figures.outsideChanged, figures.scopeNotRestored, figures.crashes]],
      mustBeZero: ['rollback failed', 'changed outside the scope', 'scope not restored', 'crashes'],
    });
    expect(samples).toEqual([]);
    expect(violations).toEqual([]);
  }, 3_600_000);
});
