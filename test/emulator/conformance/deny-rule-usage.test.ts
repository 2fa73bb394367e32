/**
 * A mapping's use of deny rules (docs/gateway-api.md "Deny rules"): `GET`/`PATCH
 * /mappings/{mid}/deny-rule-groups/{shortName}` (enabled, log-only, exceptions whole),
 * `/mappings/{mid}/deny-rules/{shortName}` (log-only), and the use of custom groups and rules
 * by id; 404 for an unknown mapping, short name or id. The use lives in the working copy and
 * survives activation, a configuration export and import, and a restart with a state file.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorCode, one, startHarness, uniqueName, useAdminSession, VALID } from './client.js';
import type { Client, Harness } from './client.js';

const EXCEPTION = { enabled: true, parameterNamePattern: { enabled: true, pattern: '^q$', name: 'search' } };

function groupBody(attributes: Record<string, unknown>): { json: unknown } {
  return { json: { data: { type: 'mapping-deny-rule-group', attributes } } };
}

describe('per-mapping deny rule use', () => {
  let c: Client;
  let h: Harness;
  useAdminSession((harness, client) => {
    h = harness;
    c = client;
  });

  it('GET of a group use answers the default (enabled, not log-only, no exceptions), type mapping-deny-rule-group, id the short name', async () => {
    const mapping = await c.create('mapping', VALID.mapping(uniqueName('dru')));
    const reply = await c.call('GET', `/configuration/mappings/${mapping}/deny-rule-groups/SQLI_PARAM_VALUE`);
    expect(reply.status).toBe(200);
    expect(one(reply)).toMatchObject({ type: 'mapping-deny-rule-group', id: 'SQLI_PARAM_VALUE', attributes: { enabled: true, logOnly: false, exceptions: [] } });
  });

  it('PATCH of a group use without id sets the flags and the exceptions whole (defaults filled in); a later PATCH replaces the list', async () => {
    const mapping = await c.create('mapping', VALID.mapping(uniqueName('dru')));
    const path = `/configuration/mappings/${mapping}/deny-rule-groups/SQLI_PARAM_VALUE`;
    const patched = await c.call('PATCH', path, groupBody({ logOnly: true, exceptions: [{ headerNamePattern: { pattern: '^X-Debug$' } }, EXCEPTION] }));
    expect(patched.status).toBe(200);
    const read = one(await c.call('GET', path));
    expect(read.attributes).toEqual({
      enabled: true,
      logOnly: true,
      exceptions: [{ enabled: true, headerNamePattern: { enabled: true, pattern: '^X-Debug$', name: '' } }, EXCEPTION],
    });
    expect((await c.call('PATCH', path, groupBody({ enabled: false, exceptions: [EXCEPTION] }))).status).toBe(200);
    expect(one(await c.call('GET', path)).attributes).toEqual({ enabled: false, logOnly: true, exceptions: [EXCEPTION] });
    // Another group of the same mapping keeps its default.
    expect(one(await c.call('GET', `/configuration/mappings/${mapping}/deny-rule-groups/XSS_PARAM_VALUE`)).attributes).toMatchObject({ enabled: true, logOnly: false });
  });

  it('bad bodies get 400: wrong type, unknown attribute, non-boolean flag, exception with both or neither pattern', async () => {
    const mapping = await c.create('mapping', VALID.mapping(uniqueName('dru')));
    const path = `/configuration/mappings/${mapping}/deny-rule-groups/SQLI_PARAM_VALUE`;
    const bad = [
      { json: { data: { type: 'mapping-deny-rule', attributes: { logOnly: true } } } },
      groupBody({ colour: 'red' }),
      groupBody({ logOnly: 'maybe' }),
      groupBody({ exceptions: [{ enabled: true }] }),
      groupBody({ exceptions: [{ ...EXCEPTION, headerNamePattern: { pattern: 'x' } }] }),
      groupBody({}),
    ];
    for (const body of bad) expect((await c.call('PATCH', path, body)).status, JSON.stringify(body)).toBe(400);
    expect(one(await c.call('GET', path)).attributes).toEqual({ enabled: true, logOnly: false, exceptions: [] });
  });

  it('404 for an unknown mapping or short name, on GET and PATCH alike', async () => {
    const mapping = await c.create('mapping', VALID.mapping(uniqueName('dru')));
    for (const path of [
      `/configuration/mappings/99999/deny-rule-groups/SQLI_PARAM_VALUE`,
      `/configuration/mappings/${mapping}/deny-rule-groups/NO_SUCH_GROUP`,
      `/configuration/mappings/${mapping}/deny-rules/NOPE_001`,
      `/configuration/mappings/${mapping}/custom-deny-rule-groups/99999`,
      `/configuration/mappings/${mapping}/custom-deny-rules/99999`,
    ]) {
      const get = await c.call('GET', path);
      expect([get.status, errorCode(get)], path).toEqual([404, 'ENTITY_NOT_FOUND']);
      expect((await c.call('PATCH', path, groupBody({ logOnly: true }))).status, path).toBe(404);
    }
  });

  it('a rule use (type mapping-deny-rule) has logOnly only', async () => {
    const mapping = await c.create('mapping', VALID.mapping(uniqueName('dru')));
    const path = `/configuration/mappings/${mapping}/deny-rules/SQL_001a`;
    expect(one(await c.call('GET', path))).toMatchObject({ type: 'mapping-deny-rule', id: 'SQL_001a', attributes: { logOnly: false } });
    expect((await c.call('PATCH', path, { json: { data: { type: 'mapping-deny-rule', attributes: { logOnly: true } } } })).status).toBe(200);
    expect(one(await c.call('GET', path)).attributes).toEqual({ logOnly: true });
    expect((await c.call('PATCH', path, { json: { data: { type: 'mapping-deny-rule', attributes: { exceptions: [] } } } })).status).toBe(400);
  });

  it('custom groups and rules: their use by a mapping is addressed by id, and the PATCH body carries that id', async () => {
    const mapping = await c.create('mapping', VALID.mapping(uniqueName('dru')));
    const rule = await c.create('custom-deny-rule', { name: uniqueName('cdr'), restrictions: { pathPattern: { enabled: true, pattern: '^/admin' } } });
    const group = await c.create('custom-deny-rule-group', { name: uniqueName('cdrg') });
    expect((await c.relationship('PATCH', 'custom-deny-rule-group', group, 'custom-deny-rules', 'custom-deny-rule', [rule])).status).toBe(204);
    expect(one(await c.call('GET', `/configuration/custom-deny-rule-groups/${group}`)).relationships?.['custom-deny-rules']?.data).toEqual([{ type: 'custom-deny-rule', id: rule }]);
    for (const [segment, type, id] of [
      ['custom-deny-rule-groups', 'mapping-custom-deny-rule-group', group],
      ['custom-deny-rules', 'mapping-custom-deny-rule', rule],
    ] as const) {
      const path = `/configuration/mappings/${mapping}/${segment}/${id}`;
      expect(one(await c.call('GET', path))).toMatchObject({ type, id, attributes: { logOnly: false } });
      expect((await c.call('PATCH', path, { json: { data: { type, id, attributes: { logOnly: true } } } })).status).toBe(200);
      expect(one(await c.call('GET', path)).attributes).toEqual({ logOnly: true });
      expect((await c.call('PATCH', path, { json: { data: { type, id: '424242', attributes: { logOnly: false } } } })).status).toBe(400);
    }
  });

  it('the use survives activation and a configuration export imported in another session', async () => {
    const mapping = await c.create('mapping', VALID.mapping(uniqueName('dru')));
    const rule = await c.create('custom-deny-rule', { name: uniqueName('cdr') });
    const path = `/configuration/mappings/${mapping}/deny-rule-groups/XSS_PARAM_VALUE`;
    expect((await c.call('PATCH', path, groupBody({ logOnly: true, exceptions: [EXCEPTION] }))).status).toBe(200);
    const customPath = `/configuration/mappings/${mapping}/custom-deny-rules/${rule}`;
    expect((await c.call('PATCH', customPath, { json: { data: { type: 'mapping-custom-deny-rule', id: rule, attributes: { logOnly: true } } } })).status).toBe(200);
    const archive = (await c.call('GET', '/configuration/configurations/export')).raw;
    const other = h.client();
    await other.open(h.emulator.apiKey);
    expect((await other.call('PUT', '/configuration/configurations/import', { raw: archive, headers: { 'content-type': 'application/zip' } })).status).toBe(200);
    expect(one(await other.call('GET', path)).attributes).toEqual({ enabled: true, logOnly: true, exceptions: [EXCEPTION] });
    expect(one(await other.call('GET', customPath)).attributes).toEqual({ logOnly: true });
    // A mapping archive re-imported keeps what it does not carry: exceptions and custom use.
    const table = (await c.call('GET', `/configuration/mappings/${mapping}/export`)).raw;
    expect((await c.call('PUT', '/configuration/mappings/import', { raw: table, headers: { 'content-type': 'application/zip' } })).status).toBe(200);
    expect(one(await c.call('GET', path)).attributes).toEqual({ enabled: true, logOnly: true, exceptions: [EXCEPTION] });
    expect(one(await c.call('GET', customPath)).attributes).toEqual({ logOnly: true });
  });

  it('the activated use survives a restart with a state file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gwops-conformance-'));
    let run: Harness | undefined = await startHarness({ stateFile: join(dir, 'state.json') });
    try {
      const first = await run.client().open(run.emulator.apiKey);
      const mapping = await first.create('mapping', VALID.mapping('persisted-use'));
      const vhost = await first.create('virtual-host', VALID.virtualHost('persisted-use-vh'));
      const group = await first.create('back-end-group', VALID.backEndGroup('persisted-use'));
      await first.relationship('PATCH', 'virtual-host', vhost, 'mappings', 'mapping', [mapping]);
      await first.relationship('PATCH', 'mapping', mapping, 'back-end-groups', 'back-end-group', [group]);
      const path = `/configuration/mappings/${mapping}/deny-rule-groups/SQLI_PARAM_VALUE`;
      expect((await first.call('PATCH', path, groupBody({ enabled: false, exceptions: [EXCEPTION] }))).status).toBe(200);
      expect((await first.activate('deny rule use')).status).toBe(200);
      await run.close();
      run = await startHarness({ stateFile: join(dir, 'state.json') });
      const second = await run.client().open(run.emulator.apiKey);
      expect(one(await second.call('GET', path)).attributes).toEqual({ enabled: false, logOnly: false, exceptions: [EXCEPTION] });
    } finally {
      await run.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
