/**
 * A mapping's one-per-mapping API security references name their object:
 * `apiSecurity.openApi.documentId` (an openapi-document) and `apiSecurity.apiPolicy.serviceId`
 * (an api-policy-service) hold ids on the gateway (-1: none) and names in manifests, plans
 * and exports, resolved at plan time (schema `x-gwops-reference`), as
 * `openApiDocumentId` does. End to end against the emulator.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createdId, useHarness, writeManifests } from './harness.js';

const ids: Record<string, string> = {};

/** The project: a document, two services and the mapping that names `service` and the document. */
function project(service: string): Record<string, string> {
  const doc = (kind: string, name: string, body = ''): string => `apiVersion: gwops/v1\nkind: ${kind}\nname: ${name}\n${body}`;
  return {
    'gwops.yaml': 'manifests: [all.yaml]\nallowExternalLinks: true\n',
    'all.yaml': [
      doc('openapi-document', 'ref-doc'),
      doc('mapping', 'ref-api', `attributes:\n  entryPath: { value: /ref/ }\n  apiSecurity:\n    openApi: { documentId: ref-doc }\n    apiPolicy: { serviceId: ${service} }\nrelationships:\n  back-end-groups: [ref-backend]\n`),
    ].join('---\n'),
  };
}

describe('API security references by name', () => {
  const t = useHarness();

  beforeAll(async () => {
    await t.h.raw(async (s) => {
      ids.backend = await createdId(s, 'back-end-groups', 'back-end-group', { name: 'ref-backend', backendHosts: [{ protocol: 'HTTP', hostName: 'ref.internal', port: 80 }] });
      ids.doc = await createdId(s, 'api-security/openapi-documents', 'openapi-document', { name: 'ref-doc' });
      ids.one = await createdId(s, 'api-policy-services', 'api-policy-service', { name: 'ref-policy-one', sharedSecret: 'ref-shared-secret-1' });
      ids.two = await createdId(s, 'api-policy-services', 'api-policy-service', { name: 'ref-policy-two', sharedSecret: 'ref-shared-secret-2' });
      ids.api = await createdId(s, 'mappings', 'mapping', {
        name: 'ref-api',
        entryPath: { value: '/ref/' },
        apiSecurity: { openApi: { documentId: Number(ids.doc) }, apiPolicy: { serviceId: Number(ids.one) } },
      });
      await s.link('mappings', ids.api, 'back-end-groups', [{ type: 'back-end-group', id: ids.backend }]);
    }, 'a mapping with API security references');
  });

  const live = async (): Promise<unknown> =>
    t.h.raw(async (s) => (await s.list('mappings', [])).find((m) => m.id === ids.api)?.attributes.apiSecurity);

  it('exports both references by name, and the export plans no change', async () => {
    const dir = join(t.h.dir, 'export');
    expect((await t.h.cli(['export', ...t.h.connection, '--out', dir])).code).toBe(0);
    const text = await readFile(join(dir, 'mapping', 'ref-api.yaml'), 'utf8');
    expect(text).toMatch(/documentId: ref-doc\n/);
    expect(text).toMatch(/serviceId: ref-policy-one\n/);
    const env = { GWOPS_API_POLICY_SERVICE_REF_POLICY_ONE_SHAREDSECRET: 'ref-shared-secret-1', GWOPS_API_POLICY_SERVICE_REF_POLICY_TWO_SHAREDSECRET: 'ref-shared-secret-2' };
    const plan = await t.h.cli(['plan', '--config', join(dir, 'gwops.yaml'), ...t.h.connection, '--detailed-exitcode'], { env });
    expect([plan.code, plan.stderr]).toEqual([0, '']);
  });

  it('applies another service named in Git as its id, and then plans no change', async () => {
    const folder = await writeManifests(t.h, 'project', project('ref-policy-two'));
    const config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
    const plan = await t.h.cli(['plan', ...config]);
    expect(plan.stdout).toContain('ref-policy-two');
    const apply = await t.h.cli(['apply', ...config, '--yes', '--comment', 'other policy service']);
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);
    expect(await live()).toMatchObject({ openApi: { documentId: Number(ids.doc) }, apiPolicy: { serviceId: Number(ids.two) } });
    expect((await t.h.cli(['plan', ...config, '--detailed-exitcode'])).code).toBe(0);
  });
});
