/**
 * One trial of the convergence drill: a fresh emulator of one variant, the real CLI
 * in-process (`main`) over HTTP on the loopback interface, and the properties of
 * README.md "Drift" and docs/architecture.md checked in order on the same gateway:
 *
 * 1. `apply-converges`: a valid set applied leaves `plan` empty;
 * 2. `plan-implies-apply`: when `plan` (with the gateway's validator) succeeds, `apply` succeeds;
 * 3. `update-converges`: a second random set over the same names (changed values, dropped
 *    attributes, replaced lists, links added and removed from either side, `extends`)
 *    applied on top leaves `plan` empty;
 * 4. `live-change-healed`: a declared scalar attribute changed, or a declared link removed,
 *    through the raw API is reported by `drift` with its direction, and `apply` heals it;
 * 4b. `live-mutation`: a change anywhere in an object's live state (top-level, nested,
 *    members of list items declared or not, lists shortened, links of either end) is
 *    reported by `drift` exactly when it touches what the manifests declare, and `apply`
 *    restores it or leaves it alone accordingly (convergence/live-mutation.ts; one
 *    mutation per trial in `npm test`, three under `npm run drills`);
 * 5. `scope-added-pruned`: an object added in the ownership scope is reported as added,
 *    kept by `apply`, deleted only by `apply --prune` (which succeeds when `plan --prune` does);
 * 6. `overlay-converges`: a random overlay of a per-target overlay directory converges.
 *
 * A property whose premise does not hold (the set is invalid locally, the gateway's
 * validator rejects it, the raw change is refused) counts as not applicable.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { runCli } from '../../support/in-process-cli.js';
import { startEmulator } from '../../../src/emulator/index.js';
import { withSession } from '../../../src/gateway/index.js';
import type { GatewaySession } from '../../../src/gateway/index.js';
import type { ResourceType, Variant } from '../../../src/kinds/index.js';
import { KINDS, kindExistsIn, kindOf } from '../../../src/kinds/index.js';
import type { ManifestSet } from './manifest-set.js';
import { manifestText, resolveReferences } from './manifest-set.js';
import { KIND_EXAMPLES } from '../../support/kind-examples.js';
import type { ExampleFixtures } from '../../support/kind-examples.js';
import type { Json } from './schema-arbitrary.js';
import { attributesArbitrary, exercisedPaths, leafSchema } from './schema-arbitrary.js';
import type { MutationResult } from './live-mutation.js';
import { mutations as liveMutations } from './live-mutation.js';
import { drillMode } from '../record.js';

/** Live mutations per trial: three under `npm run drills`, one in `npm test`. */
const MUTATIONS_PER_TRIAL = drillMode() === 'full' ? 3 : 1;

/** The properties, in the order a trial checks them. */
export const PROPERTIES = [
  'apply-converges',
  'plan-implies-apply',
  'update-converges',
  'live-change-healed',
  'live-mutation',
  'scope-added-pruned',
  'overlay-converges',
] as const;
export type Property = (typeof PROPERTIES)[number];

/** What happened to a property in one trial. */
export type Outcome = 'held' | 'not-applicable' | 'violated';

/** A trial's outcomes, the attribute paths it exercised (per kind) and, on a violation, what went wrong. */
export interface TrialResult {
  readonly outcomes: Partial<Record<Property, Outcome>>;
  readonly exercised: Map<ResourceType, Set<string>>;
  /** The live mutations of property `live-mutation` and what each showed. */
  readonly mutations: readonly MutationResult[];
  readonly violation?: string;
}

interface Cli {
  (args: readonly string[], env: Readonly<Record<string, string>>): Promise<{ code: number; stdout: string; stderr: string }>;
}

function cliIn(dir: string): Cli {
  return (args, env) => runCli(args, { ...env, NO_COLOR: '1' }, dir);
}

/** Scalar leaves of a document's own attributes outside arrays and secrets: dotted path → value. */
function scalarLeaves(value: { [key: string]: Json }, path = ''): [string, Json][] {
  const out: [string, Json][] = [];
  for (const [key, child] of Object.entries(value)) {
    const p = path === '' ? key : `${path}.${key}`;
    if (child !== null && typeof child === 'object' && !Array.isArray(child)) {
      if (!('fromEnv' in child)) out.push(...scalarLeaves(child, p));
    } else if (!Array.isArray(child)) out.push([p, child]);
  }
  return out;
}

function differentValue(schemaEnum: unknown, value: Json, max: unknown): Json | undefined {
  if (Array.isArray(schemaEnum)) return (schemaEnum as Json[]).find((v) => v !== value);
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return typeof max === 'number' && value + 1 > max ? value - 1 : value + 1;
  if (typeof value === 'string') return `${value}x`;
  return undefined;
}

function nested(path: string, value: Json): { [key: string]: Json } {
  return path.split('.').reduceRight<Json>((acc, key) => ({ [key]: acc }), value) as { [key: string]: Json };
}

async function idOf(session: GatewaySession, kind: ResourceType, name: string): Promise<string | undefined> {
  const [found] = await session.list(kindOf(kind).collection, [`name==${name}`]);
  return found?.id;
}

function record(exercised: Map<ResourceType, Set<string>>, kind: ResourceType, attributes: Json): void {
  const set = exercised.get(kind) ?? new Set<string>();
  for (const p of exercisedPaths(attributes)) set.add(p);
  exercised.set(kind, set);
}

function recordSet(exercised: Map<ResourceType, Set<string>>, set: ManifestSet): void {
  for (const o of set.objects) record(exercised, o.kind, o.attributes);
  for (const t of set.templates) {
    const kind = KINDS.find((k) => k.template === t.kind);
    if (kind) record(exercised, kind.type, t.attributes);
  }
}

/** With GWOPS_CV_DEBUG set, why a property was not applicable goes to stderr. */
function debug(message: string): void {
  if (process.env.GWOPS_CV_DEBUG) process.stderr.write(`[convergence] ${message.slice(0, 1500)}\n`);
}

/** Fixtures for example objects of kinds identified by name, which ask for none. */
const NO_FIXTURES: ExampleFixtures = {
  certificate: () => Promise.reject(new Error('the drill adds no object identified by a certificate')),
};

/** Runs one trial (see the module comment). Never throws for a violation: it is returned. */
export async function runTrial(variant: Variant, first: ManifestSet, second: ManifestSet, gen: fc.GeneratorValue): Promise<TrialResult> {
  const outcomes: Partial<Record<Property, Outcome>> = {};
  const exercised = new Map<ResourceType, Set<string>>();
  const mutated: MutationResult[] = [];
  const emulator = await startEmulator({ port: 0, tls: false, variant });
  const dir = await mkdtemp(join(tmpdir(), 'gwops-cv-'));
  const violated = (property: Property, what: string): TrialResult => {
    outcomes[property] = 'violated';
    return { outcomes, exercised, mutations: mutated, violation: `${property}: ${what}` };
  };
  try {
    await writeFile(join(dir, 'api-key'), emulator.apiKey, { mode: 0o600 });
    await mkdir(join(dir, 'manifests'));
    await mkdir(join(dir, 'overlay'));
    const byName = KINDS.filter((k) => kindExistsIn(k, variant) && k.identity.byName);
    const target = { url: emulator.url, apiKeyFile: 'api-key', variant };
    await writeFile(
      join(dir, 'gwops.yaml'),
      stringify({
        manifests: ['manifests'],
        targets: { base: target, ov: { ...target, overlays: ['overlay'] } },
        ownership: Object.fromEntries(byName.map((k) => [k.type, ['name=@cv-']])),
      }),
    );
    const cli = cliIn(dir);
    const raw = <T>(fn: (s: GatewaySession) => Promise<T>, comment: string): Promise<T> =>
      withSession({ url: emulator.url, apiKey: emulator.apiKey }, async (s) => {
        await s.loadActive();
        const result = await fn(s);
        await s.activate(comment);
        return result;
      });

    /** validate + plan: true when both succeed (the premise of the apply properties). */
    const plannable = async (env: Readonly<Record<string, string>>, t: string): Promise<boolean> => {
      const validate = await cli(['validate', '--target', t], env);
      if (validate.code !== 0) return debug(`validate: ${validate.stdout}${validate.stderr}`), false;
      const plan = await cli(['plan', '--target', t], env);
      if (plan.code !== 0) debug(`plan exits ${plan.code}: ${plan.stdout.split("\n").filter((l) => /error/.test(l)).join("\n")}${plan.stderr}`);
      return plan.code === 0;
    };
    const converged = async (env: Readonly<Record<string, string>>, t: string): Promise<string | undefined> => {
      const plan = await cli(['plan', '--target', t, '--detailed-exitcode', '--no-server-check'], env);
      return plan.code === 0 ? undefined : `plan after apply exits ${plan.code}:\n${plan.stdout}${plan.stderr}`;
    };

    // 1 and 2: the first set.
    await writeFile(join(dir, 'manifests', 'set.yaml'), manifestText(first));
    if (!(await plannable(first.env, 'base'))) {
      outcomes['apply-converges'] = outcomes['plan-implies-apply'] = 'not-applicable';
    } else {
      const apply = await cli(['apply', '--target', 'base', '--yes'], first.env);
      if (apply.code !== 0) return violated('plan-implies-apply', `apply exits ${apply.code} after a successful plan:\n${apply.stderr}`);
      outcomes['plan-implies-apply'] = 'held';
      recordSet(exercised, first);
      const diff = await converged(first.env, 'base');
      if (diff !== undefined) return violated('apply-converges', diff);
      outcomes['apply-converges'] = 'held';
    }

    // 3: the second set on top.
    await writeFile(join(dir, 'manifests', 'set.yaml'), manifestText(second));
    if (!(await plannable(second.env, 'base'))) {
      for (const p of PROPERTIES.slice(2)) outcomes[p] = 'not-applicable';
      return { outcomes, exercised, mutations: mutated };
    }
    const apply2 = await cli(['apply', '--target', 'base', '--yes'], second.env);
    if (apply2.code !== 0) return violated('update-converges', `apply of the update exits ${apply2.code} after a successful plan:\n${apply2.stderr}`);
    recordSet(exercised, second);
    const diff2 = await converged(second.env, 'base');
    if (diff2 !== undefined) return violated('update-converges', diff2);
    outcomes['update-converges'] = 'held';

    // 4: one live change behind gwops's back.
    const named = second.objects.filter((o) => kindOf(o.kind).identity.byName);
    const candidates = named.flatMap((o) =>
      scalarLeaves(o.attributes).map(([path, value]) => ({ o, path, value, schema: leafSchema(o.kind, variant, path) })),
    );
    const links = named.flatMap((o) =>
      Object.entries(o.relationships).flatMap(([relationship, targets]) => targets.map((t) => ({ o, relationship, target: t }))),
    );
    const useLink = links.length > 0 && (candidates.length === 0 || gen(fc.boolean));
    let expected: { direction: string; kind: string; name: string; path: string } | undefined;
    try {
      if (useLink) {
        const chosen = links[gen(fc.nat, links.length - 1)];
        const def = chosen ? kindOf(chosen.o.kind).relationships[chosen.relationship] : undefined;
        if (chosen && def) {
          const { o, relationship, target } = chosen;
          const canonical = def.canonical ? { kind: o.kind, name: o.name, rel: relationship, other: { kind: def.target, name: target } } : { kind: def.target, name: target, rel: def.inverse, other: { kind: o.kind, name: o.name } };
          const targetObject = second.objects.find((x) => x.kind === def.target && x.name === target);
          if (targetObject) {
            expected = { direction: 'link-deleted', kind: canonical.kind, name: canonical.name, path: `relationships.${canonical.rel}` };
            await raw(async (s) => {
              const fromId = await liveId(s, canonical.kind, canonical.name, second);
              const toId = await liveId(s, canonical.other.kind, canonical.other.name, second);
              if (fromId === undefined || toId === undefined) throw new Error('object not found');
              await s.unlink(kindOf(canonical.kind).collection, fromId, canonical.rel, { type: canonical.other.kind, id: toId });
            }, 'cv live change');
          }
        }
      } else if (candidates.length > 0) {
        const c = candidates[gen(fc.nat, candidates.length - 1)];
        const next = c ? differentValue(c.schema?.enum, c.value, c.schema?.maximum) : undefined;
        if (c && next !== undefined) {
          expected = { direction: 'changed', kind: c.o.kind, name: c.o.name, path: c.path };
          await raw(async (s) => {
            const id = await idOf(s, c.o.kind, c.o.name);
            if (id === undefined) throw new Error('object not found');
            await s.update(kindOf(c.o.kind).collection, id, { type: c.o.kind, attributes: nested(c.path, next) });
          }, 'cv live change');
        }
      }
    } catch (error) {
      debug(`live change refused: ${String(error)}`);
      expected = undefined; // the gateway refused the change: not applicable
    }
    if (expected === undefined) outcomes['live-change-healed'] = 'not-applicable';
    else {
      const drift = await cli(['drift', '--target', 'base', '--format', 'json'], second.env);
      const report = (drift.code === 2 ? JSON.parse(drift.stdout) : { entries: [] }) as { entries: { direction: string; kind: string; name: string; path?: string }[] };
      const want = expected;
      const found = report.entries.some((e) => e.direction === want.direction && e.kind === want.kind && e.name === want.name && e.path === want.path);
      if (!found) return violated('live-change-healed', `drift (exit ${drift.code}) does not report ${JSON.stringify(want)}:\n${drift.stdout}${drift.stderr}`);
      const heal = await cli(['apply', '--target', 'base', '--yes'], second.env);
      if (heal.code !== 0) return violated('live-change-healed', `apply exits ${heal.code}:\n${heal.stderr}`);
      // Objects of the first set that the second no longer declares stay as added in scope: only they may remain.
      const after = await cli(['drift', '--target', 'base', '--format', 'json'], second.env);
      const left = (JSON.parse(after.stdout) as { entries: { direction: string }[] }).entries.filter((e) => e.direction !== 'added');
      if (left.length > 0) return violated('live-change-healed', `drift after apply still reports:\n${after.stdout}`);
      outcomes['live-change-healed'] = 'held';
    }

    // 4b: changes anywhere in the live state, declared or not.
    const results = await liveMutations(
      {
        variant,
        set: second,
        gen,
        raw,
        drift: async () => {
          const r = await cli(['drift', '--target', 'base', '--format', 'json'], second.env);
          const entries = r.code === 0 || r.code === 2 ? (JSON.parse(r.stdout) as { entries: { direction: string; kind: string; name: string; path?: string }[] }).entries : [];
          return { code: r.code, entries: entries.filter((e) => e.direction !== 'added'), text: `${r.stdout}${r.stderr}` };
        },
        apply: async () => {
          const r = await cli(['apply', '--target', 'base', '--yes'], second.env);
          return { code: r.code, text: `${r.stdout}${r.stderr}` };
        },
      },
      MUTATIONS_PER_TRIAL,
    );
    mutated.push(...results);
    const broken = results.find((r) => r.violation !== undefined);
    if (broken?.violation !== undefined) return violated('live-mutation', broken.violation);
    outcomes['live-mutation'] = results.some((r) => r.outcome !== 'refused') ? 'held' : 'not-applicable';

    // 5: an object added in the ownership scope.
    const extra = 'cv-extra';
    // The kinds whose example object (test/support/kind-examples.ts) is valid on its own.
    const examples = await Promise.all(byName.map(async (k) => ({ kind: k, example: await KIND_EXAMPLES[k.type](extra, NO_FIXTURES) })));
    const standalone = examples.filter((e) => (e.example.requires ?? []).length === 0);
    const picked = standalone[gen(fc.nat, Math.max(0, standalone.length - 1))];
    const kind = picked?.kind;
    let created = false;
    if (picked && kind) {
      try {
        await raw(async (s) => {
          await s.create(kind.collection, { type: kind.type, attributes: { ...picked.example.attributes, name: extra } });
        }, 'cv added in scope');
        created = true;
      } catch (error) {
        debug(`create in scope refused: ${String(error)}`);
        created = false;
      }
    }
    if (!kind || !created) outcomes['scope-added-pruned'] = 'not-applicable';
    else {
      const drift = await cli(['drift', '--target', 'base', '--format', 'json'], second.env);
      const report = JSON.parse(drift.stdout) as { entries: { direction: string; kind: string; name: string }[] };
      if (!report.entries.some((e) => e.direction === 'added' && e.kind === kind.type && e.name === extra)) {
        return violated('scope-added-pruned', `drift does not report ${kind.type} '${extra}' as added:\n${drift.stdout}`);
      }
      const keep = await cli(['apply', '--target', 'base', '--yes'], second.env);
      const exists = async (): Promise<boolean> => withSession({ url: emulator.url, apiKey: emulator.apiKey }, async (s) => (await s.loadActive(), (await idOf(s, kind.type, extra)) !== undefined));
      if (keep.code !== 0 || !(await exists())) return violated('scope-added-pruned', `apply without --prune exits ${keep.code} or deleted the added object`);
      // Pruning deletes every owned object the second set no longer declares; the gateway's
      // validator may refuse that (a host left with a mode whose ACME service is pruned):
      // then plan --prune says so first, and the property is not applicable.
      const planPrune = await cli(['plan', '--target', 'base', '--prune', '--allow-mass-delete'], second.env);
      if (planPrune.code !== 0 && planPrune.code !== 2) {
        debug(`plan --prune exits ${planPrune.code}: ${planPrune.stderr}`);
        outcomes['scope-added-pruned'] = 'not-applicable';
      } else {
        const prune = await cli(['apply', '--target', 'base', '--yes', '--prune', '--allow-mass-delete'], second.env);
        if (prune.code !== 0 || (await exists())) return violated('scope-added-pruned', `apply --prune exits ${prune.code} after a successful plan --prune, or kept the added object:\n${prune.stdout}${prune.stderr}`);
        const diff = await converged(second.env, 'base');
        if (diff !== undefined) return violated('scope-added-pruned', diff);
        outcomes['scope-added-pruned'] = 'held';
      }
    }

    // 6: a per-target overlay.
    const patched = named[gen(fc.nat, Math.max(0, named.length - 1))];
    if (!patched) outcomes['overlay-converges'] = 'not-applicable';
    else {
      const skip = ['name', ...kindOf(patched.kind).identity.attributes];
      const generated = gen(() => attributesArbitrary(patched.kind, variant, { skip, secretVariable: () => 'CV_OVERLAY_SECRET', maxDepth: 3 }));
      const attributes = resolveReferences(patched.kind, generated, (target, name) => second.objects.some((o) => o.kind === target && o.name === name));
      const env = { ...second.env, CV_OVERLAY_SECRET: 'OVERLAYSECRET1' };
      await writeFile(join(dir, 'overlay', 'patch.yaml'), stringify({ apiVersion: 'gwops/v1', kind: patched.kind, name: patched.name, attributes }));
      if (!(await plannable(env, 'ov'))) outcomes['overlay-converges'] = 'not-applicable';
      else {
        const apply = await cli(['apply', '--target', 'ov', '--yes'], env);
        if (apply.code !== 0) return violated('overlay-converges', `apply --target ov exits ${apply.code} after a successful plan:\n${apply.stderr}`);
        record(exercised, patched.kind, attributes);
        const diff = await converged(env, 'ov');
        if (diff !== undefined) return violated('overlay-converges', diff);
        outcomes['overlay-converges'] = 'held';
      }
    }
    return { outcomes, exercised, mutations: mutated };
  } finally {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The live id of a declared object: by name, or for kinds identified otherwise by listing and matching the declared identity. */
async function liveId(session: GatewaySession, kind: ResourceType, name: string, set: ManifestSet): Promise<string | undefined> {
  const def = kindOf(kind);
  if (def.identity.byName) return idOf(session, kind, name);
  const declared = set.objects.find((o) => o.kind === kind && o.name === name);
  const key = declared ? def.identity.declared(declared.attributes) : undefined;
  if (!key || !('key' in key)) return undefined;
  const listed = await session.list(def.collection);
  return listed.find((r) => def.identity.live(r.attributes, () => undefined).key === key.key)?.id;
}
