/**
 * What `apply --plan` executes is what the plan file's desired state means against the
 * live state, and nothing else: the file holds its values unchanged (never redacted), a
 * step or call edited by hand is refused, a readable secret changed on the gateway makes
 * the plan stale, a secret no step sends is not read, and the activation comment comes
 * from the commit the plan was made from (docs/architecture.md "Saved plans").
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const BACKEND = `apiVersion: gwops/v1
kind: back-end-group
name: perf-group
attributes:
  backendHosts: [{ protocol: HTTP, hostName: perf.example.com, port: 8080 }]
---
`;

const mapping = (backendPath: string): string => `apiVersion: gwops/v1
kind: mapping
name: perf-api
attributes:
  entryPath: { value: /perf/ }
  backendPath: ${backendPath}
  access:
    tokenVerification:
      signatureCheckEnforced: true
      jwsAlgorithm: HS_256
      jwsKey: { fromEnv: PERF_JWS_KEY }
relationships:
  back-end-groups: [perf-group]
---
`;

const CERTIFICATE = `apiVersion: gwops/v1
kind: ssl-certificate
name: perf-tls
attributes:
  certType: SERVER_CERT
  certificate: "\${PERF_CERT}"
  privateKey: { fromEnv: PERF_TLS_KEY }
`;

interface Entry {
  readonly comment?: string;
}

interface Saved {
  steps: Record<string, unknown>[];
  calls: Record<string, unknown>[];
  summary: Record<string, number>;
}

/** Requests that change the session's working copy or activate (not reads, not the session itself). */
const edits = (log: readonly { method: string; path: string }[]): string[] =>
  log.filter((e) => e.method !== 'GET' && !e.path.startsWith('/session/') && !e.path.endsWith('/load-active')).map((e) => `${e.method} ${e.path}`);

describe('apply --plan executes exactly what the plan file means', () => {
  const t = useHarness();
  let env: Record<string, string>;

  beforeAll(async () => {
    const now = new Date();
    const pems = await generate([{ name: 'commonName', value: 'perf.example.com' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(now.getTime() - 60_000),
      notAfterDate: new Date(now.getTime() + 365 * 24 * 3600 * 1000),
    });
    env = { PERF_CERT: pems.cert, PERF_TLS_KEY: pems.private, PERF_JWS_KEY: 'hs-passphrase-Qx7' };
  });

  const comments = async (): Promise<Entry[]> => t.h.raw(async (session) => (await session.configurations()) as Entry[]);
  const liveHosts = async (): Promise<unknown> =>
    t.h.raw(async (s) => {
      const [group] = await s.list('back-end-groups', ['name==perf-group']);
      return (group?.attributes as { backendHosts?: { hostName: string }[] } | undefined)?.backendHosts?.map((h) => h.hostName);
    });
  const liveJwsKey = async (): Promise<unknown> =>
    t.h.raw(async (s) => {
      const [m] = await s.list('mappings', ['name==perf-api']);
      return (m?.attributes as { access?: { tokenVerification?: { jwsKey?: string } } } | undefined)?.access?.tokenVerification?.jwsKey;
    });

  it('writes the plan file unredacted: a 4-character secret inside a host name stays in the file and reaches the gateway as written', async () => {
    const dir = await writeManifests(t.h, 'redaction', { 'all.yaml': BACKEND + mapping('/') });
    const out = join(t.h.dir, 'redaction.json');
    // A secret of four characters that occurs inside the back-end host name.
    const shortSecret = { ...env, PERF_JWS_KEY: 'perf' };
    const plan = await t.h.cli(['plan', dir, ...t.h.connection, '--no-server-check', '--out', out], { env: shortSecret });
    expect(plan.code, plan.stderr).toBe(0);
    const text = await readFile(out, 'utf8');
    expect(text).not.toContain('[redacted]');
    expect(text).toContain('"hostName":"perf.example.com"');
    // The secret itself is saved as its source only (a desired object is one line of compact JSON).
    expect(text).toContain('"jwsKey":{"fromEnv":"PERF_JWS_KEY"}');
    const apply = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', out, '--comment', 'unredacted'], { env: shortSecret });
    expect(apply.code, apply.stderr).toBe(0);
    expect(await liveHosts()).toEqual(['perf.example.com']);
  });

  it('refuses a plan file whose steps and calls were edited by hand, naming the difference, and sends nothing', async () => {
    const dir = await writeManifests(t.h, 'tamper', { 'all.yaml': BACKEND + mapping('/tampered/') });
    const out = join(t.h.dir, 'tamper.json');
    expect((await t.h.cli(['plan', dir, ...t.h.connection, '--no-server-check', '--out', out], { env })).code).toBe(0);
    const outsider = await t.h.raw(async (s) => s.create('virtual-hosts', { type: 'virtual-host', attributes: { name: 'outsider', hostName: 'outsider.example', networkInterface: { https: { enabled: false, http2Allowed: false } } } }), 'outsider');
    const [group] = await t.h.raw(async (s) => s.list('back-end-groups', ['name==perf-group']));
    const saved = JSON.parse(await readFile(out, 'utf8')) as Saved;
    expect(saved.steps.map((s) => [s.action, s.name])).toEqual([['update', 'perf-api']]);
    const groupPath = `/configuration/back-end-groups/${group?.id ?? ''}`;
    const hostPath = `/configuration/virtual-hosts/${outsider.id}`;
    saved.steps.push(
      {
        index: 2, action: 'update', kind: 'back-end-group', name: 'perf-group', method: 'PATCH', id: group?.id, path: groupPath, reason: 'edited',
        body: { data: { type: 'back-end-group', id: group?.id, attributes: { backendHosts: [{ protocol: 'HTTP', hostName: 'attacker.example', port: 80 }] } } },
        secretPaths: [], changes: [], unchangedCount: 0,
      },
      { index: 3, action: 'delete', kind: 'virtual-host', name: 'outsider', method: 'DELETE', id: outsider.id, path: hostPath, reason: 'edited', secretPaths: [], cause: 'prune' },
    );
    saved.calls.push(
      { index: 2, endpoint: 'object', kind: 'back-end-group', name: 'perf-group', method: 'PATCH', path: groupPath, steps: [2] },
      { index: 3, endpoint: 'object', kind: 'virtual-host', name: 'outsider', method: 'DELETE', path: hostPath, steps: [3] },
    );
    saved.summary = { ...saved.summary, update: 2 };
    await writeFile(out, JSON.stringify(saved));
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    t.h.emulator.requestLog.length = 0;
    const apply = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', out], { env });
    expect(apply.code).toBe(1);
    expect(apply.stderr).toMatch(/plan file .*tamper\.json does not match the plan its desired state makes against the live state: step 2 \(update back-end-group 'perf-group'\) is not in that plan/);
    expect(edits(t.h.emulator.requestLog)).toEqual([]);
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
    expect(await liveHosts()).toEqual(['perf.example.com']);
  });

  it('refuses a saved plan when a readable secret changed on the gateway after plan --out (the digest keyed with the plan-signing key)', async () => {
    const signing = { GWOPS_PLAN_SIGNING_KEY: 'integrity-signing-key-0123456789' };
    const synced = await writeManifests(t.h, 'secret-synced', { 'all.yaml': BACKEND + mapping('/') });
    expect((await t.h.cli(['apply', synced, ...t.h.connection, '--yes', '--comment', 'in sync'], { env })).code).toBe(0);
    // The plan changes the back-end path only: its one step sends no secret.
    const dir = await writeManifests(t.h, 'secret-drift', { 'all.yaml': BACKEND + mapping('/drift/') });
    const out = join(t.h.dir, 'secret-drift.json');
    expect((await t.h.cli(['plan', dir, ...t.h.connection, '--no-server-check', '--out', out], { env: { ...env, ...signing } })).code).toBe(0);
    await t.h.raw(async (s) => {
      const [m] = await s.list('mappings', ['name==perf-api']);
      if (m) await s.update('mappings', m.id, { type: 'mapping', attributes: { access: { tokenVerification: { signatureCheckEnforced: true, jwsAlgorithm: 'HS_256', jwsKey: 'changed-behind-the-back' } } } });
    }, 'secret changed');
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    for (const applyEnv of [{ ...env, ...signing }, { ...env, ...signing, PERF_JWS_KEY: undefined }]) {
      const apply = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', out], { env: applyEnv });
      expect(apply.code).toBe(1);
      expect(apply.stderr).toMatch(/the live configuration changed since plan file .*secret-drift\.json was made/);
      expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
    }
    expect(await liveJwsKey()).toBe('changed-behind-the-back');
    const digest = (JSON.parse(await readFile(out, 'utf8')) as { liveDigest: string }).liveDigest;
    expect(digest).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
  });

  it('reads only the secrets of the steps it sends, and activates with the commit the plan was made from', async () => {
    const first = await writeManifests(t.h, 'untouched-1', { 'all.yaml': BACKEND + mapping('/'), 'tls.yaml': CERTIFICATE });
    expect((await t.h.cli(['apply', first, ...t.h.connection, '--yes', '--comment', 'baseline'], { env })).code).toBe(0);
    const second = await writeManifests(t.h, 'untouched-2', { 'all.yaml': BACKEND + mapping('/v2/'), 'tls.yaml': CERTIFICATE });
    const out = join(t.h.dir, 'untouched.json');
    const ci = { GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567', GITHUB_SERVER_URL: 'https://git.example', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '42' };
    const plan = await t.h.cli(['plan', second, ...t.h.connection, '--no-server-check', '--out', out], { env: { ...env, ...ci } });
    expect(plan.code, plan.stderr).toBe(0);
    const saved = JSON.parse(await readFile(out, 'utf8')) as Saved & { commit: unknown };
    expect(saved.steps.map((s) => [s.action, s.name])).toEqual([['update', 'perf-api']]);
    expect(saved.commit).toEqual({ sha: ci.GITHUB_SHA, runUrl: 'https://git.example/o/r/actions/runs/42' });
    // Elsewhere, outside any Git checkout, without any secret: the one step sends none.
    const elsewhere = join(t.h.dir, 'untouched-elsewhere');
    await mkdir(elsewhere, { recursive: true });
    const apply = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', out], {
      cwd: elsewhere,
      env: { PERF_JWS_KEY: undefined, PERF_TLS_KEY: undefined, PERF_CERT: undefined },
    });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect((await comments())[0]?.comment).toMatch(/^gwops apply: 0123456 https:\/\/git\.example\/o\/r\/actions\/runs\/42 gwops-project=[0-9a-f]{12}$/);
  });
});
