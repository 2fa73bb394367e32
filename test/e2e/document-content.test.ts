/**
 * The content of OpenAPI and GraphQL documents managed from Git (docs/manifest-reference.md
 * "Document content"): `content: { fromFile }` is uploaded with `PUT /{id}/content`,
 * compared by SHA-256 digest, shown as a unified diff, reported as drift, adopted into its
 * file, exported beside the manifest, and a hostile `fromFile` is a located error that
 * sends nothing. End to end: the real CLI against the emulator over HTTP.
 */
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

const SPEC = [
  'openapi: 3.0.3',
  'info:',
  '  title: Orders',
  '  version: 1.0.0',
  'paths:',
  '  /orders:',
  '    get:',
  '      responses:',
  "        '200':",
  '          description: the orders',
  '',
].join('\n');

const MANIFEST = 'apiVersion: gwops/v1\nkind: openapi-document\nname: orders-api\ncontent:\n  fromFile: orders.openapi.yaml\n';
const COLLECTION = 'api-security/openapi-documents';

describe('document content from Git', () => {
  const t = useHarness();
  let folder = '';
  let config: string[] = [];

  /** The bytes of document `name` on the gateway (active configuration). */
  async function liveContent(name: string): Promise<Buffer> {
    return t.h.raw(async (s) => {
      const doc = (await s.list(COLLECTION, [`name==${name}`]))[0];
      if (!doc) throw new Error(`no ${name}`);
      return s.readContent(COLLECTION, doc.id);
    });
  }

  beforeAll(async () => {
    folder = await writeManifests(t.h, 'content', { 'gwops.yaml': 'manifests: [documents]\nownership:\n  openapi-document: [name=@orders-]\n' });
    // The YAML specification lies in the directory the project scans for manifests.
    await mkdir(join(folder, 'documents'));
    await writeFile(join(folder, 'documents', 'orders-api.yaml'), MANIFEST);
    await writeFile(join(folder, 'documents', 'orders.openapi.yaml'), SPEC);
    config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
  });

  it('a new document is created, then its content uploaded; the plan after it is empty', async () => {
    const plan = await t.h.cli(['plan', ...config]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/\+ content = sha256:[0-9a-f]{16}…/);
    expect(plan.stdout).toMatch(/^ +\+ +title: Orders$/m);
    t.h.emulator.requestLog.length = 0;
    const apply = await t.h.cli(['apply', ...config, '--yes']);
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    const calls = t.h.emulator.requestLog.map((e) => `${e.method} ${e.path}`).filter((c) => c.includes('openapi-documents') && !c.startsWith('GET'));
    expect(calls).toEqual([`POST /configuration/${COLLECTION}`, expect.stringMatching(new RegExp(`^PUT /configuration/${COLLECTION}/\\d+/content$`))]);
    expect((await liveContent('orders-api')).toString('utf8')).toBe(SPEC);
    const again = await t.h.cli(['plan', ...config, '--detailed-exitcode']);
    expect(again.stdout).toContain('No changes');
    expect(again.code).toBe(0);
  });

  it('one line changed in Git is planned as a unified diff of that line, and applied byte for byte', async () => {
    const changed = SPEC.replace('description: the orders', 'description: every order');
    await writeFile(join(folder, 'documents', 'orders.openapi.yaml'), changed);
    const plan = await t.h.cli(['plan', ...config, '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('~ openapi-document "orders-api"');
    expect(plan.stdout).toMatch(/~ content: sha256:[0-9a-f]{16}… → sha256:[0-9a-f]{16}…/);
    expect(plan.stdout).toMatch(/^ +- +description: the orders$/m);
    expect(plan.stdout).toMatch(/^ +\+ +description: every order$/m);
    expect(plan.stdout).not.toMatch(/^ +[-+] +title: Orders$/m);
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete');
    const json = JSON.parse((await t.h.cli(['plan', ...config, '--format', 'json'])).stdout) as { steps: { content?: { before: string; after: string; diff: string } }[]; calls: { endpoint: string; data?: string }[] };
    expect(json.steps[0]?.content?.diff).toContain('+          description: every order');
    expect(json.calls.map((c) => c.endpoint)).toEqual(['content']);
    expect(JSON.stringify(json.steps)).not.toContain(Buffer.from(changed).toString('base64'));
    const apply = await t.h.cli(['apply', ...config, '--yes']);
    expect(apply.code).toBe(0);
    expect((await liveContent('orders-api')).toString('utf8')).toBe(changed);
    expect((await t.h.cli(['plan', ...config, '--detailed-exitcode'])).code).toBe(0);
  });

  it('content changed by hand is drift; drift --adopt writes the live bytes into the fromFile file', async () => {
    const byHand = `${SPEC}# edited on the gateway\r\n`;
    await t.h.raw(async (s) => {
      const doc = (await s.list(COLLECTION, ['name==orders-api']))[0];
      await s.writeContent(COLLECTION, doc?.id ?? '', Buffer.from(byHand));
    }, 'content by hand');
    const drift = await t.h.cli(['drift', ...config]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('orders-api');
    expect(drift.stdout).toContain('content');
    const adopt = await t.h.cli(['drift', ...config, '--adopt']);
    expect(adopt.code).toBe(2);
    expect(await readFile(join(folder, 'documents', 'orders.openapi.yaml'), 'utf8')).toBe(byHand);
    expect((await t.h.cli(['plan', ...config, '--detailed-exitcode'])).code).toBe(0);
  });

  it('a saved plan uploads the bytes it showed, and refuses a plan file whose bytes lost their digest', async () => {
    const next = `${SPEC}# saved\n`;
    await writeFile(join(folder, 'documents', 'orders.openapi.yaml'), next);
    const out = join(folder, 'content.plan.json');
    expect((await t.h.cli(['plan', ...config, '--out', out])).code).toBe(0);
    // The file changes again after the plan: inside the project the checkout no longer makes
    // the plan's desired state, so it is refused; elsewhere apply --plan sends what the plan showed.
    await writeFile(join(folder, 'documents', 'orders.openapi.yaml'), `${SPEC}# later\n`);
    const inProject = await t.h.cli(['apply', ...config, '--plan', out, '--yes']);
    expect(inProject.code).toBe(1);
    expect(inProject.stderr).toContain("openapi-document 'orders-api' differs from the manifests at content.digest");
    const apply = await t.h.cli(['apply', ...t.h.connection, '--plan', out, '--yes']);
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    expect((await liveContent('orders-api')).toString('utf8')).toBe(next);
    await writeFile(join(folder, 'documents', 'orders.openapi.yaml'), next);

    // Other bytes in a plan file's content call: refused, nothing sent.
    await writeFile(join(folder, 'documents', 'orders.openapi.yaml'), `${SPEC}# reviewed\n`);
    expect((await t.h.cli(['plan', ...config, '--out', out])).code).toBe(0);
    const file = JSON.parse(await readFile(out, 'utf8')) as { calls: { endpoint: string; data?: string }[] };
    for (const call of file.calls) if (call.endpoint === 'content') call.data = Buffer.from(`${SPEC}# not reviewed\n`).toString('base64');
    await writeFile(out, JSON.stringify(file));
    const refused = await t.h.cli(['apply', ...config, '--plan', out, '--yes']);
    expect(refused.code).not.toBe(0);
    expect((await liveContent('orders-api')).toString('utf8')).toBe(next);
    await writeFile(join(folder, 'documents', 'orders.openapi.yaml'), next);
  });

  it('export writes the content beside the manifest, and the export plans no change', async () => {
    const dir = join(t.h.dir, 'content-export');
    const r = await t.h.cli(['export', ...t.h.connection, '--out', dir, '--kind', 'openapi-document']);
    expect(r.code).toBe(0);
    const manifest = await readFile(join(dir, 'openapi-document', 'orders-api.yaml'), 'utf8');
    expect(manifest).toContain('fromFile: orders-api.content.yaml');
    expect(await readFile(join(dir, 'openapi-document', 'orders-api.content.yaml'), 'utf8')).toBe(`${SPEC}# saved\n`);
    const plan = await t.h.cli(['plan', '--config', join(dir, 'gwops.yaml'), ...t.h.connection, '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('drift --adopt of a document added on the gateway writes its content beside the new manifest, as export does; the plan after it is empty', async () => {
    const spec = `${SPEC}# added on the gateway\n`;
    await t.h.raw(async (s) => {
      const created = await s.create(COLLECTION, { type: 'openapi-document', attributes: { name: 'orders-added' } });
      await s.writeContent(COLLECTION, created.id, Buffer.from(spec));
    }, 'a document by hand');
    const adopt = await t.h.cli(['drift', ...config, '--adopt']);
    expect(adopt.code, adopt.stderr).toBe(2);
    const manifest = await readFile(join(folder, 'documents', 'orders-added.yaml'), 'utf8');
    expect(manifest).toContain('fromFile: orders-added.content.yaml');
    expect(await readFile(join(folder, 'documents', 'orders-added.content.yaml'), 'utf8')).toBe(spec);
    expect(adopt.stdout + adopt.stderr).toContain('orders-added.content.yaml');
    const plan = await t.h.cli(['plan', ...config, '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('drift --adopt never overwrites a file where the content of an added document would go: the content gets another name', async () => {
    const mine = 'a file of my own\n';
    // JSON content: `<name>.content.json`, a file the project does not read as a manifest.
    await writeFile(join(folder, 'documents', 'orders-clash.content.json'), mine);
    await t.h.raw(async (s) => {
      const created = await s.create(COLLECTION, { type: 'openapi-document', attributes: { name: 'orders-clash' } });
      await s.writeContent(COLLECTION, created.id, Buffer.from('{"openapi":"3.0.3"}'));
    }, 'a clashing document by hand');
    const adopt = await t.h.cli(['drift', ...config, '--adopt']);
    expect(adopt.code, adopt.stderr).toBe(2);
    expect(adopt.stdout + adopt.stderr).toContain('orders-clash~2.content.json');
    expect(await readFile(join(folder, 'documents', 'orders-clash.content.json'), 'utf8')).toBe(mine);
    expect(await readFile(join(folder, 'documents', 'orders-clash.yaml'), 'utf8')).toContain('fromFile: orders-clash~2.content.json');
    expect(await readFile(join(folder, 'documents', 'orders-clash~2.content.json'), 'utf8')).toBe('{"openapi":"3.0.3"}');
  });

  it('a failed upload fails the create it belongs to, and nothing is activated', async () => {
    const dir = await writeManifests(t.h, 'upload-fails', {
      'gwops.yaml': 'manifests: [doc.yaml]\n',
      'doc.yaml': 'apiVersion: gwops/v1\nkind: graphql-document\nname: orders-graph\ncontent:\n  fromFile: schema.graphql\n',
      'schema.graphql': 'type Query { orders: [String] }\n',
    });
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    t.h.emulator.faults.add({ method: 'PUT', path: /\/content$/, status: 500 });
    try {
      const r = await t.h.cli(['apply', '--config', join(dir, 'gwops.yaml'), ...t.h.connection, '--yes']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/create graphql-document 'orders-graph'.*failed: uploading its content failed: PUT [^ ]+\/content/);
    } finally {
      t.h.emulator.faults.clear();
    }
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
  });

  describe('a hostile fromFile is a located error, and nothing is sent to the gateway', () => {
    const cases: [string, string, (dir: string) => Promise<void>, RegExp][] = [
      ['outside the project', '../outside.yaml', async (dir) => writeFile(join(dir, '..', 'outside.yaml'), SPEC), /outside the project/],
      ['a symbolic link out of the project', 'link.yaml', async (dir) => symlink('/etc/hostname', join(dir, 'link.yaml')), /outside the project through a symbolic link/],
      ['a directory', 'specs', async (dir) => mkdir(join(dir, 'specs')), /directory/],
      ['missing', 'missing.yaml', () => Promise.resolve(), /no such file or directory/],
    ];
    for (const [what, path, prepare, problem] of cases) {
      it(what, async () => {
        const text = `apiVersion: gwops/v1\nkind: openapi-document\nname: orders-hostile\ncontent:\n  fromFile: ${path}\n`;
        const dir = await writeManifests(t.h, `hostile-${what.replace(/\W+/g, '-')}`, { 'gwops.yaml': 'manifests: [doc.yaml]\n', 'doc.yaml': text });
        await prepare(dir);
        t.h.emulator.requestLog.length = 0;
        const r = await t.h.cli(['plan', '--config', join(dir, 'gwops.yaml'), ...t.h.connection]);
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(new RegExp(`doc\\.yaml:5:13: .*content of openapi-document 'orders-hostile'`));
        expect(r.stderr).toMatch(problem);
        expect(t.h.emulator.requestLog).toEqual([]);
      });
    }
  });
});
