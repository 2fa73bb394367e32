/**
 * A virtual host's certificate revocation list from a file (docs/gateway-api.md "Virtual
 * hosts"): `content: { fromFile }` on a virtual host is uploaded with `PUT /{id}/crl` as
 * `application/pkix-crl`, compared by digest, plans no change once applied, and exports
 * beside the manifest; a virtual host without a list exports no file. End to end against
 * the emulator.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

/** Stand-in DER bytes: the list is opaque to gwops and to the emulator. */
const CRL = Buffer.from([0x30, 0x82, 0x01, 0x0a, 0x30, 0x81, 0xf3, 0x02, 0x01, 0x01, 0xff, 0x00]);
const HOST = (name: string, crl: boolean): string =>
  `apiVersion: gwops/v1\nkind: virtual-host\nname: ${name}\nattributes:\n  hostName: ${name}.example.com\n  networkInterface:\n    http: { enabled: true, port: 80 }\n    https: { enabled: false, http2Allowed: false }\n${crl ? `content:\n  fromFile: ${name}.crl\n` : ''}`;

describe("a virtual host's certificate revocation list", () => {
  const t = useHarness();

  it('is uploaded from its file as application/pkix-crl, plans no change after, and exports beside the manifest only where a list exists', async () => {
    const folder = await writeManifests(t.h, 'project', {
      'gwops.yaml': 'manifests: [hosts.yaml]\nownership:\n  virtual-host: [\'name=@crl-\']\n',
      'hosts.yaml': [HOST('crl-shop', true), HOST('crl-plain', false)].join('---\n'),
    });
    await writeFile(join(folder, 'crl-shop.crl'), CRL);
    const config = ['--config', join(folder, 'gwops.yaml'), ...t.h.connection];
    const apply = await t.h.cli(['apply', ...config, '--yes', '--comment', 'revocation list']);
    expect(apply.stderr).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);
    const stored = await t.h.raw(async (s) => {
      const host = (await s.list('virtual-hosts', [])).find((v) => v.attributes.name === 'crl-shop');
      return s.readContent('virtual-hosts', host?.id ?? '', undefined, { segment: 'crl', mediaType: 'application/pkix-crl' });
    });
    expect(stored.toString('hex')).toBe(CRL.toString('hex'));
    expect((await t.h.cli(['plan', ...config, '--detailed-exitcode'])).code).toBe(0);

    const dir = join(t.h.dir, 'export');
    expect((await t.h.cli(['export', ...t.h.connection, '--out', dir])).code).toBe(0);
    const files = await readdir(join(dir, 'virtual-host'));
    const crls = files.filter((f) => f.endsWith('.crl'));
    expect(crls).toEqual(['crl-shop.content.crl']);
    expect((await readFile(join(dir, 'virtual-host', crls[0] ?? ''))).toString('hex')).toBe(CRL.toString('hex'));
  });
});
