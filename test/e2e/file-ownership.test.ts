/**
 * Every file gwops writes or reads has one use: `export` never writes two objects' files to
 * one path (a manifest and another document's content file, names that differ only by case
 * or Unicode normalisation), and a content file that the manifest paths read as a manifest
 * too is an error naming both uses, never a silent drop of its objects. End to end: the real
 * CLI against the emulator over HTTP.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const SPEC = 'openapi: 3.0.3\ninfo:\n  title: Orders\n  version: 1.0.0\npaths: {}\n';

function openapiDocument(name: string, file: string): string {
  return `apiVersion: gwops/v1\nkind: openapi-document\nname: ${JSON.stringify(name)}\ncontent:\n  fromFile: ${file}\n`;
}

describe('file ownership', () => {
  const t = useHarness();

  it('export of documents "orders" (YAML content) and "orders.content": both manifests are written, the content file gets another name, and the run says so', async () => {
    const source = await writeManifests(t.h, 'collision-source', {
      'gwops.yaml': 'manifests: [documents]\n',
    });
    await mkdir(join(source, 'documents'));
    await writeFile(join(source, 'documents', 'orders.yaml'), openapiDocument('orders', 'orders.spec.yaml'));
    await writeFile(join(source, 'documents', 'orders-content.yaml'), openapiDocument('orders.content', 'other.spec.yaml'));
    await writeFile(join(source, 'documents', 'orders.spec.yaml'), SPEC);
    await writeFile(join(source, 'documents', 'other.spec.yaml'), SPEC.replace('Orders', 'Other'));
    const apply = await t.h.cli(['apply', '--yes', ...t.h.connection], { cwd: source });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);

    const out = join(t.h.dir, 'collision-export');
    const exported = await t.h.cli(['export', '--out', out, '--kind', 'openapi-document', ...t.h.connection], { cwd: source });
    expect(exported.code).toBe(0);
    expect(exported.stderr).toContain('the content of openapi-document "orders" is written to openapi-document/orders~2.content.yaml: openapi-document/orders.content.yaml is the manifest of openapi-document "orders.content"');
    const files = (await readdir(join(out, 'openapi-document'))).sort();
    expect(files).toEqual(['orders.content.content.yaml', 'orders.content.yaml', 'orders.yaml', 'orders~2.content.yaml']);
    expect(await readFile(join(out, 'openapi-document', 'orders.content.yaml'), 'utf8')).toContain('name: orders.content');
    expect(await readFile(join(out, 'openapi-document', 'orders.yaml'), 'utf8')).toContain('fromFile: orders~2.content.yaml');
    expect(await readFile(join(out, 'openapi-document', 'orders~2.content.yaml'), 'utf8')).toBe(SPEC);

    // The exported project declares both documents and their content: nothing to change.
    const plan = await t.h.cli(['plan', '--detailed-exitcode', ...t.h.connection], { cwd: out });
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('a content file that holds a mapping and lies in the manifest paths: validate names both uses with file:line:column, plan --prune sends nothing', async () => {
    const dir = await writeManifests(t.h, 'content-is-manifest', {
      'gwops.yaml': 'manifests: [manifests]\nownership:\n  mapping: [name=@shadowed-]\n',
    });
    await mkdir(join(dir, 'manifests'));
    const mapping =
      'apiVersion: gwops/v1\nkind: mapping\nname: shadowed-mapping\nattributes:\n  entryPath: { value: /shadowed/ }\nrelationships: { back-end-groups: [shadowed-group] }\n---\n' +
      'apiVersion: gwops/v1\nkind: back-end-group\nname: shadowed-group\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 8080 }]\n';
    await writeFile(join(dir, 'manifests', 'more.yaml'), mapping);
    const apply = await t.h.cli(['apply', '--yes', ...t.h.connection], { cwd: dir });
    expect(apply.code).toBe(0);
    // The mapping Git declares, and now a document that names its file as content.
    await writeFile(join(dir, 'manifests', 'document.yaml'), `# the document\n${openapiDocument('shadowing-api', 'more.yaml')}`);

    const validate = await t.h.cli(['validate'], { cwd: dir });
    expect(validate.code).toBe(1);
    expect(validate.stdout).toContain(
      "manifests/document.yaml:6:13: error: content of openapi-document 'shadowing-api': file 'more.yaml' is a manifest too (manifests/more.yaml:1:1 declares mapping 'shadowed-mapping') and the manifest paths read it",
    );
    expect(validate.stdout).toContain('[content-is-manifest]');

    t.h.emulator.requestLog.length = 0;
    const plan = await t.h.cli(['plan', '--prune', ...t.h.connection], { cwd: dir });
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain('content-is-manifest');
    expect(plan.stdout).not.toContain('shadowed-mapping" will be deleted');
    expect(t.h.emulator.requestLog).toEqual([]);
  });
});
