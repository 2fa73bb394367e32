/**
 * The picture of a change: `plan --format markdown` of the examples starts with a Mermaid
 * flowchart that parses (the structural check of test/render/mermaid-syntax.ts) and shows
 * what the plan touches; `gwops graph` draws the manifests offline.
 */
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { MARKDOWN_MARKER } from '../../src/render/index.js';
import { mermaidBlock, parseFlowchart } from '../render/mermaid-syntax.js';
import { DEMO_PROJECT, EXAMPLES, useHarness, writeManifests } from './harness.js';

describe('the picture of a change', () => {
  const t = useHarness();

  it('starts the markdown plan of the examples with a flowchart that parses, every created object marked', async () => {
    const md = await t.h.cli(['plan', ...t.config, '--format', 'markdown', '--no-server-check']);
    expect(md.code).toBe(0);
    const lines = md.stdout.split('\n');
    expect(lines.slice(0, 4)).toEqual([MARKDOWN_MARKER, '### gwops plan', '', '```mermaid']);
    const block = mermaidBlock(md.stdout);
    expect(block).toBeDefined();
    const chart = parseFlowchart(block ?? '');
    expect(chart.nodes.size).toBeGreaterThan(5);
    expect([...chart.nodes.values()].every((n) => n.className === 'create' || chart.nodes.size <= 1)).toBe(true);
    expect(chart.edges.length).toBeGreaterThan(0);
    expect(chart.edges.every((e) => e.arrow === '==>')).toBe(true);
    expect(md.stdout).toMatch(/Legend: /);
  });

  it('draws an update and its neighbours after a change behind gwops\'s back', async () => {
    expect((await t.h.cli(['apply', '--yes', ...t.config, '--comment', 'examples'])).code).toBe(0);
    await t.h.raw(async (s) => {
      const [m] = await s.list('mappings', ['name==shop-cart']);
      if (m) await s.update('mappings', m.id, { type: 'mapping', attributes: { backendPath: '/elsewhere/' } });
    }, 'drift');
    const drift = await t.h.cli(['drift', ...t.config, '--format', 'markdown']);
    expect(drift.code).toBe(2);
    const chart = parseFlowchart(mermaidBlock(drift.stdout) ?? '');
    const changed = [...chart.nodes.values()].filter((n) => n.className !== undefined);
    expect(changed.map((n) => [n.label.split('<br/>')[1], n.className])).toEqual([['shop-cart', 'update']]);
    // Its neighbours (the virtual host and back-end group it links to) come along, unmarked.
    expect(chart.nodes.size).toBeGreaterThan(1);
    expect(chart.edges.every((e) => e.arrow === '-->')).toBe(true);
  });

  it('prints the whole managed topology offline with gwops graph, as mermaid and as dot', async () => {
    const mermaid = await t.h.cli(['graph', '--config', DEMO_PROJECT], { env: { GWOPS_EXAMPLE_SHOP_TLS_KEY: undefined, GWOPS_EXAMPLE_WILDCARD_TLS_KEY: undefined } });
    expect(mermaid.stderr).toBe('');
    expect(mermaid.code).toBe(0);
    const chart = parseFlowchart(mermaid.stdout);
    const kinds = new Set([...chart.nodes.values()].map((n) => n.label.split('<br/>')[0]));
    expect([...kinds].every((k) => KINDS.some((kind) => kind.type === k))).toBe(true);
    expect(chart.edges.length).toBeGreaterThan(chart.nodes.size / 2);
    const dot = await t.h.cli(['graph', `${EXAMPLES}/manifests`, '--config', DEMO_PROJECT, '--format', 'dot']);
    expect(dot.code).toBe(0);
    expect(dot.stdout.startsWith('digraph gwops {\n')).toBe(true);
    expect(dot.stdout.match(/->/g)?.length).toBe(chart.edges.length);
  });

  it('draws drift as it happened on the gateway, in the direction of the drift tables', async () => {
    const dir = await writeManifests(t.h, 'drift-picture', {
      'objects.yaml': [
        'apiVersion: gwops/v1\nkind: back-end-group\nname: pic-group\nattributes:\n  backendHosts:\n    - { hostName: pic.internal, port: 8080 }',
        'apiVersion: gwops/v1\nkind: mapping\nname: pic-linked\nattributes:\n  entryPath: { value: /pic-linked/ }\nrelationships:\n  back-end-groups: [pic-group]',
        'apiVersion: gwops/v1\nkind: mapping\nname: pic-free\nattributes:\n  entryPath: { value: /pic-free/ }\nrelationships:\n  back-end-groups: [pic-other]',
        'apiVersion: gwops/v1\nkind: back-end-group\nname: pic-other\nattributes:\n  backendHosts:\n    - { hostName: other.internal, port: 8080 }',
        'apiVersion: gwops/v1\nkind: back-end-group\nname: pic-doomed\nattributes:\n  backendHosts:\n    - { hostName: doomed.internal, port: 8080 }',
      ].join('\n---\n'),
    });
    const apply = await t.h.cli(['apply', '--yes', dir, ...t.h.connection]);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    // Behind gwops's back: a link added, an object deleted.
    await t.h.raw(async (s) => {
      const [free] = await s.list('mappings', ['name==pic-free']);
      const [group] = await s.list('back-end-groups', ['name==pic-group']);
      const [doomed] = await s.list('back-end-groups', ['name==pic-doomed']);
      if (!free || !group || !doomed) throw new Error('the applied objects are missing');
      await s.link('mappings', free.id, 'back-end-groups', [{ type: 'back-end-group', id: group.id }]);
      await s.remove('back-end-groups', doomed.id);
    }, 'behind gwops');
    const drift = await t.h.cli(['drift', dir, ...t.h.connection, '--format', 'markdown']);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('#### Links added on the gateway');
    expect(drift.stdout).toContain('#### Deleted on the gateway');
    const chart = parseFlowchart(mermaidBlock(drift.stdout) ?? '');
    const byName = new Map([...chart.nodes].map(([id, n]) => [n.label.split('<br/>')[1], { id, ...n }]));
    expect(byName.get('pic-doomed')?.className).toBe('delete');
    expect(byName.get('pic-doomed')?.label).toMatch(/^- /);
    const added = chart.edges.filter((e) => e.from === byName.get('pic-free')?.id && e.to === byName.get('pic-group')?.id);
    expect(added.map((e) => [e.arrow, e.label])).toEqual([['==>', 'added']]);
    expect(drift.stdout).toMatch(/Legend: .*on the gateway/);
  });

  it('stops with the manifests\' diagnostics when they have errors', async () => {
    const dir = await writeManifests(t.h, 'broken-graph', { 'bad.yaml': 'apiVersion: gwops/v1\nkind: nonsense\nname: x\n' });
    const r = await t.h.cli(['graph', dir], { cwd: t.h.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/bad\.yaml:2:\d+/);
  });
});
