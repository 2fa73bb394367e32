/**
 * Deny rules end to end against the emulator (docs/manifest-reference.md "Deny rule use"): a
 * mapping declaring its use of built-in groups and rules and of custom rules and groups is
 * applied and then plans no change; a change in Git (log-only flipped, an exception added)
 * is planned by short name and applied; a change by hand through the raw API is drift; a
 * change by hand to a group the manifest does not declare is not, and `drift --adopt` takes
 * it into the manifests; an unknown short name is an error at its key, and nothing is
 * changed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

interface Options {
  readonly logOnly: boolean;
  readonly exceptions: readonly string[];
  readonly groupName?: string;
}

function project(o: Options): Record<string, string> {
  const exceptions = o.exceptions.map((e) => `          - { enabled: true, parameterNamePattern: { enabled: true, pattern: '${e}', name: ${e.replace(/\W/g, '') || 'x'} } }`);
  return {
    'gwops.yaml': 'manifests: [app.yaml]\n',
    'app.yaml': [
      'apiVersion: gwops/v1',
      'kind: back-end-group',
      'name: shop-backend',
      'attributes:',
      '  backendHosts: [{ protocol: HTTP, hostName: shop.internal, port: 80 }]',
      '---',
      'apiVersion: gwops/v1',
      'kind: custom-deny-rule',
      'name: shop-no-admin',
      'attributes:',
      '  restrictions:',
      "    pathPattern: { enabled: true, name: admin, pattern: '^/shop/admin/' }",
      '---',
      'apiVersion: gwops/v1',
      'kind: custom-deny-rule-group',
      'name: shop-rules',
      'relationships:',
      '  custom-deny-rules: [shop-no-admin]',
      '---',
      'apiVersion: gwops/v1',
      'kind: mapping',
      'name: shop',
      'attributes:',
      '  entryPath: { value: /shop/ }',
      '  denyRuleGroups:',
      `    ${o.groupName ?? 'SQLI_PARAM_VALUE'}:`,
      `      logOnly: ${String(o.logOnly)}`,
      `      exceptions:${exceptions.length === 0 ? ' []' : ''}`,
      ...exceptions,
      '  denyRules:',
      '    XSS_001a: { logOnly: true }',
      '  customDenyRuleGroups:',
      '    shop-rules: { logOnly: true }',
      '  customDenyRules:',
      '    shop-no-admin: { logOnly: false }',
      'relationships:',
      '  back-end-groups: [shop-backend]',
      '',
    ].join('\n'),
  };
}

describe('deny rule use of a mapping, declared in its manifest', () => {
  const t = useHarness();
  let config: string[] = [];
  let mappingId = '';

  async function use(segment: string, key: string): Promise<Record<string, unknown>> {
    return t.h.raw(async (s) => (await s.get(`mappings/${mappingId}/${segment}`, key)).attributes);
  }

  it('applies the use of built-in and custom groups and rules, then plans no change', async () => {
    const folder = await writeManifests(t.h, 'v1', project({ logOnly: true, exceptions: [] }));
    config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
    // One block per object: the mapping's create shows its own attributes and the use of each entry.
    const first = await t.h.cli(['plan', ...config]);
    expect(first.code).toBe(0);
    for (const path of ['entryPath.value', 'denyRuleGroups.SQLI_PARAM_VALUE.logOnly', 'denyRules.XSS_001a.logOnly', 'customDenyRuleGroups.shop-rules.logOnly']) {
      expect(first.stdout).toContain(path);
    }
    const apply = await t.h.cli(['apply', ...config, '--yes', '--comment', 'deny rules']);
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);
    const ids = await t.h.raw(async (s) => ({
      mapping: (await s.list('mappings', ['name==shop']))[0]?.id ?? '',
      group: (await s.list('custom-deny-rule-groups', []))[0]?.id ?? '',
      rule: (await s.list('custom-deny-rules', []))[0]?.id ?? '',
    }));
    mappingId = ids.mapping;
    expect(await use('deny-rule-groups', 'SQLI_PARAM_VALUE')).toEqual({ enabled: true, logOnly: true, exceptions: [] });
    expect(await use('deny-rules', 'XSS_001a')).toEqual({ logOnly: true });
    expect(await use('custom-deny-rule-groups', ids.group)).toEqual({ logOnly: true });
    expect(await use('custom-deny-rules', ids.rule)).toEqual({ logOnly: false });
    const group = await t.h.raw(async (s) => s.get('custom-deny-rule-groups', ids.group));
    expect(group.relationships['custom-deny-rules']?.data).toEqual([{ type: 'custom-deny-rule', id: ids.rule }]);
    const plan = await t.h.cli(['plan', ...config, '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('a change in Git (log-only flipped, an exception added) is planned by short name and applied', async () => {
    const folder = await writeManifests(t.h, 'v2', project({ logOnly: false, exceptions: ['^q$'] }));
    config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
    const plan = await t.h.cli(['plan', ...config, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('denyRuleGroups.SQLI_PARAM_VALUE.logOnly');
    expect(plan.stdout).toContain('denyRuleGroups.SQLI_PARAM_VALUE.exceptions');
    const apply = await t.h.cli(['apply', ...config, '--yes', '--comment', 'exception for q']);
    expect(apply.code).toBe(0);
    expect(await use('deny-rule-groups', 'SQLI_PARAM_VALUE')).toEqual({
      enabled: true,
      logOnly: false,
      exceptions: [{ enabled: true, parameterNamePattern: { enabled: true, pattern: '^q$', name: 'q' } }],
    });
    expect((await t.h.cli(['plan', ...config, '--detailed-exitcode'])).code).toBe(0);
  });

  it('a change by hand to a declared group is drift; one to an undeclared group is not', async () => {
    await t.h.raw(async (s) => {
      await s.update(`mappings/${mappingId}/deny-rule-groups`, 'XSS_PARAM_VALUE', { type: 'mapping-deny-rule-group', attributes: { enabled: false } }, undefined, { withId: false });
    }, 'undeclared group changed by hand');
    expect((await t.h.cli(['drift', ...config])).code).toBe(0);
    await t.h.raw(async (s) => {
      await s.update(`mappings/${mappingId}/deny-rule-groups`, 'SQLI_PARAM_VALUE', { type: 'mapping-deny-rule-group', attributes: { logOnly: true } }, undefined, { withId: false });
    }, 'declared group changed by hand');
    const drift = await t.h.cli(['drift', ...config]);
    expect(drift.code).not.toBe(0);
    expect(drift.stdout).toContain('denyRuleGroups.SQLI_PARAM_VALUE.logOnly');
    expect(drift.stdout).not.toContain('XSS_PARAM_VALUE');
  });

  it('drift --adopt writes the live use of a declared entry into the manifests, which then plan no change', async () => {
    const adopted = await t.h.cli(['drift', '--adopt', ...config]);
    expect(adopted.code).toBe(2);
    expect(adopted.stderr).not.toContain('Not adopted');
    const after = await t.h.cli(['plan', ...config, '--detailed-exitcode']);
    expect(after.stdout + after.stderr).toContain('No changes');
    expect(after.code).toBe(0);
    expect(await use('deny-rule-groups', 'SQLI_PARAM_VALUE')).toMatchObject({ logOnly: true });
  });

  it('an unknown short name is an error at its key with a suggestion, and nothing is changed', async () => {
    const folder = await writeManifests(t.h, 'typo', project({ logOnly: false, exceptions: [], groupName: 'SQLI_PARAM_VALEU' }));
    t.h.emulator.requestLog.length = 0;
    const r = await t.h.cli(['apply', '--config', join(folder, 'gwops.yaml'), ...t.h.connection, '--yes', '--comment', 'typo']);
    expect(r.code).toBe(1);
    const lines = (await readFile(join(folder, 'app.yaml'), 'utf8')).split('\n');
    const line = lines.findIndex((l) => l.includes('SQLI_PARAM_VALEU'));
    expect(r.stderr).toContain(`app.yaml:${line + 1}:${(lines[line] ?? '').indexOf('SQLI_PARAM_VALEU') + 1}: error`);
    expect(r.stderr).toContain("did you mean 'SQLI_PARAM_VALUE'?");
    const changing = t.h.emulator.requestLog.filter((e) => e.method !== 'GET' && !/session|load-active/.test(e.path));
    expect(changing).toEqual([]);
  });
});
