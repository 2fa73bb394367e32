/**
 * Secrets that rotate: a write-only value (the gateway never returns it) gets a `version`
 * next to its source. Apply records the applied versions in the activation comment's
 * trailer; raising the version plans an update of exactly that attribute, apply sends the
 * new secret, and the next plan is empty. Neither the secret nor a hash of it is stored.
 */
import { createHash } from 'node:crypto';
import { generate } from 'selfsigned';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseVersionTrailer } from '../../src/engine/secret-versions.js';
import { useHarness, writeManifests } from './harness.js';

const certificate = (version: number): string => `apiVersion: gwops/v1
kind: ssl-certificate
name: rotating-tls
attributes:
  certType: SERVER_CERT
  certificate: "\${ROTATING_CERT}"
  privateKey: { fromEnv: ROTATING_KEY }
  passphrase: { fromEnv: TLS_PASSPHRASE, version: ${version} }
`;

interface Entry {
  comment?: string;
}

describe('a version next to a write-only secret makes its rotation a planned change', () => {
  const t = useHarness();
  let env: Record<string, string>;
  const comments = async (): Promise<Entry[]> => t.h.raw(async (session) => (await session.configurations()) as Entry[]);

  beforeAll(async () => {
    const now = new Date();
    const pems = await generate([{ name: 'commonName', value: 'rotating.example.com' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(now.getTime() - 60_000),
      notAfterDate: new Date(now.getTime() + 365 * 24 * 3600 * 1000),
    });
    env = { ROTATING_CERT: pems.cert, ROTATING_KEY: pems.private, TLS_PASSPHRASE: 'first-passphrase-Xq1' };
  });

  it('apply, bump the version, plan shows exactly that attribute, apply, plan empty', async () => {
    const v1 = await writeManifests(t.h, 'versions-1', { 'tls.yaml': certificate(1) });
    const applied = await t.h.cli(['apply', v1, ...t.h.connection, '--yes', '--comment', 'first'], { env });
    expect(applied.code, applied.stderr).toBe(0);
    const active = (await comments())[0]?.comment ?? '';
    expect(active).toMatch(/^first gwops-project=[0-9a-f]{12} gwops-secret-versions=\{"ssl-certificate":\{"rotating-tls":\{"passphrase":1\}\}\}$/);
    expect(active).not.toContain(env.TLS_PASSPHRASE);
    expect(active).not.toContain(createHash('sha256').update(env.TLS_PASSPHRASE ?? '').digest('hex'));

    // The value changes in the environment, the version does not: nothing to compare.
    const rotatedEnv = { ...env, TLS_PASSPHRASE: 'second-passphrase-Zr2' };
    const same = await t.h.cli(['plan', v1, ...t.h.connection], { env: rotatedEnv });
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toContain('No changes');

    const v2 = await writeManifests(t.h, 'versions-2', { 'tls.yaml': certificate(2) });
    const plan = await t.h.cli(['plan', v2, ...t.h.connection, '--format', 'json'], { env: rotatedEnv });
    expect(plan.code, plan.stderr).toBe(0);
    const parsed = JSON.parse(plan.stdout) as { steps: { action: string; name: string; changes: unknown[]; body: { data: { attributes: Record<string, unknown> } } }[] };
    expect(parsed.steps.map((s) => [s.action, s.name])).toEqual([['update', 'rotating-tls']]);
    expect(parsed.steps[0]?.changes).toEqual([
      { path: 'passphrase', before: '(sensitive value, version 1)', after: '(sensitive value, version 2)', sensitive: true },
    ]);
    expect(Object.keys(parsed.steps[0]?.body.data.attributes ?? {})).toEqual(['passphrase']);
    const text = await t.h.cli(['plan', v2, ...t.h.connection], { env: rotatedEnv });
    expect(text.stdout).toContain('~ passphrase = (sensitive value, version 1) -> (sensitive value, version 2)');

    const healed = await t.h.cli(['apply', v2, ...t.h.connection, '--yes', '--comment', 'rotate'], { env: rotatedEnv });
    expect(healed.code, healed.stderr).toBe(0);
    expect(parseVersionTrailer((await comments())[0]?.comment)).toEqual({ 'ssl-certificate': { 'rotating-tls': { passphrase: 2 } } });
    for (const output of [plan.stdout, text.stdout, healed.stdout, healed.stderr]) {
      expect(output).not.toContain('second-passphrase-Zr2');
      expect(output).not.toContain('first-passphrase-Xq1');
    }

    const after = await t.h.cli(['plan', v2, ...t.h.connection], { env: rotatedEnv });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain('No changes');
  });
});
