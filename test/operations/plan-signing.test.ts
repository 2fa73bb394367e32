/**
 * The plan-signing key and signature (src/operations/steps/plan-signing.ts): where the key
 * comes from, what is refused, and that signing the chunks as they are written signs the
 * bytes of the file; and the live digest's two forms (keyed with the signing key, or plain
 * with every secret masked).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { PlanSignatureError } from '../../src/engine/errors.js';
import { PLAN_SIGNING_KEY_ENV, planSigner, planSigningKey, signatureCheckOf, signedChunks, verifySignature } from '../../src/operations/steps/plan-signing.js';
import { thrownBy } from '../support/thrown.js';
import { desiredState, identityHandles } from '../../src/engine/desired.js';
import { liveState } from '../../src/engine/live.js';
import { liveStateDigest } from '../../src/engine/live-digest.js';
import type { State } from '../../src/engine/model.js';
import { doc, resource } from '../engine/helpers.js';

describe('plan signing', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gwops-signing-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the key from --plan-signing-key-file (trailing line break removed), else the environment; refuses a short key', async () => {
    const file = join(dir, 'key');
    await writeFile(file, 'file-key-0123456789abcdef\n');
    expect(planSigningKey({ planSigningKeyFile: 'key', env: { [PLAN_SIGNING_KEY_ENV]: 'env-key-0123456789abcdef' }, cwd: dir })).toBe('file-key-0123456789abcdef');
    expect(planSigningKey({ env: { [PLAN_SIGNING_KEY_ENV]: 'env-key-0123456789abcdef' }, cwd: dir })).toBe('env-key-0123456789abcdef');
    expect(planSigningKey({ env: { [PLAN_SIGNING_KEY_ENV]: '' }, cwd: dir })).toBeUndefined();
    expect(planSigningKey({ env: {}, cwd: dir })).toBeUndefined();
    const short = thrownBy(() => planSigningKey({ env: { [PLAN_SIGNING_KEY_ENV]: 'tiny-k3y' }, cwd: dir }));
    expect(short).toBeInstanceOf(ConfigError);
    expect(short.message).not.toContain('tiny-k3y');
    expect(() => planSigningKey({ planSigningKeyFile: 'absent', env: {}, cwd: dir })).toThrow(/cannot read the plan-signing key of --plan-signing-key-file absent/);
  });

  it('signs the bytes written: the chunks signed on the way give the signature of the whole file', () => {
    const signer = planSigner('k'.repeat(32));
    const chunks = [...signedChunks(['{"a":', '"é"}', '\n'], signer)];
    const whole = planSigner('k'.repeat(32));
    whole.update(Buffer.from(chunks.join(''), 'utf8'));
    const signature = signer.signature();
    expect(signature).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(whole.signature()).toBe(signature);
    expect(() => verifySignature('p.json', signature, signature)).not.toThrow();
    expect(() => verifySignature('p.json', signature, signature.replace(/.$/, (c) => (c === '0' ? '1' : '0')))).toThrow(PlanSignatureError);
  });

  it('refuses a signed file without a key, an unsigned file with one, and a malformed signature', async () => {
    const plan = join(dir, 'plan.json');
    await writeFile(plan, '{}\n');
    expect(await signatureCheckOf('plan.json', plan, undefined)).toBeUndefined();
    await expect(signatureCheckOf('plan.json', plan, 'k'.repeat(32))).rejects.toThrow(/is not signed \(no plan\.json\.sig\)/);
    await writeFile(`${plan}.sig`, 'sha256:00\n');
    await expect(signatureCheckOf('plan.json', plan, 'k'.repeat(32))).rejects.toThrow(/is not one line hmac-sha256/);
    await writeFile(`${plan}.sig`, `hmac-sha256:${'0'.repeat(64)}\n`);
    await expect(signatureCheckOf('plan.json', plan, undefined)).rejects.toThrow(/is signed \(plan\.json\.sig\), and no plan-signing key is configured/);
    expect((await signatureCheckOf('plan.json', plan, 'k'.repeat(32)))?.expected).toBe(`hmac-sha256:${'0'.repeat(64)}`);
  });
});

describe('the live digest without and with the plan-signing key', () => {
  const jws = (secret: string): Record<string, unknown> => ({
    name: 'api',
    entryPath: { value: '/api/' },
    access: { tokenVerification: { signatureCheckEnforced: true, jwsAlgorithm: 'HS_256', jwsKey: secret } },
  });
  const desired = desiredState([doc('mapping', 'api', { entryPath: { value: '/api/' }, access: { tokenVerification: { signatureCheckEnforced: true, jwsAlgorithm: 'HS_256', jwsKey: 'declared-secret' } } })]);
  const live = (secret: string): State => liveState({ mapping: [resource('mapping', '1', jws(secret))] }, identityHandles(desired));

  it('plain: no secret value goes in (the same digest whatever the secret); keyed: a changed secret changes it', () => {
    const plain = liveStateDigest(live('secret-one'), desired);
    expect(plain).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(liveStateDigest(live('secret-two'), desired)).toBe(plain);
    const key = 'k'.repeat(32);
    const keyed = liveStateDigest(live('secret-one'), desired, key);
    expect(keyed).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    expect(liveStateDigest(live('secret-two'), desired, key)).not.toBe(keyed);
    expect(liveStateDigest(live('secret-one'), desired, 'j'.repeat(32))).not.toBe(keyed);
  });
});
