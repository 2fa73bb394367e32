/**
 * Members of list items that a manifest leaves out (docs/architecture.md "Decisions": a
 * list is replaced whole, so a declared item means the whole item as declared, with the
 * gateway's item defaults for what it leaves out). A member changed behind gwops's back
 * inside a declared item (an allow rule's `httpMethodPattern.inverted`, an
 * `access.restrictions` item's pattern, a `pathRedirects` item's `from.caseIgnored`) is
 * drift: `drift` exits 2 naming the list, `plan` shows the change, `apply` restores the
 * default and a second `drift` is empty. End to end: the CLI against the emulator over
 * HTTP.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GatewaySession } from '../../src/gateway/index.js';
import { useHarness, writeManifests } from './harness.js';

const PROJECT = `ownership:
  mapping: ['name=@items-']
  virtual-host: ['name=@items-']
  back-end-group: ['name=@items-']
`;

const MANIFESTS = `apiVersion: gwops/v1
kind: back-end-group
name: items-web
attributes:
  backendHosts:
    - { protocol: HTTP, hostName: items-web.example.internal, port: 8080 }
---
apiVersion: gwops/v1
kind: mapping
name: items-api
attributes:
  entryPath: { value: /items/ }
  backendPath: /
  allowRules:
    - name: read-only
      pathPattern: { pattern: ^/items/ }
      httpMethodPattern: { pattern: ^GET$ }
  access:
    restrictions:
      - authorizedRoles: [customer]
        entryPathPattern: { pattern: ^/items/admin/ }
relationships:
  back-end-groups: [items-web]
  virtual-hosts: [items-host]
---
apiVersion: gwops/v1
kind: virtual-host
name: items-host
attributes:
  hostName: items.example.com
  networkInterface:
    http: { enabled: true, port: 80 }
    https: { enabled: false, http2Allowed: false }
  pathRedirects:
    - from: { pattern: ^/old/?$ }
      to: /items/
      redirectStatusCode: MOVED_PERMANENTLY
`;

type Attrs = Record<string, unknown>;

interface JsonEntry {
  direction: string;
  kind: string;
  name: string;
  path?: string;
}

/** The live attributes of the object named `name` in `collection`. */
async function liveAttributes(s: GatewaySession, collection: string, name: string): Promise<{ id: string; attributes: Attrs }> {
  const [found] = await s.list(collection, [`name==${name}`]);
  if (!found) throw new Error(`${collection} ${name} was not applied`);
  return { id: found.id, attributes: found.attributes };
}

/** `list` with `edit` applied to a copy of its first item. */
function withFirstItem(list: unknown, edit: (item: Attrs) => void): unknown[] {
  if (!Array.isArray(list) || list.length === 0) throw new Error('the list has no item');
  const copy = structuredClone(list) as Attrs[];
  edit(copy[0] as Attrs);
  return copy;
}

function member(value: unknown, ...path: string[]): unknown {
  let node = value;
  for (const key of path) node = typeof node === 'object' && node !== null ? (node as Attrs)[key] : undefined;
  return node;
}

const CASES = [
  {
    label: "an allow rule's httpMethodPattern.inverted",
    collection: 'mappings',
    kind: 'mapping',
    name: 'items-api',
    list: ['allowRules'],
    member: ['httpMethodPattern', 'inverted'],
  },
  {
    label: "an access.restrictions item's entryPathPattern.inverted",
    collection: 'mappings',
    kind: 'mapping',
    name: 'items-api',
    list: ['access', 'restrictions'],
    member: ['entryPathPattern', 'inverted'],
  },
  {
    label: "a pathRedirects item's from.caseIgnored",
    collection: 'virtual-hosts',
    kind: 'virtual-host',
    name: 'items-host',
    list: ['pathRedirects'],
    member: ['from', 'caseIgnored'],
  },
] as const;

describe('members of declared list items that the manifest leaves out', () => {
  const t = useHarness();
  let run: (command: string, ...flags: string[]) => ReturnType<typeof t.h.cli>;

  beforeAll(async () => {
    const project = join(await writeManifests(t.h, 'items-project', { 'gwops.yaml': PROJECT }), 'gwops.yaml');
    const manifests = await writeManifests(t.h, 'items-manifests', { 'items.yaml': MANIFESTS });
    run = (command, ...flags) => t.h.cli([command, '--config', project, ...t.h.connection, ...flags, manifests]);
    const apply = await run('apply', '--yes');
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
  });

  for (const c of CASES) {
    it(`${c.label} set to true live is drift, and apply restores it`, async () => {
      expect((await run('drift')).code).toBe(0);
      const [leaf] = c.member.slice(-1);
      const parent = c.member.slice(0, -1);
      await t.h.raw(async (s) => {
        const { id, attributes } = await liveAttributes(s, c.collection, c.name);
        const list = withFirstItem(member(attributes, ...c.list), (item) => {
          const holder = (item[parent[0] as string] ??= {}) as Attrs;
          holder[leaf as string] = true;
        });
        const patch = c.list.reduceRight<unknown>((acc, key) => ({ [key]: acc }), list) as Attrs;
        await s.update(c.collection, id, { type: c.kind, attributes: patch });
      }, `items: ${c.label}`);

      const drift = await run('drift', '--format', 'json');
      expect(drift.code).toBe(2);
      const entries = (JSON.parse(drift.stdout) as { entries: JsonEntry[] }).entries;
      expect(entries).toEqual([expect.objectContaining({ direction: 'changed', kind: c.kind, name: c.name, path: c.list.join('.') })]);

      const plan = await run('plan', '--detailed-exitcode');
      expect(plan.code).toBe(2);
      expect(plan.stdout).toContain(`~ ${c.kind} "${c.name}"`);
      // The list is shown whole, defaults filled in; the changed member is the one line that differs.
      expect(plan.stdout).toMatch(new RegExp(`^\\s*-\\s+"${leaf}": true,?$`, 'm'));
      expect(plan.stdout).toMatch(new RegExp(`^\\s*\\+\\s+"${leaf}": false,?$`, 'm'));

      const apply = await run('apply', '--yes');
      expect(apply.code).toBe(0);
      const restored = await t.h.raw(async (s) => (await liveAttributes(s, c.collection, c.name)).attributes);
      const list = member(restored, ...c.list) as unknown[];
      expect(member(list[0], ...c.member)).toBe(false);
      expect((await run('drift')).code).toBe(0);
    });
  }
});
