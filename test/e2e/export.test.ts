/**
 * `gwops export` against the emulator: the round trip (export, validate, plan with no
 * changes) for the examples applied by gwops and for gateways seeded through the raw API,
 * the per-kind layout, filters as ownership, the refusal of a non-empty directory, and no
 * secret value in any written file.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { EXAMPLE_SHOP_TLS_KEY, EXAMPLE_WILDCARD_TLS_KEY } from '../../src/demo/example-keys.js';
import { selfSignedCertificate } from '../../src/emulator/index.js';
import type { GatewaySession } from '../../src/gateway/index.js';
import { drillMode } from '../drills/record.js';
import type { SuiteHarness } from './harness.js';
import { DEMO_PROJECT, useHarness } from './harness.js';
import { apartFromExternalLinkWarnings } from '../support/external-links.js';

interface ExportJson {
  dir: string;
  files: string[];
  secrets: { variable: string; kind: string; name: string; attribute: string; writeOnly: boolean }[];
  warnings: string[];
}

async function allFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await allFiles(full)));
    else out.push(full);
  }
  return out;
}

/** The private keys of every certificate on the gateway (the examples' and those seeded by hand). */
const KNOWN_KEYS: string[] = [EXAMPLE_SHOP_TLS_KEY, EXAMPLE_WILDCARD_TLS_KEY];

/**
 * Env with every secret variable of the table set to a placeholder (write-only values are
 * never compared), but a certificate's `privateKey`: its own key, which the loader checks.
 */
async function secretEnv(result: ExportJson): Promise<Record<string, string>> {
  const certificates = new Map<string, string>();
  for (const file of result.files.filter((f) => f.endsWith('.yaml'))) {
    for (const parsed of parseAllDocuments(await readFile(file, 'utf8'))) {
      const doc = parsed.toJS() as { kind?: unknown; name?: unknown; attributes?: { certificate?: unknown } } | null;
      if (doc?.kind === 'ssl-certificate' && typeof doc.name === 'string' && typeof doc.attributes?.certificate === 'string') certificates.set(doc.name, doc.attributes.certificate);
    }
  }
  const keyOf = (name: string): string => {
    const pem = certificates.get(name);
    const x509 = pem === undefined ? undefined : new X509Certificate(pem);
    return KNOWN_KEYS.find((key) => x509?.checkPrivateKey(createPrivateKey(key))) ?? 'placeholder-not-a-secret';
  };
  return Object.fromEntries(result.secrets.map((s) => [s.variable, s.attribute === 'privateKey' ? keyOf(s.name) : 'placeholder-not-a-secret']));
}

/** Export and round trip against the suite's emulator: each export into a fresh folder. */
function exportSteps(t: SuiteHarness) {
  let counter = 0;
  const outDir = (): string => join(t.h.dir, `export-${++counter}`);

  async function exportTo(dir: string, extra: readonly string[] = []): Promise<ExportJson> {
    const r = await t.h.cli(['export', ...t.h.connection, '--out', dir, '--format', 'json', ...extra]);
    expect(r.stderr).not.toMatch(/^Error/m);
    expect(r.code).toBe(0);
    expect(Object.entries(JSON.parse(r.stdout) as object)[0]).toEqual(['formatVersion', '1.1']);
    return JSON.parse(r.stdout) as ExportJson;
  }

  async function roundTrip(dir: string, result: ExportJson): Promise<void> {
    const env = await secretEnv(result);
    const config = ['--config', join(dir, 'gwops.yaml')];
    const validate = await t.h.cli(['validate', ...config], { env });
    expect(apartFromExternalLinkWarnings(validate.stdout + validate.stderr)).not.toMatch(/error|warning/i);
    expect(validate.code).toBe(0);
    const plan = await t.h.cli(['plan', ...config, ...t.h.connection, '--detailed-exitcode'], { env });
    expect(apartFromExternalLinkWarnings(plan.stderr)).toBe('');
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  }
  return { outDir, exportTo, roundTrip };
}

describe('gwops export', () => {
  const t = useHarness();
  const { outDir, exportTo, roundTrip } = exportSteps(t);

  it('round-trips the applied examples: validate passes, plan shows no change, no secret is written', async () => {
    const apply = await t.h.cli(['apply', '--yes', '--config', DEMO_PROJECT, ...t.h.connection, '--comment', 'examples']);
    expect(apply.code).toBe(0);
    const dir = outDir();
    const result = await exportTo(dir);
    expect(result.files.map((f) => relative(dir, f))).toEqual(expect.arrayContaining(['gwops.yaml', 'secrets.env.example', 'mapping/shop-home.yaml', 'virtual-host/example-shop.yaml']));
    const certificates = result.secrets.filter((s) => s.kind === 'ssl-certificate');
    // The examples' keys are not encrypted: a passphrase is asked for only for an encrypted key.
    expect(certificates.map((s) => s.attribute)).toContain('privateKey');
    expect(certificates.map((s) => s.attribute)).not.toContain('passphrase');
    expect(certificates.every((s) => /^GWOPS_SSL_CERTIFICATE_[A-Z0-9_]+$/.test(s.variable))).toBe(true);
    const written = await Promise.all((await allFiles(dir)).map((f) => readFile(f, 'utf8')));
    const text = written.join('\n');
    for (const secret of t.h.secrets) expect(text.includes(secret)).toBe(false);
    expect(text).not.toMatch(/PRIVATE KEY/);
    // Ids are dropped from manifests (a document's content is its specification, exported as it is).
    const manifests = await Promise.all((await allFiles(dir)).filter((f) => !f.includes('.content.')).map((f) => readFile(f, 'utf8')));
    expect(manifests.join('\n')).not.toMatch(/\bid: /);
    const project = await readFile(join(dir, 'gwops.yaml'), 'utf8');
    expect(project).toContain('apiKeyEnv: GWOPS_API_KEY');
    expect(project).toContain(t.h.emulator.url);
    expect(project).not.toContain(t.h.emulator.apiKey);
    expect(project).not.toMatch(/^ownership:/m);
    // Defaults are left out: a mapping declares far fewer attributes than the gateway holds.
    const mapping = await readFile(join(dir, 'mapping', 'shop-home.yaml'), 'utf8');
    expect(mapping).toContain('kind: mapping');
    expect(mapping).toContain('back-end-groups:');
    expect(mapping.split('\n').length).toBeLessThan(120);
    await roundTrip(dir, result);
  });

  it('exports and round-trips a gateway seeded by hand through the raw API', async () => {
    await t.h.raw(async (s) => seedByHand(s, 'hand', 64, 500), 'seeded by hand');
    const dir = outDir();
    const result = await exportTo(dir);
    expect(result.files.filter((f) => f.includes(`${join(dir, 'mapping')}/hand-`))).toHaveLength(64);
    const regex = await readFile(join(dir, 'mapping', 'hand-0007.yaml'), 'utf8');
    expect(regex).toContain('regexFormatEnforced: true');
    expect(regex).toContain('labels:');
    // The name with a slash and a colon is escaped in the file name and kept in the document.
    const odd = await readFile(join(dir, 'back-end-group', 'hand%2Fodd%3Aname.yaml'), 'utf8');
    expect(odd).toContain('name: hand/odd:name');
    await roundTrip(dir, result);
  });

  it('writes the filters as the ownership scope and exports only what they select', async () => {
    const dir = outDir();
    const result = await exportTo(dir, ['--kind', 'mapping', '--filter', 'label==team-hand']);
    const project = await readFile(join(dir, 'gwops.yaml'), 'utf8');
    expect(project).toMatch(/ownership:\n {2}mapping:\n {4}- label==team-hand/);
    expect(project).toContain('allowExternalLinks: true');
    const names = result.files.map((f) => relative(dir, f)).filter((f) => f.startsWith('mapping/'));
    expect(names.length).toBe(64);
    // The groups and the host are not exported, yet the mappings' links name them: they were read to name the link ends.
    expect(await readFile(join(dir, 'mapping', 'hand-0001.yaml'), 'utf8')).toMatch(/back-end-groups:\n {4}- hand-backend\n/);
    expect(result.warnings.join('\n')).not.toMatch(/could not be read/);
    await roundTrip(dir, result);
  });

  it('refuses a non-empty directory without --force and keeps an existing gwops.yaml with it', async () => {
    const dir = outDir();
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'gwops.yaml'), 'manifests: [mapping]\n');
    const refused = await t.h.cli(['export', ...t.h.connection, '--out', dir, '--kind', 'back-end-group']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not empty.*--force/);
    const forced = await t.h.cli(['export', ...t.h.connection, '--out', dir, '--kind', 'back-end-group', '--force']);
    expect(forced.code).toBe(0);
    expect(await readFile(join(dir, 'gwops.yaml'), 'utf8')).toBe('manifests: [mapping]\n');
    expect(forced.stderr).toContain('existing gwops.yaml was kept');
  });
});

describe('gwops export of a large gateway', () => {
  // An emulator of its own, so that the other tests do not list these mappings. npm test
  // exports a few hundred; GWOPS_DRILLS=full the size of a large gateway.
  const t = useHarness();
  const { outDir, exportTo, roundTrip } = exportSteps(t);
  const count = drillMode() === 'full' ? 2000 : 200;

  it(`round-trips ${count} generated mappings`, async () => {
    await t.h.raw(async (s) => seedByHand(s, 'bulk', count, -950), 'bulk');
    const dir = outDir();
    const result = await exportTo(dir, ['--layout', 'per-kind']);
    expect(result.files.map((f) => relative(dir, f))).toContain('mapping.yaml');
    const mappings = await readFile(join(dir, 'mapping.yaml'), 'utf8');
    expect(mappings.match(/^kind: mapping$/gm)?.length).toBe(count);
    await roundTrip(dir, result);
  }, 120_000);
});

/**
 * Seeds `count` mappings named `<prefix>-NNNN` (labels, every 7th a regex entry path with
 * its own priority), two back-end groups (one named with `/` and `:`), a virtual host
 * with its own certificate linking all mappings: a gateway gwops never saw.
 */
async function seedByHand(s: GatewaySession, prefix: string, count: number, priorityBase: number): Promise<void> {
  const group = await s.create('back-end-groups', {
    type: 'back-end-group',
    attributes: { name: `${prefix}-backend`, backendHosts: [{ protocol: 'HTTP', hostName: `${prefix}.internal`, port: 8080 }] },
  });
  const odd = await s.create('back-end-groups', {
    type: 'back-end-group',
    attributes: { name: `${prefix}/odd:name`, backendHosts: [{ protocol: 'HTTPS', hostName: `${prefix}-odd.internal`, port: 8443, weight: 50 }] },
  });
  const vh = await s.create('virtual-hosts', { type: 'virtual-host', attributes: { name: `${prefix}-host`, hostName: `${prefix}.example.com` } });
  const { cert, key } = await selfSignedCertificate(`${prefix}.example.com`);
  KNOWN_KEYS.push(key);
  const certificate = await s.create('ssl-certificates', { type: 'ssl-certificate', attributes: { certificate: cert, privateKey: key, certType: 'SERVER_CERT' } });
  await s.link('virtual-hosts', vh.id, 'ssl-certificate', { type: 'ssl-certificate', id: certificate.id });
  const ids: { type: string; id: string }[] = [];
  for (let i = 0; i < count; i++) {
    const regex = i % 7 === 0;
    const name = `${prefix}-${String(i).padStart(4, '0')}`;
    const m = await s.create('mappings', {
      type: 'mapping',
      attributes: {
        name,
        labels: [`team-${prefix}`, i % 2 === 0 ? 'even' : 'odd'],
        entryPath: regex ? { value: `^/${name}/[0-9]+$`, regexFormatEnforced: true, priority: priorityBase + i / 7 } : { value: `/${name}/` },
        backendPath: `/${name}/`,
      },
    });
    ids.push({ type: 'mapping', id: m.id });
  }
  await s.link('virtual-hosts', vh.id, 'mappings', ids);
  await s.link('back-end-groups', group.id, 'mappings', ids.slice(1));
  const first = ids[0];
  if (first) await s.link('back-end-groups', odd.id, 'mappings', [first]);
  const errors = (await s.validatorMessages()).filter((m) => m.severity === 'ERROR');
  expect(errors.map((m) => m.detail)).toEqual([]);
}
