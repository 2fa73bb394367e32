/**
 * Drift names a link end outside the lists its narrowed fetch read (the ownership filters)
 * by its name, not `#id:<id>`, on both sides: a declared mapping linked by hand to another
 * team's IP address list, and another team's mapping linked by hand to a declared list.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const MANIFESTS = `apiVersion: gwops/v1
kind: ip-address-list
name: team-office
attributes:
  ips: ['192.0.2.0/24']
relationships:
  ip-address-blacklists: []
---
apiVersion: gwops/v1
kind: back-end-group
name: team-backend
attributes:
  backendHosts: [{ protocol: HTTP, hostName: team.internal, port: 80 }]
---
apiVersion: gwops/v1
kind: mapping
name: team-app
attributes:
  entryPath: { value: '/team/' }
relationships:
  back-end-groups: [team-backend]
  ip-address-blacklists: []
`;

describe('drift names link ends outside the narrowed fetch', () => {
  const t = useHarness();

  it('in text and JSON, on both sides of the link', async () => {
    const dir = await writeManifests(t.h, 'link-ends', {
      'gwops.yaml': "manifests: [m.yaml]\nownership:\n  mapping: ['name=@team-']\n  ip-address-list: ['name=@team-']\n  back-end-group: ['name=@team-']\n",
      'm.yaml': MANIFESTS,
    });
    const config = ['--config', join(dir, 'gwops.yaml'), ...t.h.connection];
    const apply = await t.h.cli(['apply', ...config, '--yes']);
    expect(apply.code).toBe(0);
    await t.h.raw(async (s) => {
      const other = await s.create('ip-address-lists', { type: 'ip-address-list', attributes: { name: 'partner-list', ips: ['198.51.100.0/24'] } });
      const otherMapping = await s.create('mappings', { type: 'mapping', attributes: { name: 'partner-app', entryPath: { value: '/partner/' } } });
      const otherBackend = await s.create('back-end-groups', { type: 'back-end-group', attributes: { name: 'partner-backend', backendHosts: [{ protocol: 'HTTP', hostName: 'partner.internal', port: 80 }] } });
      await s.link('mappings', otherMapping.id, 'back-end-groups', [{ type: 'back-end-group', id: otherBackend.id }]);
      const team = (await s.list('mappings', [])).find((r) => r.attributes.name === 'team-app');
      const office = (await s.list('ip-address-lists', [])).find((r) => r.attributes.name === 'team-office');
      await s.link('ip-address-lists', other.id, 'mappings-blacklist', [{ type: 'mapping', id: team?.id ?? '' }]);
      await s.link('ip-address-lists', office?.id ?? '', 'mappings-blacklist', [{ type: 'mapping', id: otherMapping.id }]);
    }, 'links by hand across teams');
    const text = await t.h.cli(['drift', ...config]);
    const json = await t.h.cli(['drift', ...config, '--format', 'json']);
    for (const out of [text.stdout, json.stdout]) {
      expect(out).not.toContain('#id:');
      expect(out).toContain('partner-list');
      expect(out).toContain('partner-app');
    }
    expect(text.code).toBe(2);
  });
});
