/**
 * `GET /v3/api-docs` and `/v3/api-docs.yaml` (docs/gateway-api.md "The API's own
 * description"): an OpenAPI 3.1 description of exactly what the emulator serves for its
 * variant. That every accepted request of the conformance suite fits it is checked by the
 * conformance client itself (api-docs-check.ts); here: every route is in it, per variant.
 */
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { KINDS, VARIANTS, kindExistsIn } from '../../../src/kinds/index.js';
import { ROUTES } from '../../../src/emulator/index.js';
import { startHarness } from './client.js';

interface Described {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: object }> } }>>;
}

/** The concrete paths a route pattern serves in `variant`, by an expansion of the test's own. */
function concretePaths(pattern: readonly string[], variant: (typeof VARIANTS)[number]): string[] {
  // A singleton answers only GET and PATCH on its own path (its own routes), never through `:collection`.
  const kinds = KINDS.filter((k) => kindExistsIn(k, variant) && !k.singleton);
  let paths: string[][] = [[...pattern]];
  if (pattern.includes(':collection')) {
    paths = kinds.flatMap((k) => {
      const withKind = pattern.map((s) => (s === ':collection' ? k.collection : s));
      if (!pattern.includes(':relationship')) return [withKind];
      return Object.values(k.relationships)
        .filter((d) => !d.variants || d.variants.includes(variant))
        .flatMap((d) => [d.name, ...(d.aliases ?? [])])
        .map((name) => withKind.map((s) => (s === ':relationship' ? name : s)));
    });
  }
  return paths.map((segments) => '/' + segments.map((s) => (s.startsWith(':') ? '7' : s)).join('/'));
}

function matches(template: string, path: string): boolean {
  const t = template.split('/');
  const p = path.split('/');
  return t.length === p.length && t.every((s, i) => (/^\{.+\}$/.test(s) ? p[i] !== '' : s === p[i]));
}

describe.each(VARIANTS)('GET /v3/api-docs on the %s variant', (variant) => {
  it('describes every route the emulator serves, with compilable request schemas, in JSON and in YAML alike', async () => {
    const h = await startHarness({ variant });
    try {
      const c = h.client();
      const json = await c.call('GET', '/v3/api-docs');
      expect(json.status).toBe(200);
      const doc = JSON.parse(json.text) as Described;
      expect(doc.openapi).toBe('3.1.0');
      const status = await (await c.open(h.emulator.apiKey)).call('GET', '/system/status/node');
      expect(doc.info.version).toBe((JSON.parse(status.text) as { data: { attributes: { version: string } } }).data.attributes.version);

      const yaml = await c.call('GET', '/v3/api-docs.yaml');
      expect(yaml.status).toBe(200);
      expect(parseYaml(yaml.text)).toEqual(doc);

      const missing: string[] = [];
      for (const route of [...ROUTES, { method: 'POST', pattern: ['session', 'create'] }, { method: 'GET', pattern: ['system', 'status', 'node'] }]) {
        for (const path of concretePaths(route.pattern, variant)) {
          const described = Object.entries(doc.paths).some(([template, ops]) => matches(template, path) && ops[route.method.toLowerCase()] !== undefined);
          if (!described) missing.push(`${route.method} ${path}`);
        }
      }
      expect(missing).toEqual([]);

      const ajv = new Ajv2020.default({ strict: false });
      for (const ops of Object.values(doc.paths)) {
        for (const op of Object.values(ops)) {
          const schema = op.requestBody?.content['application/json']?.schema;
          if (schema !== undefined) expect(typeof ajv.compile(schema)).toBe('function');
        }
      }
      const acme = Object.keys(doc.paths).some((p) => p.startsWith('/configuration/acme-services'));
      expect(acme).toBe(variant === 'latest');
    } finally {
      await h.close();
    }
  });
});
