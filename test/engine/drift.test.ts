/**
 * The pure parts of drift: ignore entries (their checks, expiry at the end of the `until`
 * day, matching), attribution out of the configurations list, and the in-place edits of
 * `drift --adopt` (src/adopt/edit.ts), the last also as a property over the examples.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseAllDocuments, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { editEachOnWholeText, editManifestText } from '../../src/adopt/edit.js';
import { escapeVariables } from '../../src/manifest/variables.js';
import { attributeDrift } from '../../src/engine/drift-attribution.js';
import { entriesInForce, matchingEntry, parseDriftSettings } from '../../src/manifest/drift-ignore.js';
import { EXAMPLES } from '../e2e/harness.js';
import { DRIFT_DIRECTIONS, driftedObjects, entriesByObject } from '../../src/engine/drift-report.js';
import type { ResourceType } from '../../src/kinds/index.js';

describe('drift.ignore', () => {
  const { settings, problems } = parseDriftSettings({
    ignore: [
      { object: 'mapping/shop-api', attribute: 'access', reason: 'r1', until: '2026-12-31' },
      { object: 'virtual-host/*', reason: 'r2', until: '2026-06-30' },
      { object: 'vhost/x', reason: 'bad kind', until: '2026-01-01' },
      { object: 'mapping/x', reason: 'bad date', until: '2026-02-29' },
    ],
  });

  it('checks the kind and the date, naming the entry and what would be right', () => {
    expect(problems).toEqual([
      { index: 2, field: 'object', message: expect.stringContaining("'vhost/x' must be <kind>/<name>") as unknown },
      { index: 3, field: 'until', message: expect.stringContaining("'2026-02-29' is not a calendar date; write YYYY-MM-DD") as unknown },
    ]);
    expect(settings.ignore.map((e) => e.object)).toEqual(['mapping/shop-api', 'virtual-host/*']);
    expect(settings.ignore[1]?.attribute).toBe('*');
  });

  it('ignores through the whole until day (UTC) and not a millisecond after', () => {
    const [access] = settings.ignore;
    expect(entriesInForce(settings, new Date('2026-12-31T23:59:59.999Z')).active).toContain(access);
    const after = entriesInForce(settings, new Date('2027-01-01T00:00:00.000Z'));
    expect(after.active).toEqual([]);
    expect(after.expired).toHaveLength(2);
  });

  it('matches the attribute and the paths under it; only * matches a whole object', () => {
    const active = settings.ignore;
    expect(matchingEntry(active, 'mapping', 'shop-api', 'access')).toBeDefined();
    expect(matchingEntry(active, 'mapping', 'shop-api', 'access.deniedUrl.value')).toBeDefined();
    expect(matchingEntry(active, 'mapping', 'shop-api', 'accessLog')).toBeUndefined();
    expect(matchingEntry(active, 'mapping', 'shop-api', undefined)).toBeUndefined();
    expect(matchingEntry(active, 'mapping', 'other', 'access')).toBeUndefined();
    expect(matchingEntry(active, 'virtual-host', 'any', undefined)).toBeDefined();
    expect(matchingEntry(active, 'virtual-host', 'any', 'relationships.mappings')).toBeDefined();
  });
});

describe('attribution', () => {
  const entry = (id: string, configType: string, comment?: string): { id: string; configType: string; comment: string | undefined; createdAt: string; createdBy: string } => ({
    id,
    configType,
    comment,
    createdAt: `2026-11-2${id}T00:00:00Z`,
    createdBy: `user${id}`,
  });

  it("names the activations after gwops's last apply, newest first, a rollback among them marked with the configuration it activated again", () => {
    const a = attributeDrift([entry('5', 'CURRENTLY_ACTIVE', 'manual'), entry('4', 'SAVED', 'draft'), entry('3', 'PREVIOUSLY_ACTIVE', 'gwops rollback: to configuration 1'), entry('2', 'PREVIOUSLY_ACTIVE', 'gwops apply')]);
    expect(a.lastGwops?.id).toBe('2');
    expect(a.since).toEqual([
      { id: '5', configType: 'CURRENTLY_ACTIVE', comment: 'manual', createdAt: '2026-11-25T00:00:00Z', createdBy: 'user5' },
      { id: '3', configType: 'PREVIOUSLY_ACTIVE', comment: 'gwops rollback: to configuration 1', createdAt: '2026-11-23T00:00:00Z', createdBy: 'user3', rollbackTo: '1' },
    ]);
    expect(a.unattributed).toBeUndefined();
    // Without an apply in the history, the last rollback is gwops's last activation.
    expect(attributeDrift([entry('5', 'CURRENTLY_ACTIVE', 'manual'), entry('3', 'PREVIOUSLY_ACTIVE', 'gwops rollback: to configuration 1')]).lastGwops?.id).toBe('3');
  });

  it('says why it cannot attribute: no activation since gwops\'s, or none by gwops at all', () => {
    expect(attributeDrift([entry('2', 'CURRENTLY_ACTIVE', 'gwops apply: abc1234 x (A)')]).unattributed).toMatch(/no configuration was activated since/);
    expect(attributeDrift([entry('2', 'CURRENTLY_ACTIVE', 'by hand')]).unattributed).toMatch(/holds no activation made by gwops/);
  });
});

describe('drift --adopt edits in place', () => {
  const TEXT = [
    '# head comment',
    'apiVersion: gwops/v1',
    'kind: mapping',
    'name: a',
    'attributes:',
    '  backendPath: /v1/ # trailing comment',
    '  entryPath: { value: /a/ }',
    '  labels: [x, y]',
    'relationships:',
    '  back-end-groups:',
    '    - g1',
    '    - g2',
    '---',
    '# second',
    'apiVersion: gwops/v1',
    'kind: mapping',
    'name: b',
    'attributes:',
    '  backendPath: /b/',
    '',
  ].join('\n');

  it('replaces only the value, keeping comments, flow style and the other documents', () => {
    const out = editManifestText(TEXT, [
      { ref: { kind: 'mapping', name: 'a' }, edit: { type: 'set', path: ['attributes', 'backendPath'], value: '/v2/' } },
      { ref: { kind: 'mapping', name: 'a' }, edit: { type: 'set', path: ['attributes', 'entryPath', 'value'], value: '/b/' } },
      { ref: { kind: 'mapping', name: 'a' }, edit: { type: 'set', path: ['attributes', 'labels'], value: ['x', 'z'] } },
      { ref: { kind: 'mapping', name: 'a' }, edit: { type: 'link', relationship: 'back-end-groups', target: 'g2', add: false, cardinality: 'many' } },
    ]);
    expect(out.text).toBe(
      TEXT.replace('/v1/ #', '/v2/ #').replace('{ value: /a/ }', '{ value: /b/ }').replace('[x, y]', '[x, z]').replace('    - g2\n', ''),
    );
    expect(out.notFound).toEqual([]);
  });

  it('adds a value the document does not hold in place, and removes documents', () => {
    const out = editManifestText(TEXT, [
      { ref: { kind: 'mapping', name: 'b' }, edit: { type: 'set', path: ['attributes', 'access', 'deniedUrl', 'value'], value: '/denied' } },
      { ref: { kind: 'mapping', name: 'a' }, edit: { type: 'remove-document' } },
      { ref: { kind: 'mapping', name: 'zz' }, edit: { type: 'remove-document' } },
    ]);
    expect(out.notFound).toEqual([{ kind: 'mapping', name: 'zz' }]);
    const docs = parseAllDocuments(out.text).map((d) => d.toJS() as unknown);
    expect(docs).toEqual([{ apiVersion: 'gwops/v1', kind: 'mapping', name: 'b', attributes: { backendPath: '/b/', access: { deniedUrl: { value: '/denied' } } } }]);
    expect(out.text).toContain('# second');
    expect(out.text.startsWith('# head comment\n')).toBe(true);
  });

  it('applies several edits of one flow list one after another, each on the text the last left', () => {
    const text = 'kind: back-end-group\nname: g\nrelationships:\n  mappings: [m2, m3] # moved\n';
    const link = (target: string, add: boolean) => ({ ref: { kind: 'back-end-group', name: 'g' }, edit: { type: 'link' as const, relationship: 'mappings', target, add, cardinality: 'many' as const } });
    expect(editManifestText(text, [link('m4', true), link('m2', false)]).text).toBe(text.replace('[m2, m3]', '[m3, m4]'));
    expect(editManifestText(text, [link('m2', false), link('m3', false)]).text).toBe('kind: back-end-group\nname: g\n');
    expect(editManifestText('# nothing yet\n', []).text).toBe('# nothing yet\n');
  });

  it('changes exactly the edited scalar of the examples and nothing else', () => {
    const text = readFileSync(join(EXAMPLES, 'manifests', 'virtual-hosts.yaml'), 'utf8');
    const docs = parseAllDocuments(text).map((d) => d.toJS() as { name: string; attributes: Record<string, unknown> });
    const leaves: { doc: number; path: string[] }[] = [];
    docs.forEach((d, i) => {
      const walk = (v: unknown, path: string[]): void => {
        if (v !== null && typeof v === 'object' && !Array.isArray(v)) for (const [k, c] of Object.entries(v)) walk(c, [...path, k]);
        else if (!Array.isArray(v)) leaves.push({ doc: i, path });
      };
      walk(d.attributes, []);
    });
    fc.assert(
      fc.property(fc.constantFrom(...leaves), fc.oneof(fc.integer(), fc.boolean(), fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('${', 'a${B}c', '$${x}'))), (leaf, value) => {
        const doc = docs[leaf.doc];
        if (!doc) return;
        const out = editManifestText(text, [{ ref: { kind: 'virtual-host', name: doc.name }, edit: { type: 'set', path: ['attributes', ...leaf.path], value } }]);
        const after = parseAllDocuments(out.text).map((d) => d.toJS() as { attributes: Record<string, unknown> });
        const expected = structuredClone(docs);
        let node: Record<string, unknown> = expected[leaf.doc]?.attributes ?? {};
        for (const key of leaf.path.slice(0, -1)) node = node[key] as Record<string, unknown>;
        // A string is written so that it reads back as itself: `${` escaped as `$${`.
        node[leaf.path[leaf.path.length - 1] ?? ''] = typeof value === 'string' ? escapeVariables(value) : value;
        expect(after).toEqual(expected);
        const before = text.split('\n');
        const changed = out.text.split('\n').filter((line, i) => line !== before[i]);
        expect(changed.length).toBeLessThanOrEqual(1);
      }),
      { numRuns: 200 },
    );
  });
});

describe('drift --adopt never writes a secret', () => {
  it('lists a drifted secret as not adopted and edits nothing for it', async () => {
    const { planAdoption } = await import('../../src/adopt/index.js');
    const source = { file: 'manifests/certs.yaml', line: 1, column: 1 };
    const desired = {
      objects: new Map([['mapping' as const, new Map([['m', { kind: 'mapping' as const, name: 'm', attributes: {}, source }]])]]),
      links: [],
    };
    const report = {
      formatVersion: '1.0' as const,
      drifted: true,
      entries: [
        { direction: 'changed' as const, kind: 'mapping' as const, name: 'm', path: 'access.tokenVerification.jwsKey', declared: '(sensitive value)', live: '(sensitive value)', sensitive: true, source },
        { direction: 'changed' as const, kind: 'mapping' as const, name: 'm', path: 'backendPath', declared: '/a/', live: '/b/', sensitive: false, source },
      ],
      ignored: [],
      expiredIgnores: [],
      attribution: { since: [] },
      gatewayDrifted: true,
    };
    const { edits, skipped } = planAdoption({
      report,
      desired,
      live: { objects: new Map(), links: [] },
      cwd: '/work',
      adoptDeletions: false,
      origins: () => ({ base: { file: source.file, form: 'document', locate: (segments) => segments }, overlays: [] }),
      targets: {},
    });
    expect(skipped).toEqual([expect.stringContaining("mapping 'm' access.tokenVerification.jwsKey: a secret is never written into a manifest") as unknown]);
    expect([...edits.values()].flat().map((e) => e.edit)).toEqual([{ type: 'set', path: ['attributes', 'backendPath'], value: '/b/' }]);
  });
});

describe('drift entries by object', () => {
  it('groups every entry under its object, objects in order of first entry, entries in order (property)', () => {
    const entry = fc.record({
      direction: fc.constantFrom(...DRIFT_DIRECTIONS),
      kind: fc.constantFrom<ResourceType>('mapping', 'virtual-host'),
      name: fc.constantFrom('a', 'b', 'c', 'a\u0000b'),
      path: fc.constantFrom('x', 'y'),
      sensitive: fc.constant(false),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), (entries) => {
        const groups = entriesByObject(entries);
        expect(groups.map((g) => g.ref)).toEqual(driftedObjects(entries));
        for (const g of groups) expect(g.entries).toEqual(entries.filter((e) => e.kind === g.ref.kind && e.name === g.ref.name));
        expect(groups.flatMap((g) => g.entries)).toHaveLength(entries.length);
      }),
    );
  });
});

describe('editManifestText on a file of many documents', () => {
  const kinds = ['mapping', 'back-end-group'] as const;
  const names = ['a', 'b c', "it's #x"];
  const attributes = fc.dictionary(fc.constantFrom('backendPath', 'labels', 'entryPath', 'port', 'x y'), fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }), fc.record({ value: fc.string({ maxLength: 5 }) })), { maxKeys: 4 });
  const documentText = fc
    .record({
      kind: fc.constantFrom(...kinds),
      name: fc.constantFrom(...names),
      attributes,
      links: fc.array(fc.constantFrom('g1', 'g2', 'm1'), { maxLength: 3 }),
      style: fc.constantFrom<'flow' | 'block' | 'any'>('flow', 'block', 'any'),
      comment: fc.boolean(),
      // How the kind is written: plainly, with a tag, with an anchor; and a document end marker.
      written: fc.constantFrom('plain', 'tag', 'anchor'),
      ended: fc.boolean(),
    })
    .map(({ kind, name, attributes: attrs, links, style, comment, written, ended }) => {
      let body = stringify({ apiVersion: 'gwops/v1', kind, name, attributes: attrs, relationships: { 'back-end-groups': links } }, { collectionStyle: style });
      if (written !== 'plain') body = body.replace(`kind: ${kind}`, `kind: ${written === 'tag' ? '!!str' : '&k'} ${kind}`);
      if (comment) body = `# ${name}\n${body}# end of ${name}\n`;
      return ended ? `${body}...\n` : body;
    });
  const path = fc.array(fc.constantFrom('attributes', 'backendPath', 'labels', 'entryPath', 'value', '0', '1', 'new'), { minLength: 1, maxLength: 3 });
  const edit = fc.record({
    ref: fc.record({ kind: fc.constantFrom(...kinds), name: fc.constantFrom(...names, 'missing') }),
    edit: fc.oneof(
      fc.record({ type: fc.constant('set' as const), path, value: fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 })) }),
      fc.record({ type: fc.constant('delete' as const), path }),
      fc.record({ type: fc.constant('link' as const), relationship: fc.constant('back-end-groups'), target: fc.constantFrom('g1', 'g2', 'g3'), add: fc.boolean(), cardinality: fc.constant('many' as const) }),
      fc.record({ type: fc.constant('remove-document' as const) }),
    ),
  });

  it('gives what making every edit on the whole text gives, whichever documents the edits address and in which order', () => {
    fc.assert(
      fc.property(fc.array(documentText, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.boolean(), fc.array(edit, { maxLength: 8 }), (docs, leadingMarker, headComment, edits) => {
        const text = `${headComment ? '# head\n' : ''}${leadingMarker ? '---\n' : ''}${docs.join('---\n')}`;
        expect(editManifestText(text, edits)).toEqual(editEachOnWholeText(text, edits));
      }),
      { numRuns: 300 },
    );
  });
});
