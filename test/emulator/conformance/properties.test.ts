/**
 * Property checks over HTTP: the list filter semantics of docs/gateway-api.md "Filter
 * syntax" and the PATCH deep merge of "Rules for PATCH" agree with a tiny reference model for
 * generated inputs.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, linkedIds, startHarness } from './client.js';
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

  it('any sequence of link, unlink and delete calls leaves both sides of every link equal to the model', async () => {
    type Op =
      | { kind: 'vm'; link: boolean; fromHost: boolean; v: number; m: number }
      | { kind: 'mg'; link: boolean; fromMapping: boolean; m: number; g: number }
      | { kind: 'vc'; link: boolean; fromHost: boolean; v: number; cert: number }
      | { kind: 'delete-mapping'; m: number };
    const idx = (n: number) => fc.integer({ min: 0, max: n - 1 });
    // few objects and long sequences, so that the same link is often made, unmade and remade
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('vm' as const), link: fc.boolean(), fromHost: fc.boolean(), v: idx(2), m: idx(2) }),
      fc.record({ kind: fc.constant('mg' as const), link: fc.boolean(), fromMapping: fc.boolean(), m: idx(2), g: idx(2) }),
      fc.record({ kind: fc.constant('vc' as const), link: fc.boolean(), fromHost: fc.boolean(), v: idx(2), cert: idx(2) }),
      fc.record({ kind: fc.constant('delete-mapping' as const), m: idx(2) }),
    );

    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 24 }), async (ops) => {
        expect((await c.call('POST', '/configuration/configurations/load-empty-config', { json: {} })).status).toBe(204);
        const v = [await c.create('virtual-host', { name: 'v0' }), await c.create('virtual-host', { name: 'v1' })];
        const m = [await c.create('mapping', { name: 'm0' }), await c.create('mapping', { name: 'm1' })];
        const g = [await c.create('back-end-group', { name: 'g0' }), await c.create('back-end-group', { name: 'g1' })];
        const certs = [await c.create('ssl-certificate', { certificate: 'c0' }), await c.create('ssl-certificate', { certificate: 'c1' })];

        // the model: link sets and the to-one certificate of each virtual host
        const vm = new Set<string>();
        const mg = new Set<string>();
        const vc = new Map<number, number>();
        const deleted = new Set<number>();

        for (const o of ops) {
          if (o.kind !== 'delete-mapping' && 'm' in o && deleted.has(o.m)) continue;
          let reply;
          switch (o.kind) {
            case 'vm': {
              const method = o.link ? 'PATCH' : 'DELETE';
              reply = o.fromHost
                ? await c.relationship(method, 'virtual-host', v[o.v] ?? '', 'mappings', 'mapping', [m[o.m] ?? ''])
                : await c.relationship(method, 'mapping', m[o.m] ?? '', 'virtual-hosts', 'virtual-host', [v[o.v] ?? '']);
              if (o.link) vm.add(`${o.v}:${o.m}`);
              else vm.delete(`${o.v}:${o.m}`);
              break;
            }
            case 'mg': {
              const method = o.link ? 'PATCH' : 'DELETE';
              reply = o.fromMapping
                ? await c.relationship(method, 'mapping', m[o.m] ?? '', 'back-end-groups', 'back-end-group', [g[o.g] ?? ''])
                : await c.relationship(method, 'back-end-group', g[o.g] ?? '', 'mappings', 'mapping', [m[o.m] ?? '']);
              if (o.link) mg.add(`${o.m}:${o.g}`);
              else mg.delete(`${o.m}:${o.g}`);
              break;
            }
            case 'vc': {
              const method = o.link ? 'PATCH' : 'DELETE';
              reply = o.fromHost
                ? await c.relationship(method, 'virtual-host', v[o.v] ?? '', 'ssl-certificate', 'ssl-certificate', certs[o.cert] ?? '')
                : await c.relationship(method, 'ssl-certificate', certs[o.cert] ?? '', 'virtual-hosts', 'virtual-host', [v[o.v] ?? '']);
              if (o.link) vc.set(o.v, o.cert);
              else if (vc.get(o.v) === o.cert) vc.delete(o.v);
              break;
            }
            case 'delete-mapping': {
              if (deleted.has(o.m)) continue;
              reply = await c.call('DELETE', `/configuration/mappings/${m[o.m] ?? ''}`);
              deleted.add(o.m);
              for (const key of [...vm]) if (key.endsWith(`:${o.m}`)) vm.delete(key);
              for (const key of [...mg]) if (key.startsWith(`${o.m}:`)) mg.delete(key);
              break;
            }
          }
          expect(reply.status).toBe(204);
        }

        const sorted = (ids: unknown[]) => ids.map(String).sort();
        for (const [vi, vid] of v.entries()) {
          const host = await c.read('virtual-host', vid);
          expect(sorted(linkedIds(host, 'mappings'))).toEqual(sorted([...vm].filter((k) => k.startsWith(`${vi}:`)).map((k) => m[Number(k.split(':')[1])])));
          const cert = vc.get(vi);
          expect(linkedIds(host, 'ssl-certificate')).toEqual(cert === undefined ? [] : [certs[cert]]);
        }
        for (const [mi, mid] of m.entries()) {
          if (deleted.has(mi)) continue;
          const mapping = await c.read('mapping', mid);
          expect(sorted(linkedIds(mapping, 'virtual-hosts'))).toEqual(sorted([...vm].filter((k) => k.endsWith(`:${mi}`)).map((k) => v[Number(k.split(':')[0])])));
          expect(sorted(linkedIds(mapping, 'back-end-groups'))).toEqual(sorted([...mg].filter((k) => k.startsWith(`${mi}:`)).map((k) => g[Number(k.split(':')[1])])));
        }
        for (const [gi, gid] of g.entries()) {
          const group = await c.read('back-end-group', gid);
          expect(sorted(linkedIds(group, 'mappings'))).toEqual(sorted([...mg].filter((k) => k.endsWith(`:${gi}`)).map((k) => m[Number(k.split(':')[0])])));
        }
        for (const [ci, cid] of certs.entries()) {
          const cert = await c.read('ssl-certificate', cid);
          expect(sorted(linkedIds(cert, 'virtual-hosts'))).toEqual(sorted([...vc].filter(([, x]) => x === ci).map(([vi]) => v[vi])));
        }
      }),
      { numRuns: 30 },
    );
  });
});
