/**
 * `gwops export` and deny rule use against the emulator (docs/manifest-reference.md "Deny rule
 * use"): a mapping whose use of a built-in group (log-only with an exception), a built-in rule
 * (log-only) and a custom group (log-only) was changed through the raw API exports exactly
 * those entries by default, by short name and by name, and the export plans no change; with
 * `--no-deny-rule-use` no deny rule use is read nor written, and the summary lists it as not
 * exported; `init --from-gateway` does the same.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { useHarness } from './harness.js';

const EXCEPTION = { enabled: true, parameterNamePattern: { enabled: true, pattern: '^q$', name: 'search' } };

describe('gwops export of deny rule use', () => {
  const t = useHarness();
  let counter = 0;

  beforeAll(async () => {
    await t.h.raw(async (s) => {
      const backend = await s.create('back-end-groups', { type: 'back-end-group', attributes: { name: 'shop-backend', backendHosts: [{ protocol: 'HTTP', hostName: 'shop.internal', port: 80 }] } });
      const mapping = await s.create('mappings', { type: 'mapping', attributes: { name: 'shop', entryPath: { value: '/shop/' } } });
      await s.link('mappings', mapping.id, 'back-end-groups', [{ type: 'back-end-group', id: backend.id }]);
      const rule = await s.create('custom-deny-rules', {
        type: 'custom-deny-rule',
        attributes: { name: 'shop-no-admin', restrictions: { pathPattern: { enabled: true, name: 'admin', pattern: '^/shop/admin/' } } },
      });
      const group = await s.create('custom-deny-rule-groups', { type: 'custom-deny-rule-group', attributes: { name: 'shop-rules' } });
      await s.link('custom-deny-rule-groups', group.id, 'custom-deny-rules', [{ type: 'custom-deny-rule', id: rule.id }]);
      const use = `mappings/${mapping.id}`;
      await s.update(`${use}/deny-rule-groups`, 'SQLI_PARAM_VALUE', { type: 'mapping-deny-rule-group', attributes: { logOnly: true, exceptions: [EXCEPTION] } }, undefined, { withId: false });
      await s.update(`${use}/deny-rules`, 'XSS_001a', { type: 'mapping-deny-rule', attributes: { logOnly: true } }, undefined, { withId: false });
      await s.update(`${use}/custom-deny-rule-groups`, group.id, { type: 'mapping-custom-deny-rule-group', attributes: { logOnly: true } });
      // Set and set back: the use equals the default again and is not written.
      await s.update(`${use}/custom-deny-rules`, rule.id, { type: 'mapping-custom-deny-rule', attributes: { logOnly: false } });
    }, 'deny rule use changed by hand');
  });

  async function exported(flags: readonly string[]): Promise<{ dir: string; mapping: Record<string, unknown>; stderr: string }> {
    const dir = join(t.h.dir, `export-${++counter}`);
    const r = await t.h.cli(['export', ...t.h.connection, '--out', dir, ...flags]);
    expect(r.stderr).not.toMatch(/^Error/m);
    expect(r.code).toBe(0);
    const mapping = parse(await readFile(join(dir, 'mapping', 'shop.yaml'), 'utf8')) as { attributes: Record<string, unknown> };
    return { dir, mapping: mapping.attributes, stderr: r.stderr };
  }

  it('a plain export writes exactly the entries that differ from the default use, by short name and name, and plans no change', async () => {
    const { dir, mapping, stderr } = await exported([]);
    expect(mapping.denyRuleGroups).toEqual({ SQLI_PARAM_VALUE: { logOnly: true, exceptions: [EXCEPTION] } });
    expect(mapping.denyRules).toEqual({ XSS_001a: { logOnly: true } });
    expect(mapping.customDenyRuleGroups).toEqual({ 'shop-rules': { logOnly: true } });
    expect(mapping).not.toHaveProperty('customDenyRules');
    const plan = await t.h.cli(['plan', '--config', join(dir, 'gwops.yaml'), ...t.h.connection, '--detailed-exitcode']);
    expect(plan.stderr).not.toMatch(/error|warning/i);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
    // The summary ends with what was not written: nothing of the deny rule use.
    const notExported = stderr.slice(stderr.lastIndexOf('Not exported:'));
    expect(notExported).toMatch(/^Not exported:\n( {2}- .*\n)+$/);
    expect(notExported).not.toContain('deny rule');
  });

  it('the old --deny-rule-use flag is accepted and changes nothing', async () => {
    const { mapping } = await exported(['--deny-rule-use']);
    expect(mapping.denyRuleGroups).toEqual({ SQLI_PARAM_VALUE: { logOnly: true, exceptions: [EXCEPTION] } });
  });

  it('with --no-deny-rule-use writes no deny rule use, reads none, and ends by listing it as not exported', async () => {
    t.h.emulator.requestLog.length = 0;
    const { mapping, stderr } = await exported(['--no-deny-rule-use']);
    for (const name of ['denyRuleGroups', 'denyRules', 'customDenyRuleGroups', 'customDenyRules']) expect(mapping).not.toHaveProperty(name);
    expect(t.h.emulator.requestLog.filter((e) => /\/mappings\/[^/]+\/|\/configuration\/deny-rule/.test(e.path))).toEqual([]);
    expect(stderr.slice(stderr.lastIndexOf('Not exported:'))).toMatch(/ {2}- each mapping's use of deny rule groups, deny rules, custom deny rule groups and custom deny rules: not read \(--no-deny-rule-use\)\n/);
  });

  it('init --from-gateway writes the same entries into manifests/ and lists what it did not write, and --deny-rule-use alone is refused', async () => {
    const dir = join(t.h.dir, 'init-project');
    const init = await t.h.cli(['init', dir, '--from-gateway', ...t.h.connection]);
    expect(init.stderr).toContain('Not exported:');
    expect(init.stderr).not.toMatch(/^Error/m);
    expect(init.code).toBe(0);
    const mapping = parse(await readFile(join(dir, 'manifests', 'mapping', 'shop.yaml'), 'utf8')) as { attributes: Record<string, unknown> };
    expect(mapping.attributes.customDenyRuleGroups).toEqual({ 'shop-rules': { logOnly: true } });
    expect(mapping.attributes.denyRules).toEqual({ XSS_001a: { logOnly: true } });
    const alone = await t.h.cli(['init', join(t.h.dir, 'init-alone'), '--deny-rule-use']);
    expect(alone.code).not.toBe(0);
    expect(alone.stderr).toContain('--deny-rule-use only with --from-gateway');
  });
});
