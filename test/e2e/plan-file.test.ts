import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT, useHarness } from './harness.js';

describe('saved plans and output formats', () => {
  const t = useHarness();

  it('writes a plan file with --out that apply --plan executes elsewhere, without manifests, project file or secret values', async () => {
    const out = join(t.h.dir, 'plan.json');
    const plan = await t.h.cli(['plan', ...t.config, '--no-server-check', '--out', out]);
    expect(plan.code).toBe(0);
    const text = await readFile(out, 'utf8');
    const saved = JSON.parse(text) as { formatVersion: string; steps: unknown[]; gateway: unknown; desired: { objects: { attributes: unknown }[] } };
    expect(saved.formatVersion).toBe('7.0');
    expect(saved.steps.length).toBeGreaterThan(50);
    expect(saved.gateway).toEqual({ url: t.h.emulator.url, variant: 'latest' });
    for (const secret of t.h.secrets) expect(text.includes(secret)).toBe(false);
    expect(text).not.toMatch(/PRIVATE KEY/);
    // The secrets are saved as their sources, read again at apply time (a desired object is one line of compact JSON).
    expect(text).toContain('"privateKey":{"fromEnv":"GWOPS_EXAMPLE_SHOP_TLS_KEY"}');
    // Another directory: no manifests, no gwops.yaml, only the plan file and the connection.
    const elsewhere = join(t.h.dir, 'elsewhere');
    await mkdir(elsewhere, { recursive: true });
    await writeFile(join(elsewhere, 'plan.json'), text);
    const unset = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', 'plan.json'], { cwd: elsewhere, env: { GWOPS_EXAMPLE_SHOP_TLS_KEY: undefined } });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toMatch(/plan file plan\.json: secret 'privateKey' of ssl-certificate '.*': environment variable 'GWOPS_EXAMPLE_SHOP_TLS_KEY' is not set/);
    const apply = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', 'plan.json', '--comment', 'from saved plan'], { cwd: elsewhere });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toContain('from saved plan');
    // What the manifests declare is now live: the manifests plan no change.
    const after = await t.h.cli(['plan', ...t.config, '--no-server-check', '--detailed-exitcode']);
    expect(after.code).toBe(0);
  });

  it('refuses a plan file made against another gateway, naming both, before sending anything', async () => {
    const out = join(t.h.dir, 'elsewhere.json');
    expect((await t.h.cli(['plan', ...t.config, '--no-server-check', '--out', out])).code).toBe(0);
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    const requests = t.h.emulator.requestLog.length;
    const other = t.h.emulator.url.replace('127.0.0.1', 'localhost');
    const connection = t.h.connection.map((arg) => (arg === t.h.emulator.url ? other : arg));
    const apply = await t.h.cli(['apply', '--yes', ...connection, '--plan', out]);
    expect(apply.code).toBe(1);
    expect(apply.stderr.trim().split('\n')).toEqual([
      `Error: plan file ${out} was made against ${t.h.emulator.url} (variant latest), not against ${other} (variant latest), which this apply would change: apply it where it was made, or run gwops plan against this gateway`,
    ]);
    expect(t.h.emulator.requestLog.length).toBe(requests);
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
    const variant = await t.h.cli(['apply', '--yes', ...t.h.connection, '--variant', 'middle', '--plan', out]);
    expect(variant.code).toBe(1);
    expect(variant.stderr).toMatch(/\(variant latest\), not against .* \(variant middle\)/);
  });

  it('says in one line what is wrong with a corrupt or foreign plan file', async () => {
    const cases: [string, RegExp][] = [
      ['{"formatVersion": "7.0", "steps": [', /^Error: plan file .*corrupt\.json is not JSON \(/],
      ['{"name": "gwops", "version": "1.0.0"}', /^Error: plan file .*corrupt\.json is not a gwops plan \(it has no formatVersion\)/],
    ];
    for (const [content, message] of cases) {
      const file = join(t.h.dir, 'corrupt.json');
      await writeFile(file, content);
      const apply = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', file]);
      expect(apply.code).toBe(1);
      expect(apply.stderr.trim().split('\n')).toHaveLength(1);
      expect(apply.stderr).toMatch(message);
    }
  });

  it('refuses manifest paths and --prune next to --plan', async () => {
    const paths = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', 'plan.json', 'examples/manifests']);
    expect(paths.code).toBe(1);
    expect(paths.stderr).toMatch(/apply --plan takes no manifest paths \(got examples\/manifests\)/);
    const prune = await t.h.cli(['apply', '--yes', ...t.h.connection, '--plan', 'plan.json', '--prune']);
    expect(prune.code).toBe(1);
    expect(prune.stderr).toMatch(/apply --plan takes no --prune/);
  });

  it('refuses a saved plan when the live state changed since it was made', async () => {
    const out = join(t.h.dir, 'stale.json');
    await t.h.raw(async (s) => {
      const [m] = await s.list('mappings', ['name==shop-cart']);
      if (m) await s.update('mappings', m.id, { type: 'mapping', attributes: { backendPath: '/elsewhere/' } });
    }, 'drift 1');
    expect((await t.h.cli(['plan', ...t.config, '--no-server-check', '--out', out])).code).toBe(0);
    await t.h.raw(async (s) => {
      const [m] = await s.list('mappings', ['name==shop-cart']);
      if (m) await s.update('mappings', m.id, { type: 'mapping', attributes: { backendPath: '/again/' } });
    }, 'drift 2');
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    const apply = await t.h.cli(['apply', '--yes', ...t.config, '--plan', out]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toMatch(/changed since plan file/);
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
  });

  it('renders markdown for a pull-request comment and JSON for machines', async () => {
    const md = await t.h.cli(['plan', ...t.config, '--format', 'markdown']);
    expect(md.code).toBe(0);
    expect(md.stdout.startsWith('<!-- gwops-plan -->')).toBe(true);
    expect(md.stdout).toContain('shop-cart');
    const json = await t.h.cli(['plan', ...t.config, '--format', 'json', '--detailed-exitcode']);
    expect(json.code).toBe(2);
    const parsed = JSON.parse(json.stdout) as { summary: { update: number } };
    expect(parsed.summary.update).toBe(1);
  });

  it('says what is wrong when the API key is wrong, without printing it', async () => {
    const r = await t.h.cli(['plan', '--config', DEMO_PROJECT, '--url', t.h.emulator.url, '--ca-file', join(t.h.dir, 'ca.pem')], {
      env: { GWOPS_API_KEY: 'not-the-key' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/401|rejected|key/i);
    expect(r.stderr).not.toContain('not-the-key');
  });
});
