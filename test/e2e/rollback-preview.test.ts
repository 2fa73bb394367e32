/**
 * A rollback reads as one: its preview shows what differs between the active configuration
 * and the one rolled back to (a re-created object by the attributes that differ from the
 * gateway's defaults, a deletion as "not in the configuration rolled back to"), labelled a
 * rollback preview; and after it, drift names the rollback as gwops's own activation and
 * the cause, never "changed outside gwops" or "cannot be attributed".
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const mapping = (name: string, path: string): string =>
  `apiVersion: gwops/v1\nkind: mapping\nname: ${name}\nattributes:\n  labels: [rollback-preview]\n  entryPath: { value: /${path}/ }\n  backendPath: /${path}-backend/\nrelationships:\n  back-end-groups: [rb-group]\n`;
const GROUP = 'apiVersion: gwops/v1\nkind: back-end-group\nname: rb-group\nattributes:\n  backendHosts:\n    - { hostName: rb.internal, port: 8080 }\n';

describe('rollback preview and the drift after a rollback', () => {
  const t = useHarness();

  it('previews the difference only, labelled as a rollback; drift afterwards names the rollback', async () => {
    const project = (dir: string): string[] => [dir, ...t.h.connection];
    const v1 = await writeManifests(t.h, 'rb-v1', { 'group.yaml': GROUP, 'keep.yaml': mapping('rb-keep', 'keep'), 'gone.yaml': mapping('rb-gone', 'gone') });
    const v2 = await writeManifests(t.h, 'rb-v2', { 'group.yaml': GROUP, 'keep.yaml': mapping('rb-keep', 'kept'), 'new.yaml': mapping('rb-new', 'new') });
    const ownership = ['--config', await writeManifests(t.h, 'rb-project', { 'gwops.yaml': "ownership:\n  mapping: ['label==rollback-preview']\n" }).then((d) => `${d}/gwops.yaml`)];
    const applied = await t.h.cli(['apply', '--yes', ...ownership, ...project(v1), '--comment', 'gwops apply: 1111111 first (Tess Ter)']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const first = (t.h.emulator.activeSnapshot() as { id: string }).id;
    const second = await t.h.cli(['apply', '--yes', '--prune', ...ownership, ...project(v2), '--comment', 'gwops apply: 2222222 second (Tess Ter)']);
    expect(second.code, second.stderr).toBe(0);

    const preview = await t.h.cli(['rollback', ...ownership, ...t.h.connection, first]);
    expect(preview.code).toBe(1); // no terminal, no --yes: shown, then refused
    expect(preview.stdout).toContain(`Rollback preview: what activating configuration ${first} would change in the active configuration`);
    expect(preview.stdout).not.toContain('gwops will perform the following actions');
    const gone = preview.stdout.slice(preview.stdout.indexOf('# mapping "rb-gone"'));
    const block = gone.slice(0, gone.indexOf('\n    }'));
    expect(block).toContain('+ entryPath.value');
    expect(block).toContain('+ backendPath');
    // Server defaults are the same on both sides: not listed.
    expect(block).not.toContain('threatHandling');
    expect(block.split('\n').length).toBeLessThan(15);
    expect(preview.stdout).toContain(`# (not in configuration ${first}, the one rolled back to)`);
    expect(preview.stdout).not.toContain('pruning is on');
    expect(preview.stdout).toContain("Within this project's ownership scope only");
    expect(preview.stdout).toMatch(/~ entryPath\.value += "\/kept\/" -> "\/keep\/"/);

    const rollback = await t.h.cli(['rollback', '--yes', ...ownership, ...t.h.connection, first]);
    expect(rollback.code, rollback.stderr).toBe(0);
    const drift = await t.h.cli(['drift', ...ownership, ...project(v2)]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(`Drift detected: gwops rollback activated configuration ${first} again, which differs from the manifests.`);
    expect(drift.stdout).toContain(`"gwops rollback: to configuration ${first} (1111111 first)"`);
    expect(drift.stdout).not.toContain('changed outside gwops');
    expect(drift.stdout).not.toContain('cannot be attributed');
    const markdown = await t.h.cli(['drift', ...ownership, ...project(v2), '--format', 'markdown']);
    expect(markdown.stdout).toContain(`gwops rollback activated configuration ${first} again`);
    expect(markdown.stdout).not.toContain('changed outside gwops');
    const json = JSON.parse((await t.h.cli(['drift', ...ownership, ...project(v2), '--format', 'json'])).stdout) as { attribution: { since: { comment: string; rollbackTo?: string }[] } };
    expect(json.attribution.since).toEqual([expect.objectContaining({ comment: `gwops rollback: to configuration ${first} (1111111 first)`, rollbackTo: first })]);
  });

  it('previews the specification a rollback brings back as plan shows content (digests and diff), and the rollback restores its bytes', async () => {
    const spec = (description: string): string => `openapi: 3.0.3\ninfo:\n  title: Invoices\n  version: 1.0.0\npaths:\n  /invoices:\n    get:\n      responses:\n        '200':\n          description: ${description}\n`;
    const doc = (name: string, file: string): string => `apiVersion: gwops/v1\nkind: openapi-document\nname: ${name}\ncontent:\n  fromFile: ${file}\n`;
    const project = (files: string): string => `manifests: [${files}]\nownership:\n  openapi-document: [name=@rb-doc-]\n`;
    const v1 = await writeManifests(t.h, 'rb-doc-v1', { 'gwops.yaml': project('invoices.yaml, gone.yaml'), 'invoices.yaml': doc('rb-doc-invoices', 'invoices.spec.yaml'), 'invoices.spec.yaml': spec('the invoices'), 'gone.yaml': doc('rb-doc-gone', 'gone.spec.yaml'), 'gone.spec.yaml': spec('only in the first') });
    const v2 = await writeManifests(t.h, 'rb-doc-v2', { 'gwops.yaml': project('invoices.yaml'), 'invoices.yaml': doc('rb-doc-invoices', 'invoices.spec.yaml'), 'invoices.spec.yaml': spec('every invoice') });
    const applied = await t.h.cli(['apply', '--yes', '--config', join(v1, 'gwops.yaml'), ...t.h.connection, '--comment', 'gwops apply: 3333333 first spec (Tess Ter)']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const first = (t.h.emulator.activeSnapshot() as { id: string }).id;
    const second = await t.h.cli(['apply', '--yes', '--prune', '--config', join(v2, 'gwops.yaml'), ...t.h.connection, '--comment', 'gwops apply: 4444444 second spec (Tess Ter)']);
    expect(second.code, second.stderr).toBe(0);

    const preview = await t.h.cli(['rollback', '--config', join(v1, 'gwops.yaml'), ...t.h.connection, first]);
    expect(preview.code).toBe(1);
    expect(preview.stdout).toContain('~ openapi-document "rb-doc-invoices"');
    expect(preview.stdout).toContain('+ openapi-document "rb-doc-gone"');
    const invoices = preview.stdout.slice(preview.stdout.indexOf('~ openapi-document "rb-doc-invoices"'));
    expect(invoices).toMatch(/~ content: sha256:[0-9a-f]{16}… → sha256:[0-9a-f]{16}…/);
    expect(invoices).toMatch(/^ +- +description: every invoice$/m);
    expect(invoices).toMatch(/^ +\+ +description: the invoices$/m);
    expect(invoices).not.toMatch(/^ +[-+] +title: Invoices$/m);
    const gone = preview.stdout.slice(preview.stdout.indexOf('+ openapi-document "rb-doc-gone"'));
    expect(gone).toMatch(/\+ content = sha256:[0-9a-f]{16}…/);
    expect(gone).toMatch(/^ +\+ +description: only in the first$/m);

    const rollback = await t.h.cli(['rollback', '--yes', '--config', join(v1, 'gwops.yaml'), ...t.h.connection, first]);
    expect(rollback.code, rollback.stderr).toBe(0);
    const restored = await t.h.cli(['plan', '--config', join(v1, 'gwops.yaml'), ...t.h.connection, '--detailed-exitcode']);
    expect(restored.stdout).toContain('No changes');
    expect(restored.code).toBe(0);
    const live = await t.h.raw(async (s) => {
      const found = (await s.list('api-security/openapi-documents', ['name==rb-doc-invoices']))[0];
      return s.readContent('api-security/openapi-documents', found?.id ?? '');
    });
    expect(live.toString('utf8')).toBe(await readFile(join(v1, 'invoices.spec.yaml'), 'utf8'));
  });

  it('a rollback to the active configuration says so, reads it once and changes nothing', async () => {
    const active = (t.h.emulator.activeSnapshot() as { id: string }).id;
    t.h.emulator.requestLog.length = 0;
    const rollback = await t.h.cli(['rollback', '--yes', '--whole-configuration', ...t.h.connection, active]);
    expect(rollback.stderr).toContain(`Configuration ${active} is already the active configuration; nothing to do.`);
    expect(rollback.code).toBe(0);
    expect((t.h.emulator.activeSnapshot() as { id: string }).id).toBe(active);
    const loads = t.h.emulator.requestLog.filter((r) => r.method === 'POST' && /\/configurations\/(load-active|[^/]+\/load)$/.test(r.path));
    expect(loads).toHaveLength(1);
  });
});
