/**
 * Drill "plan-file mutation": a real plan file (`plan --out`, with creates, updates,
 * links and a readable secret its steps send) is edited at random by fast-check over every
 * JSON path it has: values changed (to another value of the file, another type, another
 * digest or id), members deleted or added, array items reordered or duplicated.
 * `apply --plan` of each edited file must either refuse, sending no edit, or send exactly
 * the requests the unedited file sends (method, path and body, as the proxy sees them),
 * never anything else. The activation is answered by the proxy and never reaches the
 * emulator, so the live state, and with it the plan, is the same for every trial.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drillMode, drillSeed, recordDrill } from './record.js';
import type { Run } from './support.js';
import { leakedSecrets, showsCrash, startDrillGateway, within, writeDrillManifests } from './support.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = readonly (string | number)[];

const FAMILIES = ['change a value', 'delete a member', 'add a member', 'reorder an array', 'change a digest or id'] as const;
type Family = (typeof FAMILIES)[number];

interface Figures {
  trials: number;
  refused: number;
  sentAsFresh: number;
  sentOther: number;
  sentBeforeRefusal: number;
  badExit: number;
  crashes: number;
  secrets: number;
}

const empty = (): Figures => ({ trials: 0, refused: 0, sentAsFresh: 0, sentOther: 0, sentBeforeRefusal: 0, badExit: 0, crashes: 0, secrets: 0 });

const JWS_SECRET = 'drill-jws-passphrase-Qz8';
const mapping = (): string => `apiVersion: gwops/v1
kind: mapping
name: pf-signed
attributes:
  entryPath: { value: /pf-signed/ }
  backendPath: /
  access:
    tokenVerification: { signatureCheckEnforced: true, jwsAlgorithm: HS_256, jwsKey: { fromEnv: DRILL_JWS } }
relationships:
  back-end-groups: [pf-backend-1]
`;

/** Every path of `value` (containers and leaves), the root excluded. */
function pathsOf(value: Json, at: Path = []): Path[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => [[...at, i], ...pathsOf(item, [...at, i])]);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [[...at, k], ...pathsOf(v, [...at, k])]);
  return [];
}

function parentOf(root: Json, path: Path): Json | undefined {
  let node: Json | undefined = root;
  for (const segment of path.slice(0, -1)) node = node !== null && typeof node === 'object' ? (node as Record<string | number, Json>)[segment] : undefined;
  return node;
}

/** Values a changed leaf may take: other types, near misses, and values found elsewhere in the file. */
function replacements(root: Json): Json[] {
  const found = pathsOf(root)
    .map((p) => (parentOf(root, p) as Record<string | number, Json>)[p[p.length - 1] as string] ?? null)
    .filter((v) => v === null || typeof v !== 'object');
  return [null, true, false, 0, -1, 1.5, 2, '', 'x', 'attacker.example', '{mapping:pf-signed}', '/configuration/virtual-hosts/1', [], {}, ...found.slice(0, 200)];
}

/** The edit of `family` at `pick` (a number in 0..1 per choice), applied to a copy of `root`; the path it touched. */
function mutate(root: Json, family: Family, picks: readonly number[]): { file: Json; at: string } {
  const file = structuredClone(root);
  const choose = <T,>(items: readonly T[], i: number): T => items[Math.min(items.length - 1, Math.floor((picks[i] ?? 0) * items.length))] as T;
  const paths = pathsOf(file);
  const set = (path: Path, value: Json | undefined): void => {
    const parent = parentOf(file, path) as Record<string | number, Json> | Json[];
    const key = path[path.length - 1] as string | number;
    if (Array.isArray(parent) && typeof key === 'number') {
      if (value === undefined) parent.splice(key, 1);
      else parent[key] = value;
    } else if (value === undefined) delete (parent as Record<string, Json>)[key];
    else (parent as Record<string, Json>)[key] = value;
  };
  const get = (path: Path): Json => (parentOf(file, path) as Record<string | number, Json>)[path[path.length - 1] as string] ?? null;
  const shown = (path: Path): string => path.join('.');
  switch (family) {
    case 'change a value': {
      const path = choose(paths, 0);
      set(path, choose(replacements(file), 1));
      return { file, at: shown(path) };
    }
    case 'delete a member': {
      const path = choose(paths, 0);
      set(path, undefined);
      return { file, at: shown(path) };
    }
    case 'add a member': {
      const containers = [[] as Path, ...paths.filter((p) => typeof get(p) === 'object' && get(p) !== null)];
      const path = choose(containers, 0);
      const target = path.length === 0 ? file : get(path);
      if (Array.isArray(target)) target.splice(Math.floor((picks[1] ?? 0) * (target.length + 1)), 0, structuredClone(target.length > 0 ? choose(target, 2) : 'x'));
      else if (target !== null && typeof target === 'object') target[choose(['extra', 'id', 'secretPaths', 'relationships', 'prune', 'body'], 1)] = choose(replacements(file), 2);
      return { file, at: shown(path) };
    }
    case 'reorder an array': {
      const arrays = paths.filter((p) => Array.isArray(get(p)) && (get(p) as Json[]).length > 1);
      if (arrays.length === 0) return { file, at: '(none)' };
      const path = choose(arrays, 0);
      const list = get(path) as Json[];
      const i = Math.floor((picks[1] ?? 0) * list.length);
      const j = (i + 1 + Math.floor((picks[2] ?? 0) * (list.length - 1))) % list.length;
      [list[i], list[j]] = [list[j] as Json, list[i] as Json];
      return { file, at: shown(path) };
    }
    case 'change a digest or id': {
      const keyed = paths.filter((p) => ['liveDigest', 'id', 'path', 'index', 'steps', 'related', 'secretPaths'].includes(String(p[p.length - 1])));
      const path = choose(keyed, 0);
      const value = get(path);
      const changed: Json =
        typeof value === 'string'
          ? choose([value.replace(/[0-9a-f]$/, (c) => (c === '0' ? '1' : '0')), `${value}0`, value.replace(/\d+/, (n) => String(Number(n) + 1)), 'sha256:0'], 1)
          : typeof value === 'number'
            ? value + 1
            : Array.isArray(value)
              ? [...value, ...value.slice(0, 1)]
              : null;
      set(path, changed);
      return { file, at: shown(path) };
    }
  }
}

/** One edit request as sent: method, path and body (the proxy sees the bodies; the emulator's log never has them). */
interface Sent {
  readonly method: string;
  readonly path: string;
  readonly body: string;
}

describe('drill: plan-file mutation', () => {
  it('apply --plan of an edited plan file refuses or sends exactly what the unedited file sends', async () => {
    const seed = drillSeed(777);
    const runs = drillMode() === 'full' ? 400 : 6;
    const gateway = await startDrillGateway();
    const figures = new Map<Family, Figures>(FAMILIES.map((f) => [f, empty()]));
    const samples: string[] = [];
    gateway.secrets.push(JWS_SECRET);
    try {
      const m = await writeDrillManifests(gateway.dir, 'pf', 3);
      await writeFile(join(m.base, 'signed.yaml'), mapping());
      await writeFile(join(m.target, 'signed.yaml'), mapping());
      const base = await gateway.cli(['apply', m.base, ...gateway.direct, '--yes', '--comment', 'base'], { DRILL_JWS: 'drill-base-passphrase-1' });
      expect(base.code, base.stderr).toBe(0);
      const env = { DRILL_JWS: JWS_SECRET };
      const planFile = join(gateway.dir, 'plan.json');
      const plan = await gateway.cli(['plan', m.target, ...gateway.viaProxy, '--no-server-check', '--out', planFile], env);
      expect(plan.code, plan.stderr).toBe(0);
      const original = JSON.parse(await readFile(planFile, 'utf8')) as Json;

      // The proxy records every edit and answers the activation itself: nothing is ever activated.
      let sent: Sent[] = [];
      let activations = 0;
      gateway.intercept = (call) => {
        if (call.path.endsWith('/configuration/configurations/activate')) {
          activations += 1;
          return { reply: { status: 403, body: '{"errors":[{"status":"403","code":"FORBIDDEN","title":"the drill never activates"}]}' } };
        }
        const isEdit = call.method !== 'GET' && !call.path.includes('/session/') && !call.path.endsWith('/load-active');
        if (isEdit) sent.push({ method: call.method, path: call.path, body: call.body });
        return undefined;
      };
      const applyFile = async (file: string): Promise<{ run: Run; sent: Sent[]; activated: boolean }> => {
        sent = [];
        activations = 0;
        const run = await within(60_000, `apply --plan ${file}`, gateway.cli(['apply', '--yes', '--plan', file, ...gateway.viaProxy], env));
        return { run, sent, activated: activations > 0 };
      };
      // What the unedited file sends (twice: ids the gateway assigns must not make it vary).
      const reference = await applyFile(planFile);
      expect(reference.activated, reference.run.stderr).toBe(true);
      expect(reference.sent.length).toBeGreaterThan(5);
      expect(reference.sent.some((s) => s.body.includes(JWS_SECRET))).toBe(true);
      expect((await applyFile(planFile)).sent).toEqual(reference.sent);

      const mutated = join(gateway.dir, 'mutated.json');
      const trial = fc.record({ family: fc.constantFrom(...FAMILIES), picks: fc.array(fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }), { minLength: 3, maxLength: 3 }) });
      const details = await fc.check(
        fc.asyncProperty(fc.array(trial, { minLength: 1, maxLength: 3 }), async (edits) => {
          let file = original;
          const where: string[] = [];
          for (const edit of edits) {
            const next = mutate(file, edit.family, edit.picks);
            file = next.file;
            where.push(`${edit.family} at ${next.at}`);
          }
          const family = (edits[edits.length - 1] ?? edits[0])?.family ?? 'change a value';
          const f = figures.get(family) ?? empty();
          f.trials += 1;
          await writeFile(mutated, JSON.stringify(file, null, 2));
          gateway.outputs.length = 0;
          const result = await applyFile(mutated);
          const same = JSON.stringify(result.sent) === JSON.stringify(reference.sent);
          if (showsCrash(result.run)) f.crashes += 1;
          if (![0, 1].includes(result.run.code)) f.badExit += 1;
          f.secrets += leakedSecrets(gateway.outputs, gateway.secrets).length;
          let violation: string | undefined;
          if (result.sent.length === 0 && !result.activated) {
            f.refused += 1;
            if (result.run.code !== 1 || !/^Error: /m.test(result.run.stderr)) {
              f.badExit += 1;
              violation = `refused without a one-line error (exit ${result.run.code})`;
            }
          } else if (same && result.activated) {
            f.sentAsFresh += 1;
          } else if (!result.activated) {
            f.sentBeforeRefusal += 1;
            violation = `sent ${result.sent.length} edit(s), then stopped: ${result.run.stderr.slice(0, 300)}`;
          } else {
            f.sentOther += 1;
            violation = `sent other requests than the unedited file: ${JSON.stringify(result.sent).slice(0, 300)}`;
          }
          if (violation !== undefined) {
            samples.push(`${where.join('; ')}: ${violation}`);
            throw new Error(`${where.join('; ')}: ${violation}`);
          }
        }),
        { seed, numRuns: runs, endOnFailure: true },
      );
      if (details.failed) samples.push(fc.defaultReportMessage(details) ?? '');
    } finally {
      await gateway.close();
    }
    const violations = recordDrill({
      id: 'plan-file-mutation',
      title: 'Plan-file mutation',
      description:
        'A real plan file (plan --out: creates, updates, links, a readable secret the steps send) edited at random with fast-check over ' +
        'every JSON path: values changed, members deleted or added, arrays reordered, digests and ids changed (one to three edits per ' +
        'trial, counted under the last). apply --plan must refuse with one error line and send no edit, or send exactly the requests ' +
        '(method, path, body) of the unedited file; the activation is answered by the proxy, so the live state never changes.',
      seed,
      columns: ['edit', 'trials', 'refused', 'sent as the fresh plan', 'sent other requests', 'sent, then stopped', 'other exit codes', 'crashes', 'secrets found'],
      rows: FAMILIES.map((family) => {
        const f = figures.get(family) ?? empty();
        return [family, f.trials, f.refused, f.sentAsFresh, f.sentOther, f.sentBeforeRefusal, f.badExit, f.crashes, f.secrets];
      }),
      mustBeZero: ['sent other requests', 'sent, then stopped', 'other exit codes', 'crashes', 'secrets found'],
    });
    expect(samples).toEqual([]);
    expect(violations).toEqual([]);
  }, 3_600_000);
});
