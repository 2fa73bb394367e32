/**
 * A mapping's OpenAPI policies name their document: `apiSecurity.openApi.policies[].openApiDocumentId`
 * holds the document's id on the gateway (-1: validation skipped) and its name in
 * manifests, plans, drift and exports, resolved at plan time (schema `x-gwops-reference`).
 * End to end against the emulator.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const ids: Record<string, string> = {};
const pattern = "{ pattern: '^/api/', caseIgnored: false, inverted: false }";

/** The project: two documents and one mapping whose two policies name `document` and skip validation (-1). */
function project(document: string): Record<string, string> {
  const doc = (name: string): string => `apiVersion: gwops/v1\nkind: openapi-document\nname: ${name}\n`;
  return {
    'gwops.yaml': 'manifests: [documents.yaml, app.yaml]\nallowExternalLinks: true\n',
    'documents.yaml': [doc('api-v1'), doc('api-v2')].join('---\n'),
    'app.yaml': [
      'apiVersion: gwops/v1',
      'kind: mapping',
      'name: api',
      'attributes:',
      '  entryPath: { value: /api/ }',
      '  apiSecurity:',
      '    openApi:',
      '      policies:',
      `        - { enabled: true, logOnly: false, pathMatching: ClientView, pathPattern: ${pattern}, openApiDocumentId: ${document} }`,
      `        - { enabled: false, logOnly: false, pathMatching: ClientView, pathPattern: ${pattern}, openApiDocumentId: -1 }`,
      'relationships:',
      '  back-end-groups: [api-backend]',
      '',
    ].join('\n'),
  };
}

describe('OpenAPI policies name their document', () => {
  const t = useHarness();

  beforeAll(async () => {
    await t.h.raw(async (s) => {
      ids.backend = (await s.create('back-end-groups', { type: 'back-end-group', attributes: { name: 'api-backend', backendHosts: [{ protocol: 'HTTP', hostName: 'api.internal', port: 80 }] } })).id;
      ids.v1 = (await s.create('api-security/openapi-documents', { type: 'openapi-document', attributes: { name: 'api-v1' } })).id;
      ids.v2 = (await s.create('api-security/openapi-documents', { type: 'openapi-document', attributes: { name: 'api-v2' } })).id;
      const policy = (id: number, enabled: boolean) => ({ enabled, logOnly: false, pathMatching: 'ClientView', pathPattern: { pattern: '^/api/', caseIgnored: false, inverted: false }, openApiDocumentId: id });
      ids.api = (
        await s.create('mappings', {
          type: 'mapping',
          attributes: { name: 'api', entryPath: { value: '/api/' }, apiSecurity: { openApi: { policies: [policy(Number(ids.v1), true), policy(-1, false)] } } },
        })
      ).id;
      await s.link('mappings', ids.api, 'back-end-groups', [{ type: 'back-end-group', id: ids.backend }]);
    }, 'documents and a mapping');
  });

  it('exports the document by name (and -1 as -1), and the export plans no change', async () => {
    const dir = join(t.h.dir, 'export');
    const r = await t.h.cli(['export', ...t.h.connection, '--out', dir]);
    expect(r.code).toBe(0);
    const mapping = await readFile(join(dir, 'mapping', 'api.yaml'), 'utf8');
    expect(mapping).toMatch(/openApiDocumentId: api-v1\n/);
    expect(mapping).toMatch(/openApiDocumentId: -1\n/);
    const plan = await t.h.cli(['plan', '--config', join(dir, 'gwops.yaml'), ...t.h.connection, '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('a change of document in Git is planned by name and applied as the id; a change by hand is drift, by name', async () => {
    const folder = await writeManifests(t.h, 'project', project('api-v2'));
    const config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
    const plan = await t.h.cli(['plan', ...config]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('api-v2');
    expect(plan.stdout).not.toMatch(new RegExp(`openApiDocumentId[^\\n]*\\b${ids.v2}\\b`));
    const apply = await t.h.cli(['apply', ...config, '--yes']);
    expect(apply.code).toBe(0);
    const policies = async (): Promise<unknown> =>
      t.h.raw(async (s) => ((await s.list('mappings', [])).find((m) => m.id === ids.api)?.attributes.apiSecurity as { openApi: { policies: { openApiDocumentId: unknown }[] } }).openApi.policies.map((p) => p.openApiDocumentId), 'read');
    expect(await policies()).toEqual([Number(ids.v2), -1]);
    expect((await t.h.cli(['plan', ...config, '--detailed-exitcode'])).code).toBe(0);

    await t.h.raw(async (s) => {
      const policy = (id: number, enabled: boolean) => ({ enabled, logOnly: false, pathMatching: 'ClientView', pathPattern: { pattern: '^/api/', caseIgnored: false, inverted: false }, openApiDocumentId: id });
      await s.update('mappings', ids.api ?? '', { type: 'mapping', attributes: { apiSecurity: { openApi: { policies: [policy(Number(ids.v1), true), policy(-1, false)] } } } });
    }, 'a change by hand');
    const drift = await t.h.cli(['drift', ...config]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('api-v1');
    expect(drift.stdout).toContain('api-v2');
  });

  it('a name that resolves to no document is an error at that name, and nothing is sent', async () => {
    const folder = await writeManifests(t.h, 'unknown', project('api-nowhere'));
    const r = await t.h.cli(['plan', '--config', join(folder, 'gwops.yaml'), ...t.h.connection]);
    expect(r.code).toBe(1);
    const lines = (await readFile(join(folder, 'app.yaml'), 'utf8')).split('\n');
    const line = lines.findIndex((l) => l.includes('api-nowhere'));
    expect(r.stderr).toContain(`app.yaml:${line + 1}:${(lines[line] ?? '').indexOf('api-nowhere') + 1}`);
    expect(r.stderr).toContain("openapi-document 'api-nowhere'");
  });
});
