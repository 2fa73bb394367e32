/**
 * The exact API calls of `gwops apply`, in order, for a few representative plans: the
 * real CLI against the emulator, read back from its `requestLog` (docs/architecture.md
 * "Habits", a strict HTTP test harness). An extra, missing or reordered call fails here.
 *
 * The tests are one story on one emulator and run in order: a first apply creates a small
 * set with links, then one attribute changes, then a link moves, then `--prune` deletes
 * what the manifests dropped, and last an apply finds nothing to do. Every apply uses the
 * same project file, whose ownership filters narrow the lists.
 *
 * A call is written `METHOD path?query` (query URL-decoded). Server ids are replaced by
 * `{kind:name}`, the placeholders of the plan's JSON, since they depend on what ran
 * before. The expectations are literal arrays on purpose: when a change of the executor
 * adds, drops or merges calls, the diff of this file shows it call by call. Batching of
 * many links into one call is pinned in batching.test.ts.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/emulator/index.js';
import { resourcesOf } from '../../src/api/documents.js';
import { kindByCollection } from '../../src/kinds/index.js';
import { useHarness, writeManifests } from './harness.js';

const PROJECT = `ownership:
  back-end-group: ['name=@cs-']
  mapping: ['name=@cs-']
  virtual-host: ['name=@cs-']
`;

const backEndGroup = (name: string): string => `apiVersion: gwops/v1
kind: back-end-group
name: ${name}
attributes:
  backendHosts:
    - { protocol: HTTP, hostName: ${name}.internal, port: 8080 }
`;

const mapping = (backendPath: string, group: string): string => `apiVersion: gwops/v1
kind: mapping
name: cs-api
attributes:
  entryPath: { value: /api/ }
  backendPath: ${backendPath}
relationships:
  back-end-groups: [${group}]
`;

/** HTTP only, so that the validator asks for no certificate. */
const VIRTUAL_HOST = `apiVersion: gwops/v1
kind: virtual-host
name: cs-host
attributes:
  hostName: cs.example.com
  networkInterface:
    http: { enabled: true, port: 80 }
    https: { enabled: false, http2Allowed: false }
relationships:
  mappings: [cs-api]
`;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `type/id` → name of the objects of the emulator's active configuration. */
function namesOf(snapshot: unknown): Map<string, string> {
  const names = new Map<string, string>();
  if (!isRecord(snapshot)) return names;
  for (const r of resourcesOf({ data: snapshot.objects })) {
    if (typeof r.attributes.name === 'string') names.set(`${r.type}/${r.id}`, r.attributes.name);
  }
  return names;
}

/** One logged request as `METHOD path?query`, the id after a collection replaced by `{kind:name}`. */
function describeCall(entry: RequestLogEntry, names: ReadonlyMap<string, string>): string {
  const path = entry.path.replace(/^\/configuration\/([a-z-]+)\/([^/]+)/, (whole, collection: string, id: string) => {
    const kind = kindByCollection(collection);
    if (!kind) return whole;
    return `/configuration/${collection}/{${kind.type}:${names.get(`${kind.type}/${id}`) ?? `unknown id ${id}`}}`;
  });
  return entry.query === '' ? `${entry.method} ${path}` : `${entry.method} ${path}?${decodeURIComponent(entry.query)}`;
}

/**
 * The calls that open every run: a session, the gateway's version (its variant), the active configuration, one list per kind
 * that the manifests or the ownership scope name (owned kinds narrowed). Certificates and
 * ACME services are not read: nothing here names them.
 */
const READ_LIVE = [
  'POST /session/create',
  'GET /system/status/node',
  'POST /configuration/configurations/load-active',
  'GET /configuration/back-end-groups?filter=name=@cs-',
  'GET /configuration/mappings?filter=name=@cs-',
  'GET /configuration/virtual-hosts?filter=name=@cs-',
];

/** The calls that close every apply with changes: the validator, the activation confirmed in the list, the end of the session. */
const VALIDATE_ACTIVATE_END = [
  'GET /configuration/validator-messages',
  'GET /configuration/configurations',
  'POST /configuration/configurations/activate',
  'GET /configuration/configurations',
  'POST /session/terminate',
];

describe('the API calls of gwops apply, in order', () => {
  const t = useHarness();
  let project = '';

  beforeAll(async () => {
    project = join(await writeManifests(t.h, 'call-sequence-project', { 'gwops.yaml': PROJECT }), 'gwops.yaml');
  });

  /** Runs `gwops apply --yes` on the manifests and returns the calls it made. */
  async function apply(step: string, manifests: Record<string, string>, flags: readonly string[] = []): Promise<string[]> {
    const folder = await writeManifests(t.h, `call-sequence-${step}`, manifests);
    const before = namesOf(t.h.emulator.activeSnapshot());
    t.h.emulator.requestLog.length = 0;
    const r = await t.h.cli(['apply', '--yes', '--config', project, ...t.h.connection, '--comment', step, ...flags, folder]);
    const log = [...t.h.emulator.requestLog];
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(log.filter((e) => e.status >= 400)).toEqual([]);
    const names = new Map([...before, ...namesOf(t.h.emulator.activeSnapshot())]);
    return log.map((e) => describeCall(e, names));
  }

  it('first apply: creates two back-end groups, a mapping and a virtual host that carries its link, then links the mapping', async () => {
    const calls = await apply('create', {
      'back-end-groups.yaml': `${backEndGroup('cs-backend')}---\n${backEndGroup('cs-spare')}`,
      'mappings.yaml': mapping('/', 'cs-backend'),
      'virtual-hosts.yaml': VIRTUAL_HOST,
    });
    expect(calls).toEqual([
      ...READ_LIVE,
      'POST /configuration/back-end-groups',
      'POST /configuration/back-end-groups',
      'POST /configuration/mappings',
      // The create body carries `relationships.mappings` (KindDefinition createRelationships).
      'POST /configuration/virtual-hosts',
      'PATCH /configuration/mappings/{mapping:cs-api}/relationships/back-end-groups',
      ...VALIDATE_ACTIVATE_END,
    ]);
  });

  it('an update of one attribute: one PATCH of the object', async () => {
    const calls = await apply('update', {
      'back-end-groups.yaml': `${backEndGroup('cs-backend')}---\n${backEndGroup('cs-spare')}`,
      'mappings.yaml': mapping('/v2/', 'cs-backend'),
      'virtual-hosts.yaml': VIRTUAL_HOST,
    });
    expect(calls).toEqual([
      ...READ_LIVE,
      'PATCH /configuration/mappings/{mapping:cs-api}',
      ...VALIDATE_ACTIVATE_END,
    ]);
  });

  it('a link change: the mapping moves to the other back-end group, unlink before link', async () => {
    const calls = await apply('relink', {
      'back-end-groups.yaml': `${backEndGroup('cs-backend')}---\n${backEndGroup('cs-spare')}`,
      'mappings.yaml': mapping('/v2/', 'cs-spare'),
      'virtual-hosts.yaml': VIRTUAL_HOST,
    });
    expect(calls).toEqual([
      ...READ_LIVE,
      'DELETE /configuration/mappings/{mapping:cs-api}/relationships/back-end-groups',
      'PATCH /configuration/mappings/{mapping:cs-api}/relationships/back-end-groups',
      ...VALIDATE_ACTIVATE_END,
    ]);
  });

  it('--prune: deletes the owned back-end group that no manifest declares any more', async () => {
    const calls = await apply(
      'prune',
      {
        'back-end-groups.yaml': backEndGroup('cs-spare'),
        'mappings.yaml': mapping('/v2/', 'cs-spare'),
        'virtual-hosts.yaml': VIRTUAL_HOST,
      },
      ['--prune'],
    );
    expect(calls).toEqual([
      ...READ_LIVE,
      'DELETE /configuration/back-end-groups/{back-end-group:cs-backend}',
      ...VALIDATE_ACTIVATE_END,
    ]);
  });

  it('nothing to do: reads the lists and ends the session without activating', async () => {
    const calls = await apply(
      'no-changes',
      {
        'back-end-groups.yaml': backEndGroup('cs-spare'),
        'mappings.yaml': mapping('/v2/', 'cs-spare'),
        'virtual-hosts.yaml': VIRTUAL_HOST,
      },
      ['--prune'],
    );
    expect(calls).toEqual([
      ...READ_LIVE,
      'POST /session/terminate',
    ]);
  });
});
