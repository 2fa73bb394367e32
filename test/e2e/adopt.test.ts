/**
 * `gwops drift --adopt` end to end: the CLI against emulators over real HTTP, a change made
 * through the raw API, then adopt, and then `validate` passes, the target's plan is empty,
 * and the manifests changed only where the values changed:
 * - links moved between flow-style lists stay valid YAML;
 * - a changed member of a list item inside a mapping that inherits a changed attribute from
 *   its template is written, not dropped; one changed port of a back-end host is that one
 *   scalar, not the list written anew;
 * - a value holding `${...}` is written escaped (`$${`), so that it reads back as itself;
 * - with targets: an attribute an overlay sets goes into that target's overlay, a base
 *   attribute into the target's overlay too, and nothing another target reads changes;
 * - objects added on the gateway go where the project reads them.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffLines } from 'diff';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../support/in-process-cli.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { GatewaySession } from '../../src/gateway/index.js';
import { withSession } from '../../src/gateway/index.js';
import type { CliResult } from './harness.js';

let staging: RunningEmulator;
let production: RunningEmulator;
let root: string;

beforeAll(async () => {
  [staging, production] = await Promise.all([startEmulator({ port: 0, tls: false, variant: 'latest' }), startEmulator({ port: 0, tls: false, variant: 'latest' })]);
  root = await mkdtemp(join(tmpdir(), 'gwops-adopt-'));
});

afterAll(async () => {
  await Promise.all([staging.close(), production.close()]);
  await rm(root, { recursive: true, force: true });
});

/** A project folder with its files; the API keys of both emulators beside them. */
async function project(name: string, files: Record<string, string>): Promise<{ dir: string; cli: (args: readonly string[]) => Promise<CliResult>; read: (file: string) => Promise<string> }> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'staging-key'), staging.apiKey, { mode: 0o600 });
  await writeFile(join(dir, 'production-key'), production.apiKey, { mode: 0o600 });
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  const cli = (args: readonly string[]): Promise<CliResult> => runCli(args, { PATH: process.env.PATH, NO_COLOR: '1', CI: 'true' }, dir);
  return { dir, cli, read: (file) => readFile(join(dir, file), 'utf8') };
}

function targets(overlays: { staging?: string; production?: string } = {}, only?: 'staging' | 'production'): string {
  const entry = (name: 'staging' | 'production', emulator: RunningEmulator): string =>
    `  ${name}:\n    url: ${emulator.url}\n    apiKeyFile: ${name}-key\n${overlays[name] ? `    overlays: [${overlays[name]}]\n` : ''}`;
  if (only) return `targets:\n${entry(only, only === 'staging' ? staging : production)}`;
  return `targets:\n${entry('staging', staging)}${entry('production', production)}`;
}

/** Raw API calls behind gwops's back, activated. */
function raw<T>(emulator: RunningEmulator, fn: (s: GatewaySession) => Promise<T>): Promise<T> {
  return withSession({ url: emulator.url, apiKey: emulator.apiKey }, async (s) => {
    await s.loadActive();
    const result = await fn(s);
    await s.activate('changed by hand');
    return result;
  });
}

async function idOf(s: GatewaySession, collection: string, name: string): Promise<string> {
  const [found] = await s.list(collection, [`name==${name}`]);
  if (!found) throw new Error(`${name} is not on the gateway`);
  return found.id;
}

/** Asserts a command succeeded, showing its output when it did not. */
function succeeded(result: CliResult): void {
  expect({ code: result.code, output: result.code === 0 ? '' : result.stdout + result.stderr }).toEqual({ code: 0, output: '' });
}

/** The lines that differ, `-` before and `+` after. */
function changedLines(before: string, after: string): string[] {
  return diffLines(before, after)
    .filter((p) => p.added || p.removed)
    .flatMap((p) => p.value.split('\n').filter((l) => l !== '').map((l) => `${p.added ? '+' : '-'}${l}`));
}

/** validate passes and the target's plan is empty. */
async function converged(cli: (args: readonly string[]) => Promise<CliResult>, target: string[]): Promise<void> {
  const validate = await cli(['validate', ...target]);
  expect(validate.stderr + validate.stdout).not.toMatch(/error/i);
  expect(validate.code).toBe(0);
  const plan = await cli(['plan', '--detailed-exitcode', '--no-server-check', ...target]);
  expect(plan.stdout).toContain('No changes.');
  expect(plan.code).toBe(0);
}

const HEAD = 'apiVersion: gwops/v1\n';
const GROUP = (name: string): string => `${HEAD}kind: back-end-group\nname: ${name}\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: ${name}.internal, port: 80 }]\n`;

/** Creates a mapping linked to a new back-end group through the raw API (a mapping needs one to activate). */
async function createMapping(s: GatewaySession, name: string, path: string): Promise<void> {
  const group = await s.create('back-end-groups', { type: 'back-end-group', attributes: { name: `${name}-g`, backendHosts: [{ protocol: 'HTTP', hostName: 'x.internal', port: 80 }] } });
  const mapping = await s.create('mappings', { type: 'mapping', attributes: { name, entryPath: { value: path } } });
  await s.link('mappings', mapping.id, 'back-end-groups', [{ type: 'back-end-group', id: group.id }]);
}

describe('drift --adopt writes valid YAML, only the values that changed', () => {
  it('moves links between flow-style lists without breaking them', async () => {
    const groups = `# groups, flow style
${HEAD}kind: back-end-group
name: ad-one
attributes: {backendHosts: [{protocol: HTTP, hostName: one.internal, port: 80}]}
relationships:
  mappings: [ad-m1, ad-m2]
---
${HEAD}kind: back-end-group
name: ad-two
attributes: {backendHosts: [{protocol: HTTP, hostName: two.internal, port: 80}]}
relationships:
  mappings: [ad-m3, ad-m4]
`;
    const mappings = ['ad-m1', 'ad-m2', 'ad-m3', 'ad-m4'].map((m) => `${HEAD}kind: mapping\nname: ${m}\nattributes:\n  entryPath: { value: /${m}/ }\n`).join('---\n');
    const p = await project('links', { 'gwops.yaml': `manifests: [manifests]\n${targets({}, 'staging')}`, 'manifests/groups.yaml': groups, 'manifests/mappings.yaml': mappings });
    const t = ['--target', 'staging'];
    succeeded(await p.cli(['apply', '--yes', ...t]));
    // m2 and m4 swap groups: each list loses one name and gains another.
    await raw(staging, async (s) => {
      const [one, two] = [await idOf(s, 'back-end-groups', 'ad-one'), await idOf(s, 'back-end-groups', 'ad-two')];
      const [m2, m4] = [{ type: 'mapping', id: await idOf(s, 'mappings', 'ad-m2') }, { type: 'mapping', id: await idOf(s, 'mappings', 'ad-m4') }];
      await s.link('back-end-groups', two, 'mappings', [m2]);
      await s.link('back-end-groups', one, 'mappings', [m4]);
      await s.unlink('back-end-groups', one, 'mappings', [m2]);
      await s.unlink('back-end-groups', two, 'mappings', [m4]);
    });
    const adopted = await p.cli(['drift', '--adopt', '--target', 'staging']);
    expect(adopted.stdout + adopted.stderr).toContain('Links added on the gateway');
    expect(adopted.code).toBe(2);
    expect(changedLines(groups, await p.read('manifests/groups.yaml'))).toEqual([
      '-  mappings: [ad-m1, ad-m2]',
      '+  mappings: [ad-m1, ad-m4]',
      '-  mappings: [ad-m3, ad-m4]',
      '+  mappings: [ad-m3, ad-m2]',
    ]);
    await converged(p.cli, t);
  });

  it('writes a changed list member of a mapping that also inherits a changed attribute, and one changed port as that scalar', async () => {
    const templates = `${HEAD}kind: mapping-template\nname: ad-base\nattributes:\n  threatHandling: BLOCK\n`;
    const mapping = `# the mapping
${HEAD}kind: mapping
name: ad-guarded
extends: ad-base
attributes:
  entryPath: { value: /guarded/ }   # flow, untouched
  access:
    restrictions:
      - enabled: true
        authorizedRoles: [admin]
      - enabled: false
        authorizedRoles:
          - reader
          - auditor
relationships: { back-end-groups: [ad-group] }
`;
    const groups = `${HEAD}kind: back-end-group
name: ad-group
attributes:
  backendHosts:
    - hostName: a.internal
      protocol: HTTP
      port: 8080
    - { hostName: b.internal, protocol: HTTP, port: 8080 }
`;
    const p = await project('template', {
      'gwops.yaml': `manifests: [manifests]\n${targets({}, 'production')}`,
      'manifests/templates.yaml': templates,
      'manifests/mapping.yaml': mapping,
      'manifests/groups.yaml': groups,
    });
    const t = ['--target', 'production'];
    succeeded(await p.cli(['apply', '--yes', ...t]));
    await raw(production, async (s) => {
      const id = await idOf(s, 'mappings', 'ad-guarded');
      const [live] = await s.list('mappings', ['name==ad-guarded']);
      const access = (live?.attributes.access ?? {}) as { restrictions?: { authorizedRoles?: string[] }[] };
      const restrictions = structuredClone(access.restrictions ?? []);
      const second = restrictions[1];
      if (second) second.authorizedRoles = ['reader', 'ops'];
      await s.update('mappings', id, { type: 'mapping', attributes: { threatHandling: 'NOTIFY', access: { ...access, restrictions } } });
      const [group] = await s.list('back-end-groups', ['name==ad-group']);
      const hosts = structuredClone((group?.attributes.backendHosts ?? []) as { port: number }[]);
      const b = hosts[1];
      if (b) b.port = 9090;
      await s.update('back-end-groups', await idOf(s, 'back-end-groups', 'ad-group'), { type: 'back-end-group', attributes: { backendHosts: hosts } });
    });
    const adopted = await p.cli(['drift', '--adopt', ...t]);
    expect(adopted.code).toBe(2);
    expect(adopted.stderr).not.toContain('Not adopted');
    expect(await p.read('manifests/templates.yaml')).toBe(templates);
    expect(changedLines(mapping, await p.read('manifests/mapping.yaml'))).toEqual([
      '-          - auditor',
      '+          - ops',
      '+  threatHandling: NOTIFY',
    ]);
    expect(changedLines(groups, await p.read('manifests/groups.yaml'))).toEqual([
      '-    - { hostName: b.internal, protocol: HTTP, port: 8080 }',
      '+    - { hostName: b.internal, protocol: HTTP, port: 9090 }',
    ]);
    await converged(p.cli, t);
  });

  it('writes a live value holding ${...} escaped, so that it reads back as itself', async () => {
    const mapping = `${HEAD}kind: mapping\nname: ad-dollar\nattributes:\n  entryPath: { value: /dollar/ }\n  backendPath: /plain/\nrelationships: { back-end-groups: [ad-dollar-g] }\n`;
    const p = await project('dollar', { 'gwops.yaml': `manifests: [manifests]\n${targets({}, 'staging')}`, 'manifests/m.yaml': mapping, 'manifests/g.yaml': GROUP('ad-dollar-g') });
    const t = ['--target', 'staging'];
    succeeded(await p.cli(['apply', '--yes', ...t]));
    await raw(staging, async (s) => s.update('mappings', await idOf(s, 'mappings', 'ad-dollar'), { type: 'mapping', attributes: { backendPath: '/x/${HOME}/' } }));
    const adopted = await p.cli(['drift', '--adopt', ...t]);
    expect(adopted.stderr).toContain('edited   manifests/m.yaml');
    expect(changedLines(mapping, await p.read('manifests/m.yaml'))).toEqual(['-  backendPath: /plain/', '+  backendPath: /x/$${HOME}/']);
    await converged(p.cli, t);
  });
});

describe('drift --adopt on one target never edits what another target reads', () => {
  const group = (host: string): string => `${HEAD}kind: back-end-group\nname: ad-tgt\nattributes:\n  backendHosts:\n    - { hostName: ${host}, protocol: HTTP, port: 80 }\n  outOfBandChecks: { enabled: false }\n`;
  const mapping = `${HEAD}kind: mapping\nname: ad-tgt-m\nattributes:\n  entryPath: { value: /tgt/ }\nrelationships:\n  back-end-groups: [ad-tgt]\n`;
  const stagingOverlay = `# staging's hosts
kind: back-end-group
name: ad-tgt
attributes:
  backendHosts:
    - { hostName: app.staging.internal, protocol: HTTP, port: 80 }
`;

  it('writes an overlay-set attribute and a base attribute into the target\'s overlay, deletes nothing from the base', async () => {
    const p = await project('targets', {
      'gwops.yaml': `manifests: [manifests]\n${targets({ staging: 'overlays/staging' })}`,
      'manifests/group.yaml': group('app.prod.internal'),
      'manifests/mapping.yaml': mapping,
      'overlays/staging/group.yaml': stagingOverlay,
    });
    for (const target of ['staging', 'production']) succeeded(await p.cli(['apply', '--yes', '--target', target]));
    const productionPlan = await p.cli(['plan', '--no-server-check', '--target', 'production']);
    await raw(staging, async (s) => {
      const id = await idOf(s, 'back-end-groups', 'ad-tgt');
      await s.update('back-end-groups', id, {
        type: 'back-end-group',
        attributes: { backendHosts: [{ hostName: 'app2.staging.internal', protocol: 'HTTP', port: 80 }], outOfBandChecks: { enabled: true } },
      });
      await s.remove('mappings', await idOf(s, 'mappings', 'ad-tgt-m'));
    });
    const adopted = await p.cli(['drift', '--adopt', '--adopt-deletions', '--target', 'staging']);
    expect(adopted.code).toBe(2);
    expect(adopted.stderr).toMatch(/mapping 'ad-tgt-m' was deleted on the gateway: kept, manifests\/mapping\.yaml is read by target production too/);
    // The base is what production reads: untouched.
    expect(await p.read('manifests/group.yaml')).toBe(group('app.prod.internal'));
    expect(await p.read('manifests/mapping.yaml')).toBe(mapping);
    expect(changedLines(stagingOverlay, await p.read('overlays/staging/group.yaml'))).toEqual([
      '-    - { hostName: app.staging.internal, protocol: HTTP, port: 80 }',
      '+    - { hostName: app2.staging.internal, protocol: HTTP, port: 80 }',
      '+  outOfBandChecks:',
      '+    enabled: true',
    ]);
    const validate = await p.cli(['validate', '--target', 'staging']);
    expect(validate.code).toBe(0);
    // Staging's plan holds only the deleted mapping (kept), production's is what it was.
    const stagingPlan = await p.cli(['plan', '--no-server-check', '--target', 'staging']);
    expect(stagingPlan.stdout).toMatch(/Plan: 1 to create, 0 to update, 0 to delete/);
    expect((await p.cli(['plan', '--no-server-check', '--target', 'production'])).stdout).toBe(productionPlan.stdout);
  });

  it('adopts an item removed from a list into a new overlay as the whole list, and writes no overlay that changes nothing', async () => {
    const twoHosts = `${HEAD}kind: back-end-group\nname: ad-list\nattributes:\n  backendHosts:\n    - { protocol: HTTP, hostName: a.internal, port: 81 }\n    - { protocol: HTTP, hostName: b.internal, port: 82 }\n`;
    const p = await project('list-item-removed', { 'gwops.yaml': `manifests: [manifests]\n${targets({ staging: 'overlays/staging' })}`, 'manifests/group.yaml': twoHosts });
    await mkdir(join(p.dir, 'overlays', 'staging'), { recursive: true });
    for (const target of ['staging', 'production']) succeeded(await p.cli(['apply', '--yes', '--target', target]));
    await raw(staging, async (s) =>
      s.update('back-end-groups', await idOf(s, 'back-end-groups', 'ad-list'), { type: 'back-end-group', attributes: { backendHosts: [{ protocol: 'HTTP', hostName: 'a.internal', port: 81 }] } }),
    );
    const adopted = await p.cli(['drift', '--adopt', '--target', 'staging']);
    expect(adopted.code).toBe(2);
    expect(await p.read('manifests/group.yaml')).toBe(twoHosts);
    const overlay = await p.read('overlays/staging/back-end-group/ad-list.yaml');
    expect(overlay).toMatch(/kind: back-end-group\nname: ad-list\nattributes:\n {2}backendHosts:\n/);
    expect(overlay).toContain('a.internal');
    expect(overlay).not.toContain('b.internal');
    await converged(p.cli, ['--target', 'staging']);
  });

  it('refuses, and lists, a base attribute when the target has no overlay', async () => {
    const p = await project('no-overlay', { 'gwops.yaml': `manifests: [manifests]\n${targets()}`, 'manifests/group.yaml': group('app.internal') });
    for (const target of ['staging', 'production']) succeeded(await p.cli(['apply', '--yes', '--target', target]));
    await raw(staging, async (s) =>
      s.update('back-end-groups', await idOf(s, 'back-end-groups', 'ad-tgt'), { type: 'back-end-group', attributes: { outOfBandChecks: { enabled: true } } }),
    );
    const adopted = await p.cli(['drift', '--adopt', '--target', 'staging']);
    expect(adopted.stderr).toMatch(/Not adopted:\n {2}back-end-group 'ad-tgt' outOfBandChecks\.enabled: manifests\/group\.yaml is read by target production too; give target staging an overlay directory/);
    expect(await p.read('manifests/group.yaml')).toBe(group('app.internal'));
  });
});

describe('drift --adopt writes new objects where the project reads them', () => {
  it('adds a new object to the listed file of the objects it is related to, and lists an unrelated one as not adopted', async () => {
    const p = await project('listed', {
      'gwops.yaml': 'manifests: [m/hosts.yaml, m/routes.yaml]\nownership:\n  mapping: [name=@ad-new-]\n  back-end-group: [name=@ad-new-]\n',
      'm/hosts.yaml': GROUP('ad-new-first-g'),
      'm/routes.yaml': `${HEAD}kind: mapping\nname: ad-new-first\nattributes:\n  entryPath: { value: /first/ }\nrelationships: { back-end-groups: [ad-new-first-g] }\n`,
    });
    const conn = ['--url', staging.url, '--api-key-file', 'staging-key'];
    succeeded(await p.cli(['apply', '--yes', ...conn]));
    const before = { hosts: await p.read('m/hosts.yaml'), routes: await p.read('m/routes.yaml') };
    await raw(staging, async (s) => {
      // ad-new-x shares ad-new-first's back-end group; ad-new-y and its group relate to nothing declared.
      const mapping = await s.create('mappings', { type: 'mapping', attributes: { name: 'ad-new-x', entryPath: { value: '/x/' } } });
      await s.link('mappings', mapping.id, 'back-end-groups', [{ type: 'back-end-group', id: await idOf(s, 'back-end-groups', 'ad-new-first-g') }]);
      await createMapping(s, 'ad-new-y', '/y/');
    });
    const adopted = await p.cli(['drift', '--adopt', ...conn]);
    expect(adopted.code).toBe(2);
    expect(adopted.stderr).toContain('edited   m/routes.yaml');
    const routes = await p.read('m/routes.yaml');
    expect(routes.startsWith(before.routes)).toBe(true);
    expect(parseAllDocuments(routes).map((d) => (d.toJS() as { name: string }).name)).toEqual(['ad-new-first', 'ad-new-x']);
    expect(await p.read('m/hosts.yaml')).toBe(before.hosts);
    // A listed project reads no file of its own: the unrelated objects are listed, never added to a file they do not belong in.
    expect(adopted.stderr).toMatch(/Not adopted:\n(?: {2}.*\n)*? {2}back-end-group 'ad-new-y-g' was added on the gateway: not adopted, nothing related to it is declared/);
    expect(adopted.stderr).toMatch(/ {2}mapping 'ad-new-y' was added on the gateway: not adopted, nothing related to it is declared/);
    const plan = await p.cli(['plan', '--detailed-exitcode', '--no-server-check', ...conn]);
    expect(plan.stdout).toContain('No changes.');
  });

  it('writes a new file beside the exported files of the same kind', async () => {
    const p = await project('exported', {});
    await raw(staging, (s) => createMapping(s, 'ad-exp-a', '/exp-a/'));
    const conn = ['--url', staging.url, '--api-key-file', 'staging-key'];
    const exported = await p.cli(['export', ...conn, '--kind', 'mapping', '--kind', 'back-end-group', '--filter', 'name=@ad-exp-', '--out', 'out']);
    expect(exported.code).toBe(0);
    await raw(staging, (s) => createMapping(s, 'ad-exp-b', '/exp-b/'));
    const adopted = await p.cli(['drift', '--adopt', '--config', 'out/gwops.yaml', ...conn]);
    expect(adopted.stderr).toMatch(/created {2}out\/mapping\/ad-exp-b\.yaml/);
    expect(adopted.stderr).toMatch(/created {2}out\/back-end-group\/ad-exp-b-g\.yaml/);
    const plan = await p.cli(['plan', '--prune', '--detailed-exitcode', '--no-server-check', '--config', 'out/gwops.yaml', ...conn]);
    expect(plan.stdout).toContain('No changes.');
  });

  it('writes a new mapping of a virtual host into the file of that host\'s mappings, not into the first mapping file', async () => {
    const mapping = (name: string, path: string, host: string | undefined, group: string): string =>
      `${HEAD}kind: mapping\nname: ${name}\nattributes:\n  entryPath: { value: ${path} }\nrelationships:\n${host === undefined ? '' : `  virtual-hosts: [${host}]\n`}  back-end-groups: [${group}]\n`;
    const host = (name: string, mappings?: string[]): string =>
      `${HEAD}kind: virtual-host\nname: ${name}\nattributes:\n  hostName: ${name}.example.com\n  networkInterface:\n    http: { enabled: true, port: 80 }\n    https: { enabled: false, http2Allowed: false }\n${mappings ? `relationships:\n  mappings: [${mappings.join(', ')}]\n` : ''}`;
    const files = {
      'gwops.yaml': 'manifests: [manifests]\nownership:\n  mapping: [name=@ad-vh-]\n  back-end-group: [name=@ad-vh-]\n  virtual-host: [name=@ad-vh-]\n  ip-address-list: [name=@ad-vh-]\n',
      // The API host lists its mappings; the shop's mappings name their host themselves.
      'manifests/hosts.yaml': `# the public hosts\n${host('ad-vh-api', ['ad-vh-api-a', 'ad-vh-api-b'])}---\n${host('ad-vh-shop')}`,
      'manifests/groups.yaml': `${GROUP('ad-vh-api-g')}---\n${GROUP('ad-vh-shop-g')}`,
      'manifests/mappings/api.yaml': `# API mappings\n${mapping('ad-vh-api-a', '/a/', undefined, 'ad-vh-api-g')}---\n${mapping('ad-vh-api-b', '/b/', undefined, 'ad-vh-api-g')}`,
      'manifests/mappings/shop.yaml': `# shop mappings\n${mapping('ad-vh-shop-a', '/shop/a/', 'ad-vh-shop', 'ad-vh-shop-g')}---\n${mapping('ad-vh-shop-b', '/shop/b/', 'ad-vh-shop', 'ad-vh-shop-g')}`,
      // Taken by another object: a file of its own for the list `ad-vh-solo` must not be this one.
      'manifests/ip-address-list/ad-vh-solo.yaml': `# kept as it is\n${HEAD}kind: ip-address-list\nname: ad-vh-kept\nattributes:\n  ips: ['192.0.2.1']\n`,
    };
    const p = await project('hosts', files);
    const conn = ['--url', staging.url, '--api-key-file', 'staging-key'];
    succeeded(await p.cli(['apply', '--yes', ...conn]));
    await raw(staging, async (s) => {
      const made = async (name: string, path: string, hostName: string, group: string): Promise<void> => {
        const m = await s.create('mappings', { type: 'mapping', attributes: { name, entryPath: { value: path } } });
        await s.link('mappings', m.id, 'back-end-groups', [{ type: 'back-end-group', id: await idOf(s, 'back-end-groups', group) }]);
        await s.link('virtual-hosts', await idOf(s, 'virtual-hosts', hostName), 'mappings', [{ type: 'mapping', id: m.id }]);
      };
      await made('ad-vh-shop-new', '/shop/new/', 'ad-vh-shop', 'ad-vh-shop-g');
      await made('ad-vh-api-new', '/new/', 'ad-vh-api', 'ad-vh-api-g');
      await s.create('ip-address-lists', { type: 'ip-address-list', attributes: { name: 'ad-vh-solo', ips: ['198.51.100.7'] } });
    });
    const adopted = await p.cli(['drift', '--adopt', ...conn]);
    expect(adopted.code).toBe(2);
    const namesIn = async (file: string): Promise<string[]> => parseAllDocuments(await p.read(file)).map((d) => (d.toJS() as { name: string }).name);
    expect(await namesIn('manifests/mappings/shop.yaml')).toEqual(['ad-vh-shop-a', 'ad-vh-shop-b', 'ad-vh-shop-new']);
    expect(await namesIn('manifests/mappings/api.yaml')).toEqual(['ad-vh-api-a', 'ad-vh-api-b', 'ad-vh-api-new']);
    // Every line that was there is still there, in order, at the start.
    for (const file of ['manifests/mappings/shop.yaml', 'manifests/mappings/api.yaml']) expect((await p.read(file)).startsWith(files[file as keyof typeof files])).toBe(true);
    expect(await p.read('manifests/groups.yaml')).toBe(files['manifests/groups.yaml']);
    // The unrelated list: a file of its own, beside the one that has its name already.
    expect(await p.read('manifests/ip-address-list/ad-vh-solo.yaml')).toBe(files['manifests/ip-address-list/ad-vh-solo.yaml']);
    expect(await namesIn('manifests/ip-address-list/ad-vh-solo~2.yaml')).toEqual(['ad-vh-solo']);
    expect(adopted.stderr).toMatch(/created {2}manifests\/ip-address-list\/ad-vh-solo~2\.yaml/);
    const validate = await p.cli(['validate']);
    expect(validate.code).toBe(0);
    const plan = await p.cli(['plan', '--prune', '--detailed-exitcode', '--no-server-check', ...conn]);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });
});
