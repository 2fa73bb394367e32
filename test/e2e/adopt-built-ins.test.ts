/**
 * `gwops drift --adopt` with built-in objects and deletions: a mapping made by hand and
 * linked to the gateway's built-in virtual host `default` is adopted into a project that
 * does not allow external links, and the project still validates and plans no change (a
 * built-in resolves by name everywhere); in the same run `--adopt-deletions` removes the
 * document of a mapping deleted on the gateway from the multi-document file the drift
 * report locates it in.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const mapping = (name: string, path: string): string => `apiVersion: gwops/v1
kind: mapping
name: ${name}
attributes:
  entryPath: { value: '${path}' }
relationships:
  back-end-groups: [edge-backend]
`;

const BACKEND = `apiVersion: gwops/v1
kind: back-end-group
name: edge-backend
attributes:
  backendHosts: [{ protocol: HTTP, hostName: edge.internal, port: 80 }]
`;

describe('drift --adopt with built-ins and deletions', () => {
  const t = useHarness();

  it('adopts a mapping linked to the built-in virtual host and removes a deleted one; the project validates and plans no change', async () => {
    const folder = await writeManifests(t.h, 'adopt-built-ins', { 'gwops.yaml': "manifests: [m]\nownership:\n  mapping: ['name=@edge-']\n  back-end-group: ['name=@edge-']\n" });
    await writeManifests(t.h, 'adopt-built-ins/m', {
      'backends.yaml': BACKEND,
      'mappings.yaml': `${mapping('edge-kept', '/kept/')}---\n${mapping('$' + '{EDGE}-gone', '/gone/')}`,
    });
    const config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
    t.h.env.EDGE = 'edge';
    const apply = await t.h.cli(['apply', ...config, '--yes']);
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);
    await t.h.raw(async (s) => {
      const mappings = await s.list('mappings', []);
      const gone = mappings.find((r) => r.attributes.name === 'edge-gone');
      await s.remove('mappings', gone?.id ?? '');
      const backend = (await s.list('back-end-groups', [])).find((r) => r.attributes.name === 'edge-backend');
      const made = await s.create('mappings', { type: 'mapping', attributes: { name: 'edge-by-hand', entryPath: { value: '/by-hand/' } } });
      await s.link('mappings', made.id, 'back-end-groups', [{ type: 'back-end-group', id: backend?.id ?? '' }]);
      await s.link('mappings', made.id, 'virtual-hosts', [{ type: 'virtual-host', id: '-1000' }]);
    }, 'mapping by hand on the default virtual host; another deleted');
    const drift = await t.h.cli(['drift', ...config]);
    expect(drift.stdout).toMatch(/edge-gone/);
    const adopt = await t.h.cli(['drift', ...config, '--adopt', '--adopt-deletions']);
    expect(adopt.stderr).not.toMatch(/^Error/m);
    expect(adopt.stdout + adopt.stderr).not.toMatch(/no document with this kind and name/);
    const text = await readFile(join(folder, 'm', 'mappings.yaml'), 'utf8');
    expect(text).not.toContain('edge-gone');
    const validate = await t.h.cli(['validate', '--config', join(folder, 'gwops.yaml')]);
    expect(validate.stdout + validate.stderr).not.toMatch(/unresolved-link|error/i);
    expect(validate.code).toBe(0);
    const plan = await t.h.cli(['plan', ...config, '--detailed-exitcode']);
    expect(plan.stderr).not.toMatch(/unresolved-link|error/i);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('adopts a virtual host linked to the built-in default certificate; the project validates and plans no change', async () => {
    const folder = await writeManifests(t.h, 'adopt-built-in-certificate', { 'gwops.yaml': "manifests: [m]\nownership:\n  virtual-host: ['name=@edge-']\n" });
    await writeManifests(t.h, 'adopt-built-in-certificate/m', {
      'hosts.yaml': 'apiVersion: gwops/v1\nkind: virtual-host\nname: edge-kept\nattributes:\n  hostName: kept.example.com\n  networkInterface:\n    http: { enabled: true, port: 80 }\n    https: { enabled: false, http2Allowed: false }\n',
    });
    const config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
    expect((await t.h.cli(['apply', ...config, '--yes'])).code).toBe(0);
    await t.h.raw(async (s) => {
      const made = await s.create('virtual-hosts', { type: 'virtual-host', attributes: { name: 'edge-by-hand', hostName: 'by-hand.example.com', networkInterface: { http: { enabled: true, port: 80 }, https: { enabled: false, http2Allowed: false } } } });
      await s.link('virtual-hosts', made.id, 'ssl-certificate', { type: 'ssl-certificate', id: '-1000' });
    }, 'virtual host by hand on the default certificate');
    const adopt = await t.h.cli(['drift', ...config, '--adopt']);
    expect(adopt.stderr).not.toMatch(/^Error/m);
    // Related to no declared object: a file of its own, hosts.yaml as it was.
    expect(await readFile(join(folder, 'm', 'virtual-host', 'edge-by-hand.yaml'), 'utf8')).toMatch(/ssl-certificate: "?sha256:[0-9a-f]{16}/);
    expect(await readFile(join(folder, 'm', 'hosts.yaml'), 'utf8')).not.toContain('edge-by-hand');
    const validate = await t.h.cli(['validate', '--config', join(folder, 'gwops.yaml')]);
    expect(validate.stdout + validate.stderr).not.toMatch(/unresolved-link|error/i);
    expect(validate.code).toBe(0);
    const plan = await t.h.cli(['plan', ...config, '--detailed-exitcode']);
    expect(plan.stderr).not.toMatch(/unresolved-link|error/i);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });
});
