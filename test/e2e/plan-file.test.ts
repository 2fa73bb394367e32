import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO_PROJECT, useHarness } from './harness.js';

describe('saved plans and output formats', () => {
  const t = useHarness();

  it('writes a JSON plan with --out that apply --plan executes', async () => {
    const out = join(t.h.dir, 'plan.json');
    const plan = await t.h.cli(['plan', ...t.config, '--no-server-check', '--out', out]);
    expect(plan.code).toBe(0);
    const saved = JSON.parse(await readFile(out, 'utf8')) as { formatVersion: string; steps: unknown[] };
    expect(saved.formatVersion).toBe('3.0');
    expect(saved.steps.length).toBeGreaterThan(50);
    const text = await readFile(out, 'utf8');
    for (const secret of t.h.secrets) expect(text.includes(secret)).toBe(false);
    const apply = await t.h.cli(['apply', '--yes', ...t.config, '--plan', out, '--comment', 'from saved plan']);
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toContain('from saved plan');
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
