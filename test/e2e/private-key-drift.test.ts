/**
 * A certificate's `privateKey` is returned by GET (docs/gateway-api.md "Attributes and
 * server defaults"), so a key replaced on the gateway behind gwops's back is drift: `drift`
 * reports it (exit 2) without showing either key, `apply` sends the declared key again,
 * and the next drift is empty. `export` and `drift --adopt` never write the key: it
 * becomes a `{ fromEnv }` source.
 */
import { createPrivateKey } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { beforeAll, describe, expect, it } from 'vitest';
import { SENSITIVE_MASK } from '../../src/engine/plan-types.js';
import { useHarness, writeManifests } from './harness.js';
import type { CliResult } from './harness.js';

const MANIFEST = `apiVersion: gwops/v1
kind: ssl-certificate
name: hand-tls
attributes:
  certType: SERVER_CERT
  certificate: "\${HAND_CERT}"
  privateKey: { fromEnv: HAND_KEY }
`;

/** Every 40-character window of `pem`'s text without its armour lines (what a leak would show). */
function windows(pem: string): string[] {
  const body = pem
    .split('\n')
    .filter((l) => !l.startsWith('-----'))
    .join('');
  const out: string[] = [];
  for (let i = 0; i + 40 <= body.length; i++) out.push(body.slice(i, i + 40));
  return out;
}

function expectNoKey(run: CliResult, keys: readonly string[]): void {
  const output = run.stdout + run.stderr;
  expect(output).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
  for (const key of keys) {
    expect(output).not.toContain(key.trim());
    for (const w of windows(key)) expect(output).not.toContain(w);
  }
}

describe('a private key replaced on the gateway', () => {
  const t = useHarness();
  let env: Record<string, string>;
  let declaredKey: string;
  let otherKeys: { name: string; pem: string }[];

  beforeAll(async () => {
    const pems = await generate([{ name: 'commonName', value: 'hand.example.com' }], { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' });
    const stranger = await generate([{ name: 'commonName', value: 'stranger.example.com' }], { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' });
    declaredKey = pems.private;
    env = { HAND_CERT: pems.cert, HAND_KEY: declaredKey };
    otherKeys = [
      // The certificate's own key, stored in another form (SEC1 instead of PKCS#8): a matching pair, but not what was declared.
      { name: 'the same key pair in another encoding', pem: createPrivateKey(declaredKey).export({ type: 'sec1', format: 'pem' }).toString() },
      { name: 'a key that does not belong to the certificate', pem: stranger.private },
    ];
  });

  it('is drift that drift reports without either key, apply restores, and the next drift is empty', async () => {
    const dir = await writeManifests(t.h, 'hand', { 'tls.yaml': MANIFEST });
    const applied = await t.h.cli(['apply', dir, ...t.h.connection, '--yes', '--comment', 'with its key'], { env });
    expect(applied.code, applied.stderr).toBe(0);
    const clean = await t.h.cli(['drift', dir, ...t.h.connection], { env });
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);

    for (const other of otherKeys) {
      const keys = [declaredKey, other.pem];
      await t.h.raw(async (s) => {
        const found = (await s.list('ssl-certificates')).filter((c) => c.attributes.certificate === env.HAND_CERT);
        expect(found, 'the applied certificate').toHaveLength(1);
        await s.update('ssl-certificates', found[0]?.id ?? '', { type: 'ssl-certificate', attributes: { privateKey: other.pem } });
      }, 'key replaced by hand');
      const live = await t.h.raw(async (s) => (await s.list('ssl-certificates')).find((c) => c.attributes.certificate === env.HAND_CERT));
      expect(live?.attributes.privateKey, other.name).toBe(other.pem);

      const text = await t.h.cli(['drift', dir, ...t.h.connection], { env });
      expect(text.code, `${other.name}: ${text.stdout}${text.stderr}`).toBe(2);
      expect(text.stdout).toMatch(/# ssl-certificate "hand-tls"[^\n]*\n\s+privateKey: manifests \(sensitive value\), gateway \(sensitive value\)\n/);
      expectNoKey(text, keys);

      const json = await t.h.cli(['drift', dir, ...t.h.connection, '--format', 'json'], { env });
      expect(json.code, other.name).toBe(2);
      const report = JSON.parse(json.stdout) as { entries: { direction: string; kind: string; name: string; path?: string }[] };
      expect(report.entries).toEqual([
        expect.objectContaining({ direction: 'changed', kind: 'ssl-certificate', name: 'hand-tls', path: 'privateKey', declared: SENSITIVE_MASK, live: SENSITIVE_MASK }),
      ]);
      expectNoKey(json, keys);

      const plan = await t.h.cli(['plan', dir, ...t.h.connection, '--format', 'json'], { env });
      expect(plan.code, plan.stderr).toBe(0);
      const parsed = JSON.parse(plan.stdout) as { steps: { action: string; name: string; changes: { path: string; sensitive: boolean }[] }[] };
      expect(parsed.steps.map((s) => [s.action, s.name, s.changes.map((c) => [c.path, c.sensitive])])).toEqual([['update', 'hand-tls', [['privateKey', true]]]]);
      expectNoKey(plan, keys);

      // drift --adopt never writes the key into the manifest: its source stays as it was.
      const adopted = await t.h.cli(['drift', dir, ...t.h.connection, '--adopt'], { env });
      expectNoKey(adopted, keys);
      expect(adopted.stdout + adopted.stderr).toContain('a secret is never written into a manifest');
      expect(await readFile(join(dir, 'tls.yaml'), 'utf8')).toBe(MANIFEST);

      const restored = await t.h.cli(['apply', dir, ...t.h.connection, '--yes', '--comment', 'restore the key'], { env });
      expect(restored.code, restored.stderr).toBe(0);
      expectNoKey(restored, keys);
      const back = await t.h.raw(async (s) => (await s.list('ssl-certificates')).find((c) => c.attributes.certificate === env.HAND_CERT));
      expect(back?.attributes.privateKey, other.name).toBe(declaredKey);

      const again = await t.h.cli(['drift', dir, ...t.h.connection], { env });
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expectNoKey(again, keys);
    }
  });

  it('export writes the key as a { fromEnv } source, never the PEM', async () => {
    const out = join(t.h.dir, 'hand-export');
    const run = await t.h.cli(['export', ...t.h.connection, '--out', out, '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expectNoKey(run, [declaredKey]);
    const result = JSON.parse(run.stdout) as { secrets: { variable: string; kind: string; attribute: string; writeOnly: boolean }[] };
    // Readable: the export says so (the variable is to be set to the live key), yet writes no value.
    expect(result.secrets).toContainEqual(expect.objectContaining({ kind: 'ssl-certificate', attribute: 'privateKey', writeOnly: false }));
    const files = await readdir(out, { recursive: true });
    const texts = await Promise.all(files.filter((f) => /\.(ya?ml|example)$/.test(f)).map((f) => readFile(join(out, f), 'utf8')));
    const certificate = texts.find((text) => text.includes('kind: ssl-certificate') && text.includes('privateKey:'));
    expect(certificate).toMatch(/privateKey:\s*\{\s*fromEnv: \w+\s*\}|privateKey:\n\s+fromEnv: \w+/);
    const all = texts.join('\n');
    expect(all).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
    for (const w of windows(declaredKey)) expect(all).not.toContain(w);
  });
});
