/**
 * Built-in deny rule groups and rules (docs/gateway-api.md "Deny rules"): read-only,
 * identified by their short names, as the clients that look groups up by name read them.
 */
import { describe, expect, it } from 'vitest';
import { errorCode, many, one, uniqueName, useAdminSession } from './client.js';
import type { Client } from './client.js';

describe('deny rule groups and rules', () => {
  let c: Client;
  useAdminSession((_h, client) => {
    c = client;
  });

  it('GET /deny-rule-groups lists the built-in groups, id = short name, with name and denyRules[].shortNames[]', async () => {
    const reply = await c.call('GET', '/configuration/deny-rule-groups');
    expect(reply.status).toBe(200);
    const groups = many(reply);
    expect(groups.map((g) => g.id)).toContain('SQLI_PARAM_VALUE');
    for (const g of groups) {
      expect(g.type).toBe('deny-rule-group');
      expect(g.id).toMatch(/^[A-Z_]+$/);
      expect(typeof g.attributes.name).toBe('string');
      const rules = g.attributes.denyRules as { shortNames: string[] }[];
      expect(rules.length).toBeGreaterThan(0);
      for (const r of rules) expect(r.shortNames.length).toBeGreaterThan(0);
    }
  });

  it('GET /deny-rule-groups/{shortName} answers the group (a client matches its name by regex); an unknown short name 404', async () => {
    const reply = await c.call('GET', '/configuration/deny-rule-groups/SQLI_PARAM_VALUE');
    expect(reply.status).toBe(200);
    const group = one(reply);
    expect([group.type, group.id]).toEqual(['deny-rule-group', 'SQLI_PARAM_VALUE']);
    expect(group.attributes.name).toMatch(/SQL/);
    expect((group.attributes.denyRules as { shortNames: string[] }[]).flatMap((r) => r.shortNames)).toContain('SQL_001a');
    const missing = await c.call('GET', '/configuration/deny-rule-groups/NO_SUCH_GROUP');
    expect([missing.status, errorCode(missing)]).toEqual([404, 'ENTITY_NOT_FOUND']);
  });

  it('GET /deny-rules lists every rule of every group; /deny-rules/{shortName} answers one, 404 for an unknown one', async () => {
    const groups = many(await c.call('GET', '/configuration/deny-rule-groups'));
    const listed = many(await c.call('GET', '/configuration/deny-rules'));
    const inGroups = groups.flatMap((g) => (g.attributes.denyRules as { shortNames: string[] }[]).flatMap((r) => r.shortNames));
    expect(listed.map((r) => r.id).sort()).toEqual([...inGroups].sort());
    const rule = one(await c.call('GET', '/configuration/deny-rules/SQL_001a'));
    expect([rule.type, rule.id]).toEqual(['deny-rule', 'SQL_001a']);
    expect(rule.attributes.name).toMatch(/^\(default SQL_001a\) /);
    expect((await c.call('GET', '/configuration/deny-rules/NOPE_001')).status).toBe(404);
  });

  it('the built-ins are read-only: no POST, PATCH or DELETE route changes them', async () => {
    const before = many(await c.call('GET', '/configuration/deny-rule-groups'));
    const patch = await c.call('PATCH', '/configuration/deny-rule-groups/SQLI_PARAM_VALUE', { json: { data: { type: 'deny-rule-group', id: 'SQLI_PARAM_VALUE', attributes: { name: 'x' } } } });
    expect(patch.status).toBeGreaterThanOrEqual(400);
    const del = await c.call('DELETE', '/configuration/deny-rules/SQL_001a');
    expect(del.status).toBeGreaterThanOrEqual(400);
    expect(many(await c.call('GET', '/configuration/deny-rule-groups'))).toEqual(before);
  });
  it('a custom deny rule pattern written without a name or with an empty one gets a generated name, on create and on PATCH; a given name is kept', async () => {
    const name = (rule: { attributes: Record<string, unknown> }, key: string): unknown => (rule.attributes.restrictions as Record<string, { name?: unknown }>)[key]?.name;
    const id = await c.create('custom-deny-rule', {
      name: uniqueName('named'),
      restrictions: { pathPattern: { enabled: true, pattern: '^/admin' }, httpMethodPattern: { enabled: true, name: '', pattern: '^POST$' }, parameterNamePattern: { enabled: true, name: 'mine', pattern: 'x' } },
    });
    const created = await c.read('custom-deny-rule', id);
    expect([typeof name(created, 'pathPattern'), typeof name(created, 'httpMethodPattern'), name(created, 'parameterNamePattern')]).toEqual(['string', 'string', 'mine']);
    expect([name(created, 'pathPattern'), name(created, 'httpMethodPattern')]).not.toContain('');
    const patched = await c.call('PATCH', `/configuration/custom-deny-rules/${id}`, { json: { data: { type: 'custom-deny-rule', id, attributes: { restrictions: { pathPattern: { name: '' } } } } } });
    expect(patched.status).toBe(200);
    expect(name(one(patched), 'pathPattern')).not.toBe('');
  });
});
