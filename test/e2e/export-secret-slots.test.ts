/**
 * A readable token secret of a mapping that also names another object by an attribute
 * (`ipAddressListIds`, `openApiDocumentId`): `gwops export` and `drift --adopt` write the
 * secret as `{ fromEnv }` with a line in `secrets.env.example`, never as the export's
 * internal slot, and the exported project validates.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { useHarness, writeManifests } from './harness.js';

const PASSPHRASE = 'jwe-passphrase-0123456789abcdef';
const HMAC = 'hmac-passphrase-0123456789abcdef';

describe('readable token secrets beside references by name', () => {
  const t = useHarness();

  it('export writes jweKey and an HS_* jwsKey as { fromEnv } with an example line, and the result validates', async () => {
    await t.h.raw(async (s) => {
      const list = await s.create('ip-address-lists', { type: 'ip-address-list', attributes: { name: 'office', ips: ['192.0.2.0/24'] } });
      const backend = await s.create('back-end-groups', { type: 'back-end-group', attributes: { name: 'tokens-backend', backendHosts: [{ protocol: 'HTTP', hostName: 'tokens.internal', port: 80 }] } });
      const mapping = await s.create('mappings', {
        type: 'mapping',
        attributes: {
          name: 'tokens',
          entryPath: { value: '/tokens/' },
          access: { tokenVerification: { jweKey: PASSPHRASE, jwsAlgorithm: 'HS_256', jwsKey: HMAC } },
          ipRules: { ipAddressWhitelists: { pathWhitelists: [{ enabled: true, pathPattern: { pattern: '^/tokens/admin/', caseIgnored: false, inverted: false }, ipAddressListIds: [Number(list.id)] }] } },
        },
      });
      await s.link('mappings', mapping.id, 'back-end-groups', [{ type: 'back-end-group', id: backend.id }]);
    }, 'token mapping by hand');
    const dir = join(t.h.dir, 'export-tokens');
    const r = await t.h.cli(['export', ...t.h.connection, '--out', dir]);
    expect(r.stderr).not.toMatch(/^Error/m);
    expect(r.code).toBe(0);
    const mapping = parse(await readFile(join(dir, 'mapping', 'tokens.yaml'), 'utf8')) as { attributes: { access: { tokenVerification: Record<string, unknown> } } };
    const verification = mapping.attributes.access.tokenVerification;
    expect(verification.jweKey).toEqual({ fromEnv: expect.stringMatching(/^GWOPS_MAPPING_TOKENS_/) as unknown });
    expect(verification.jwsKey).toEqual({ fromEnv: expect.stringMatching(/^GWOPS_MAPPING_TOKENS_/) as unknown });
    const example = await readFile(join(dir, 'secrets.env.example'), 'utf8');
    for (const key of [verification.jweKey, verification.jwsKey]) expect(example).toContain((key as { fromEnv: string }).fromEnv);
    const env = { [(verification.jweKey as { fromEnv: string }).fromEnv]: PASSPHRASE, [(verification.jwsKey as { fromEnv: string }).fromEnv]: HMAC };
    const plan = await t.h.cli(['plan', '--config', join(dir, 'gwops.yaml'), ...t.h.connection], { env });
    expect(plan.stderr).not.toMatch(/error/i);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
  });

  it('drift --adopt of such a mapping added on the gateway writes { fromEnv }', async () => {
    const folder = await writeManifests(t.h, 'adopt-tokens', {
      'gwops.yaml': 'manifests: [m]\nallowExternalLinks: true\nownership:\n  mapping: [\'name=@adopted-\']\n  ip-address-list: [\'name=@adopted-\']\n',
    });
    await writeManifests(t.h, 'adopt-tokens/m', {
      'lists.yaml': "apiVersion: gwops/v1\nkind: ip-address-list\nname: adopted-office\nattributes:\n  ips: ['198.51.100.0/24']\n",
    });
    await t.h.cli(['apply', '--config', join(folder, 'gwops.yaml'), ...t.h.connection, '--yes']);
    await t.h.raw(async (s) => {
      const list = (await s.list('ip-address-lists', [])).find((r) => r.attributes.name === 'adopted-office');
      const backend = (await s.list('back-end-groups', [])).find((r) => r.attributes.name === 'tokens-backend');
      const mapping = await s.create('mappings', {
        type: 'mapping',
        attributes: {
          name: 'adopted-tokens',
          entryPath: { value: '/adopted/' },
          access: { tokenVerification: { jweKey: PASSPHRASE } },
          ipRules: { ipAddressWhitelists: { pathWhitelists: [{ enabled: true, pathPattern: { pattern: '^/adopted/admin/', caseIgnored: false, inverted: false }, ipAddressListIds: [Number(list?.id)] }] } },
        },
      });
      await s.link('mappings', mapping.id, 'back-end-groups', [{ type: 'back-end-group', id: backend?.id ?? '' }]);
    }, 'adopted token mapping by hand');
    const r = await t.h.cli(['drift', '--config', join(folder, 'gwops.yaml'), ...t.h.connection, '--adopt']);
    expect(r.stderr).not.toMatch(/^Error/m);
    const text = await readFile(join(folder, 'm', 'mapping', 'adopted-tokens.yaml'), 'utf8');
    const mapping = parse(text) as { attributes: { access: { tokenVerification: Record<string, unknown> } } };
    expect(mapping.attributes.access.tokenVerification.jweKey).toEqual({ fromEnv: expect.stringMatching(/^GWOPS_MAPPING_ADOPTED_TOKENS_/) as unknown });
    expect(text).not.toContain('writeOnly');
  });

  it('no output held either secret', () => {
    const all = t.h.outputs.join('\n');
    expect(all).not.toContain(PASSPHRASE);
    expect(all).not.toContain(HMAC);
  });
});
