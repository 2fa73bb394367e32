/**
 * A plan file is bound to what was reviewed (docs/architecture.md "Saved plans"): inside
 * the project, `apply --plan` refuses a file whose desired state is not what the
 * checkout's manifests make, even when its steps and calls were edited to match; a signed
 * file (`plan --out` with a plan-signing key) is refused after any change of its bytes,
 * without its signature, or without the key; the key is never taken from a command-line
 * value. And the documented flow works: a plan saved with the read-only API key is applied
 * with the administrator's, with or without a signing key.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const GROUP = 'apiVersion: gwops/v1\nkind: back-end-group\nname: bound-pool\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: bound.internal, port: 8080 }]\n---\n';
const mapping = (name: string, path: string): string =>
  `apiVersion: gwops/v1\nkind: mapping\nname: ${name}\nattributes:\n  entryPath: { value: /${name}/ }\n  backendPath: ${path}\nrelationships:\n  back-end-groups: [bound-pool]\n---\n`;

const SIGNING_KEY = 'e2e-plan-signing-key-7f3a9c01b2d4';

/** Requests that change the session's working copy or activate (not reads, not the session itself). */
const edits = (log: readonly { method: string; path: string }[]): string[] =>
  log.filter((e) => e.method !== 'GET' && !e.path.startsWith('/session/') && !e.path.endsWith('/load-active')).map((e) => `${e.method} ${e.path}`);

describe('plan files bound to what was reviewed', () => {
  const t = useHarness();
  const livePath = async (name: string): Promise<unknown> => t.h.raw(async (s) => (await s.list('mappings', [`name==${name}`]))[0]?.attributes.backendPath);

  it('inside the project, refuses a plan file whose desired state, step and call were edited alike', async () => {
    const project = await writeManifests(t.h, 'bound', { 'gwops.yaml': 'manifests: [m]\n' });
    await writeManifests(t.h, 'bound/m', { 'all.yaml': GROUP + mapping('bound-api', '/v1/') });
    const config = ['--config', join(project, 'gwops.yaml')];
    expect((await t.h.cli(['apply', '--yes', ...config, ...t.h.connection, '--comment', 'baseline'])).code).toBe(0);
    await writeFile(join(project, 'm', 'all.yaml'), GROUP + mapping('bound-api', '/v2/'));
    const out = join(t.h.dir, 'bound.json');
    const plan = await t.h.cli(['plan', ...config, ...t.h.connection, '--no-server-check', '--out', out]);
    expect(plan.code, plan.stderr).toBe(0);
    const text = await readFile(out, 'utf8');
    // The desired state, the step's body and changes, all alike: the plan its desired state makes.
    const forged = text.replaceAll('"/v2/"', '"/forged/"');
    expect(forged.split('"/forged/"').length).toBeGreaterThan(3);
    await writeFile(out, forged);
    t.h.emulator.requestLog.length = 0;
    const apply = await t.h.cli(['apply', '--yes', ...config, ...t.h.connection, '--plan', out]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toMatch(/does not hold the desired state that the manifests of this checkout make for its gateway: mapping 'bound-api' differs from the manifests at attributes\.backendPath/);
    expect(edits(t.h.emulator.requestLog)).toEqual([]);
    expect(t.h.emulator.requestLog).toEqual([]);
    expect(await livePath('bound-api')).toBe('/v1/');
    // The file as written applies.
    await writeFile(out, text);
    const unedited = await t.h.cli(['apply', '--yes', ...config, ...t.h.connection, '--plan', out]);
    expect(unedited.code, unedited.stderr).toBe(0);
    expect(await livePath('bound-api')).toBe('/v2/');
  });

  it('refuses a signed plan file with one byte changed, without its signature, or without the key; applies it with the key from a file', async () => {
    const dir = await writeManifests(t.h, 'signed', { 'all.yaml': GROUP + mapping('signed-api', '/signed/') });
    const out = join(t.h.dir, 'signed.json');
    const ci = { GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567' };
    const plan = await t.h.cli(['plan', dir, ...t.h.connection, '--no-server-check', '--out', out], { env: { GWOPS_PLAN_SIGNING_KEY: SIGNING_KEY, ...ci } });
    expect(plan.code, plan.stderr).toBe(0);
    const signature = await readFile(`${out}.sig`, 'utf8');
    expect(signature).toMatch(/^hmac-sha256:[0-9a-f]{64}\n$/);
    const bytes = await readFile(out);
    expect(bytes.toString('utf8')).not.toContain(SIGNING_KEY);
    expect((JSON.parse(bytes.toString('utf8')) as { liveDigest: string }).liveDigest).toMatch(/^hmac-sha256:/);

    // One byte: the commit the activation comment is made from.
    const at = bytes.indexOf('0123456789abcdef0123456789abcdef01234567');
    const changed = Buffer.from(bytes);
    changed[at] = '9'.charCodeAt(0);
    await writeFile(out, changed);
    const keyed = { env: { GWOPS_PLAN_SIGNING_KEY: SIGNING_KEY } };
    t.h.emulator.requestLog.length = 0;
    const forged = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', out], keyed);
    expect(forged.code).toBe(1);
    expect(forged.stderr).toMatch(/plan file .*signed\.json does not match its signature .*signed\.json\.sig: it was changed after it was signed/);
    expect(t.h.emulator.requestLog).toEqual([]);

    await writeFile(out, bytes);
    await rm(`${out}.sig`);
    const unsigned = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', out], keyed);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stderr).toContain('is not signed');
    await writeFile(`${out}.sig`, signature);
    const keyless = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', out]);
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toContain('no plan-signing key is configured');
    const otherKey = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', out], { env: { GWOPS_PLAN_SIGNING_KEY: `${SIGNING_KEY}-other` } });
    expect(otherKey.code).toBe(1);
    expect(otherKey.stderr).toContain('does not match its signature');
    expect(t.h.emulator.requestLog).toEqual([]);

    // The key is never a command-line value.
    const argv = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', out, '--plan-signing-key', SIGNING_KEY]);
    expect(argv.code).toBe(1);
    expect(argv.stderr).toContain('--plan-signing-key is not accepted');
    expect(argv.stdout + argv.stderr).not.toContain(SIGNING_KEY);
    expect(t.h.emulator.requestLog).toEqual([]);

    const keyFile = join(t.h.dir, 'signing.key');
    await writeFile(keyFile, `${SIGNING_KEY}\n`, { mode: 0o600 });
    const apply = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', out, '--plan-signing-key-file', keyFile]);
    expect(apply.code, apply.stderr).toBe(0);
    expect((t.h.emulator.activeSnapshot() as { comment?: string }).comment).toMatch(/^gwops apply: 0123456 gwops-project=[0-9a-f]{12}$/);
    expect(t.h.outputs.join('\n')).not.toContain(SIGNING_KEY);
  });

  it('applies with the administrator key a plan saved with the read-only key, unsigned and signed', async () => {
    const readOnly = join(t.h.dir, 'read-only-key');
    await writeFile(readOnly, t.h.emulator.readOnlyApiKey, { mode: 0o600 });
    const [, url, , , , ca] = t.h.connection;
    const viewer = ['--url', url ?? '', '--api-key-file', readOnly, '--ca-file', ca ?? ''];
    for (const [name, env] of [['ro-plain', {}], ['ro-signed', { GWOPS_PLAN_SIGNING_KEY: SIGNING_KEY }]] as const) {
      const dir = await writeManifests(t.h, name, { 'all.yaml': GROUP + mapping(name, `/${name}/`) });
      const out = join(t.h.dir, `${name}.json`);
      const plan = await t.h.cli(['plan', dir, ...viewer, '--no-server-check', '--out', out], { env });
      expect(plan.code, plan.stderr).toBe(0);
      const apply = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', out], { env });
      expect(apply.stderr).not.toContain('live configuration changed');
      expect(apply.code, apply.stderr).toBe(0);
      expect(await livePath(name)).toBe(`/${name}/`);
    }
  });
});
