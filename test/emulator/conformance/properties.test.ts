/**
 * Property checks over HTTP: the list filter semantics of gateway-config-api.md "Filter
 * syntax" and the PATCH deep merge of real-clients.md agree with a tiny reference model for
 * generated inputs.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, startHarness } from './client.js';
import type { Client, Harness } from './client.js';

describe('properties', () => {
  let h: Harness;
  let c: Client;
  beforeAll(async () => {
    h = await startHarness();
    c = h.client();
    await c.createSession(h.emulator.apiKey);
  });
  afterAll(async () => {
    await h.close();
  });

  /** Names over a tiny alphabet so that substrings and duplicates are frequent. */
  const name = fc.string({ unit: fc.constantFrom('a', 'b', '-'), minLength: 1, maxLength: 4 });

  it('filters (==, =@, OR by commas, AND across parameters) select exactly what the model selects', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(name, { minLength: 1, maxLength: 6 }),
        fc.array(fc.tuple(fc.constantFrom('==', '=@'), name), { minLength: 1, maxLength: 2 }),
        fc.array(fc.tuple(fc.constantFrom('==', '=@'), name), { minLength: 1, maxLength: 2 }),
        async (names, anyOf, allOfSecond) => {
          expect((await c.call('POST', '/configuration/configurations/load-empty-config', { json: {} })).status).toBe(204);
          for (const n of names) await c.create('mapping', { name: n, entryPath: { value: `/${n}/` } });

          const cond = ([op, v]: [string, string]) => (x: string) => (op === '==' ? x === v : x.includes(v));
          const matchesAny = (conds: [string, string][]) => (x: string) => conds.some((k) => cond(k)(x));
          const param = (conds: [string, string][]) => `filter=${encodeURIComponent(conds.map(([op, v]) => `name${op}${v}`).join(','))}`;

          const one = (await c.list('mapping', param(anyOf))).map((m) => m.attributes.name).sort();
          expect(one).toEqual(names.filter(matchesAny(anyOf)).sort());

          const both = (await c.list('mapping', `${param(anyOf)}&${param(allOfSecond)}`)).map((m) => m.attributes.name).sort();
          expect(both).toEqual(names.filter((x) => matchesAny(anyOf)(x) && matchesAny(allOfSecond)(x)).sort());
        },
      ),
      { numRuns: 25 },
    );
  });

  /** Boolean leaves of a new mapping at different depths, all present in the server defaults. */
  const LEAVES = [
    'enableMaintenancePage',
    'entryPath.ignoreCase',
    'entryPath.regexFormatEnforced',
    'access.tokensEnabled',
    'access.credentialsPropagation.mandatory',
    'access.tokenTransport.cookieExtraction.enabled',
    'ipRules.ipAddressBlacklists.logOnly',
    'ipRules.ipAddressWhitelists.logOnly',
    'botManagement.wellKnownBots.allowed',
    'csrfProtection.enabled',
    'limits.json.enabled',
    'locking.access.tokensEnabled',
  ];

  function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
    const keys = path.split('.');
    let node = target;
    for (const key of keys.slice(0, -1)) {
      const next = node[key];
      if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    node[keys[keys.length - 1] ?? ''] = value;
  }

  it('a PATCH of any set of nested leaves changes exactly those leaves and keeps everything else', async () => {
    expect((await c.call('POST', '/configuration/configurations/load-empty-config', { json: {} })).status).toBe(204);
    const id = await c.create('mapping', { name: 'merge-target' });
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom(...LEAVES), fc.boolean(), { minKeys: 1, maxKeys: 5 }),
        async (changes) => {
          const before = (await c.read('mapping', id)).attributes;
          const patch: Record<string, unknown> = {};
          const expected = structuredClone(before);
          for (const [path, value] of Object.entries(changes)) {
            setPath(patch, path, value);
            setPath(expected, path, value);
          }
          const reply = await c.patch('mapping', id, patch);
          expect(reply.status).toBe(200);
          const after = (await c.read('mapping', id)).attributes;
          for (const [path, value] of Object.entries(changes)) expect(at(after, path)).toBe(value);
          expect(after).toEqual(expected);
        },
      ),
      { numRuns: 30 },
    );
  });
});
