/**
 * Plan files (src/operations/steps/saved-plan.ts): what `apply --plan` reads and refuses, and
 * that a secret is saved as its source, never as its value.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { PlanGatewayMismatchError } from '../../src/engine/errors.js';
import { emptyObjectMaps } from '../../src/engine/model.js';
import type { State, StateObject } from '../../src/engine/model.js';
import { PLAN_FORMAT_VERSION } from '../../src/engine/plan-types.js';
import { checkPlanGateway, planFileOf, readPlanFile } from '../../src/operations/steps/saved-plan.js';
import { desiredOfPlanFile } from '../../src/operations/steps/saved-plan-secrets.js';
import { renderPlanFile } from '../../src/render/index.js';
import { EMPTY_PLAN } from '../engine/helpers.js';
import type { PlanFile } from '../../src/engine/plan-file.js';
import { secretAttributes } from '../../src/schema/index.js';

function write(content: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gwops-plan-file-'));
  writeFileSync(join(dir, 'plan.json'), content);
  return { dir, file: 'plan.json' };
}

const plan = EMPTY_PLAN;

const gateway = { url: 'https://gw.example:8443/airlock/rest', variant: 'latest', target: 'prod' } as const;
const options = { prune: false, allowMassDelete: false, massDeleteShare: 0.5 } as const;

/** A desired state with one secret-bearing object, its secret read from `value`. */
function desiredWithSecret(value: string): { desired: State; kind: PlanFile['desired']['objects'][number]['kind']; path: readonly string[] } {
  const objects = emptyObjectMaps();
  for (const [kind] of objects) {
    const secret = secretAttributes(kind).find((p) => !p.segments.includes('*'));
    if (!secret) continue;
    const attributes: Record<string, unknown> = {};
    let node = attributes;
    secret.segments.forEach((segment, i) => {
      if (i === secret.segments.length - 1) node[segment] = value;
      else {
        const child: Record<string, unknown> = {};
        node[segment] = child;
        node = child;
      }
    });
    objects.get(kind)?.set('holder', { kind, name: 'holder', attributes });
    return { desired: { objects, links: [], declaredRelationships: [] }, kind, path: secret.segments };
  }
  throw new Error('no kind has a secret attribute');
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, s) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[s] : undefined), root);
}

describe('plan files', () => {
  it('is at format 7.0: plan files carry the gateway and the desired state since 4.0, their options and commit since 5.0, content uploads and sub-resource updates since 6.0, links and declared relationships as tuples since 7.0', () => {
    expect(PLAN_FORMAT_VERSION).toBe('7.0');
  });

  it('saves a secret as its source and reads the value from that source again at apply time', async () => {
    const secret = 'tls-private-key-value-1234';
    const { desired, kind, path } = desiredWithSecret(secret);
    const saved = planFileOf(plan, desired, {}, gateway, new Map([[secret, { fromEnv: 'TLS_KEY' }]]), '/work');
    const text = renderPlanFile(saved);
    expect(text).not.toContain(secret);
    const { dir, file } = write(text);
    const read = await readPlanFile(file, dir);
    expect(valueAt(read.desired.objects[0]?.attributes, path)).toEqual({ fromEnv: 'TLS_KEY' });
    const rotated = desiredOfPlanFile(read, file, { TLS_KEY: 'rotated-value' }, dir);
    expect(valueAt(rotated.objects.get(kind)?.get('holder')?.attributes, path)).toBe('rotated-value');
    expect(() => desiredOfPlanFile(read, file, {}, dir)).toThrow(/plan file plan.json: secret '.*' of .* 'holder': environment variable 'TLS_KEY' is not set/);
  });

  it("keeps the declared secret versions, so apply --plan records the same versions in its activation comment", async () => {
    const secret = 'versioned-secret-value-5678';
    const { desired, kind, path } = desiredWithSecret(secret);
    const holder = desired.objects.get(kind)?.get('holder');
    if (!holder) throw new Error('no holder');
    const versioned: StateObject = { ...holder, secretVersions: { [path.join('.')]: 3 } };
    (desired.objects.get(kind) as Map<string, StateObject> | undefined)?.set('holder', versioned);
    const text = renderPlanFile(planFileOf(plan, desired, {}, gateway, new Map([[secret, { fromEnv: 'TLS_KEY' }]]), '/work'));
    const { dir, file } = write(text);
    const read = await readPlanFile(file, dir);
    const back = desiredOfPlanFile(read, file, { TLS_KEY: secret }, dir);
    expect(back.objects.get(kind)?.get('holder')?.secretVersions).toEqual({ [path.join('.')]: 3 });
  });

  it('writes a fromFile source inside the working directory relative to it', () => {
    const { desired, path } = desiredWithSecret('pem');
    const saved = planFileOf(plan, desired, {}, gateway, new Map([['pem', { fromFile: '/work/repo/secrets/key.pem' }]]), '/work/repo');
    expect(valueAt(saved.desired.objects[0]?.attributes, path)).toEqual({ fromFile: join('secrets', 'key.pem') });
  });

  it('refuses to save a secret written in the manifest, naming the attribute but not the value', () => {
    const { desired } = desiredWithSecret('literal-secret-9876');
    expect(() => planFileOf(plan, desired, {}, gateway, new Map(), '/work')).toThrow(InputError);
    expect(() => planFileOf(plan, desired, {}, gateway, new Map(), '/work')).not.toThrow(/literal-secret-9876/);
  });

  it.each([
    ['not JSON', '{ "formatVersion": ', /^plan file plan\.json is not JSON \(/],
    ['foreign JSON', '{"name": "some package"}', /^plan file plan\.json is not a gwops plan \(it has no formatVersion\)/],
    ['an array', '[1, 2]', /^plan file plan\.json is not a gwops plan/],
    ['an older format', JSON.stringify({ ...plan, formatVersion: '3.0' }), /^plan file plan\.json has formatVersion "3\.0"; this gwops reads 7\.0: run gwops plan --out again$/],
    ['plan --format json output', JSON.stringify(plan), /^plan file plan\.json is not a complete gwops plan: it has no 'gateway' member \(write plan files with gwops plan --out\)$/],
    ['a broken step', JSON.stringify({ ...plan, steps: [{ index: 7 }] }), /^plan file plan\.json is not a complete gwops plan: a step is malformed$/],
    ['no options', JSON.stringify({ ...plan, gateway, ownership: {}, commit: {} }), /: its 'options' member is malformed$/],
    ['a foreign commit member', JSON.stringify({ ...plan, gateway, ownership: {}, options, commit: { sha: 7 } }), /: its 'commit' member is malformed$/],
    ['a broken desired state', JSON.stringify({ ...plan, gateway, ownership: {}, options, commit: {}, desired: { objects: [{ kind: 'nonsense' }], links: [], declaredRelationships: [] } }), /a desired object is malformed$/],
  ])('refuses %s with one line naming the file and what is wrong', async (_what, content, message) => {
    const { dir, file } = write(content);
    const attempt = readPlanFile(file, dir);
    await expect(attempt).rejects.toBeInstanceOf(InputError);
    await expect(attempt).rejects.toThrow(message);
    // One line: the whole message matches a pattern without line breaks.
    await expect(attempt).rejects.toThrow(/^[^\n]*$/);
  });

  it('refuses a missing file with the reason', async () => {
    await expect(readPlanFile('absent.json', tmpdir())).rejects.toThrow('cannot read plan file absent.json: no such file or directory (ENOENT)');
  });

  it('accepts the gateway it was made against and refuses another, naming both', () => {
    expect(() => checkPlanGateway('p.json', gateway, { ...gateway, url: `${gateway.url}/` })).not.toThrow();
    expect(() => checkPlanGateway('p.json', gateway, { url: gateway.url, variant: 'latest' })).not.toThrow();
    const other = { url: 'https://staging.example/airlock/rest', variant: 'latest', target: 'staging' } as const;
    expect(() => checkPlanGateway('p.json', gateway, other)).toThrow(PlanGatewayMismatchError);
    expect(() => checkPlanGateway('p.json', gateway, other)).toThrow(
      "plan file p.json was made against target 'prod' (https://gw.example:8443/airlock/rest, variant latest), not against target 'staging' (https://staging.example/airlock/rest, variant latest)",
    );
    expect(() => checkPlanGateway('p.json', gateway, { ...gateway, variant: 'earliest' })).toThrow(/variant earliest/);
    expect(() => checkPlanGateway('p.json', gateway, { ...gateway, target: 'prod-copy' })).toThrow(PlanGatewayMismatchError);
  });
});
