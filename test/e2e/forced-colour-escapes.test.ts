/**
 * With colours forced on (`FORCE_COLOR=1`, as CI logs often are), text gwops did not write
 * is escaped exactly as without colours: a carriage return in a manifest file name cannot
 * start a line the runner reads as a workflow command, escape sequences of the gateway's
 * error text cannot reach the `Error:` line, and a name made by hand on the gateway stays
 * escaped in drift --adopt's "Not adopted" lines. Only gwops's own colour codes pass.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeGateway } from '../gateway/fake-gateway.js';
import { useHarness, writeManifests } from './harness.js';

/* eslint-disable no-control-regex -- finding control characters is the point */
/** A carriage return, or an escape sequence that is not one of gwops's colour codes. */
const FOREIGN = /\r|\x1b(?!\[(?:1|2|22|31|32|33|34|36|39)m)/;
/* eslint-enable no-control-regex */
const FORCED = { FORCE_COLOR: '1' };

const GROUP = 'apiVersion: gwops/v1\nkind: back-end-group\nname: forced-group\nattributes:\n  backendHosts:\n    - { hostName: forced.internal, port: 8080 }\n';

describe('FORCE_COLOR=1: names and texts of the input stay escaped', () => {
  const t = useHarness();

  it('a manifest file name with a carriage return: plan --format markdown starts no ::error line', async () => {
    const dir = await writeManifests(t.h, 'forced-file', { 'x\r::error file=a.yaml::forged.yaml': GROUP });
    const r = await t.h.cli(['plan', '--format', 'markdown', '--no-server-check', dir, ...t.h.connection], { env: FORCED });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('x\\r::error file=a.yaml::forged.yaml');
    expect(r.stdout + r.stderr).not.toMatch(FOREIGN);
    expect(r.stdout).not.toMatch(/^::/m);
  });

  it("the gateway's error text with hidden-text escapes: the Error: line shows them as escapes", async () => {
    const dir = await writeManifests(t.h, 'forced-error', { 'group.yaml': GROUP });
    const keyFile = join(t.h.dir, 'forced-key');
    await writeFile(keyFile, 'forced-fake-key', { mode: 0o600 });
    const text = 'rejected \x1b[8mhidden\x1b[28m\r::error::forged';
    const fake = await startFakeGateway((_req, res, path) => {
      const refused = path.startsWith('/configuration/back-end-groups');
      const body = refused ? JSON.stringify({ errors: [{ status: '409', code: 'CONFLICT', title: text, detail: text }] }) : '{"data":[]}';
      res.writeHead(refused ? 409 : 200, { 'content-type': 'application/json' }).end(body);
    });
    try {
      const r = await t.h.cli(['plan', '--no-server-check', dir, '--url', fake.url, '--api-key-file', keyFile], { env: FORCED });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/^Error: .*\\u001b\[8mhidden/m);
      expect(r.stdout + r.stderr).not.toMatch(FOREIGN);
    } finally {
      await fake.close();
    }
  });

  it('a mapping named by hand with a carriage return: drift --adopt says it was not adopted, escaped', async () => {
    const dir = join(t.h.dir, 'forced-adopt');
    await mkdir(join(dir, 'manifests'), { recursive: true });
    await writeFile(join(dir, 'manifests', 'group.yaml'), GROUP);
    // Two targets read the manifests: an object added on one gateway is not adopted into them (the other would create it).
    const [, url, , keyFile, , caFile] = t.h.connection;
    const target = `    url: ${url ?? ''}\n    apiKeyFile: ${keyFile ?? ''}\n    caFile: ${caFile ?? ''}\n`;
    await writeFile(join(dir, 'gwops.yaml'), `manifests: [manifests]\ntargets:\n  one:\n${target}  two:\n${target}ownership:\n  back-end-group: ['name=@forced-']\n  mapping: ['name=@forced-']\n`);
    expect((await t.h.cli(['apply', '--yes', '--target', 'one'], { cwd: dir })).code).toBe(0);
    await t.h.raw(async (s) => {
      const [group] = await s.list('back-end-groups', ['name==forced-group']);
      const made = await s.create('mappings', { type: 'mapping', attributes: { name: 'forced-\r::error file=x.yaml::forged', entryPath: { value: '/forced/' } } });
      if (group) await s.link('mappings', made.id, 'back-end-groups', [{ type: 'back-end-group', id: group.id }]);
    }, 'by hand');
    const r = await t.h.cli(['drift', '--adopt', '--target', 'one'], { cwd: dir, env: FORCED });
    expect(r.stderr).toContain('Not adopted:');
    expect(r.stderr).toMatch(/^ {2}mapping 'forced-\\r::error file=x\.yaml::forged' was added on the gateway: not adopted/m);
    expect(r.stdout + r.stderr).not.toMatch(FOREIGN);
    expect(r.stdout + r.stderr).not.toMatch(/^::/m);
  });
});
