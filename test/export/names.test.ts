import { readFile } from 'node:fs/promises';
import { NODE_CERTIFICATES } from '../../src/crypto/node.js';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { certificateIdentity } from '../../src/kinds/ssl-certificate/identity.js';
import { FileNames, escapeFileName, fileNameKey, fitFileName, generatedName, secretEnvName, unescapeFileName } from '../../src/export/names.js';

describe('export file names', () => {
  const names = ['shop-api', 'a/b', 'a\\b', 'c:d', '.hidden', '..', 'trailing.', 'space ', '50%', 'tab\there', 'nl\nx', 'del\u007f', 'ünïcode', 'q?*<>|"', '%2F'];

  it.each(names)('escapes %j reversibly into one safe path segment', (name) => {
    const file = escapeFileName(name);
    expect(unescapeFileName(file)).toBe(name);
    expect([...file].some((c) => '/\\:<>"|?*'.includes(c) || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)).toBe(false);
    expect(file.startsWith('.')).toBe(false);
    expect(file).not.toMatch(/[. ]$/);
  });

  it('keeps ordinary names as they are and gives distinct names distinct files', () => {
    expect(escapeFileName('shop-api_v2.1')).toBe('shop-api_v2.1');
    expect(escapeFileName('a/b')).toBe('a%2Fb');
    expect(new Set(names.map(escapeFileName)).size).toBe(names.length);
  });
});

describe('file names with one owner', () => {
  it('escapes the first letter of a Windows device name, reversibly', () => {
    for (const name of ['CON', 'nul', 'Aux.content', 'com1', 'LPT9.yaml']) {
      expect(escapeFileName(name)).toMatch(/^%[0-9A-F]{2}/);
      expect(unescapeFileName(escapeFileName(name))).toBe(name);
    }
    expect(escapeFileName('console')).toBe('console');
  });

  it('hands out names that are distinct where case and normalisation are ignored, each within 255 bytes, and says which changed', () => {
    const piece = fc.constantFrom('a', 'A', 'é', 'e\u0301', 'ß', 'SS', '.content', 'con', '.', '-', 'x'.repeat(90), 'é'.repeat(60));
    fc.assert(
      fc.property(fc.array(fc.array(piece, { minLength: 1, maxLength: 6 }).map((p) => p.join('')), { minLength: 1, maxLength: 20 }), fc.boolean(), (names, content) => {
        const files = new FileNames();
        const given = names.map((name) => files.claim('kind', escapeFileName(name), content ? '.content.yaml' : '.yaml', { label: name }));
        expect(new Set(given.map(fileNameKey)).size).toBe(given.length);
        for (const file of given) expect(Buffer.byteLength(file)).toBeLessThanOrEqual(255);
        const changed = given.filter((file, i) => file !== `${escapeFileName(names[i] ?? '')}${content ? '.content.yaml' : '.yaml'}`);
        expect(files.renamed.map((r) => r.given)).toEqual(changed);
      }),
    );
  });

  it('cuts a long name at a character, never inside a %XX escape, and ends it with a hash', () => {
    const name = fitFileName(`${'a'.repeat(239)}%2F${'b'.repeat(40)}`, '.yaml');
    expect(name).toMatch(/^a+~[0-9a-f]{8}\.yaml$/);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
  });
});

describe('secret variable names', () => {
  it('upper-cases and joins kind, name and attribute path with _', () => {
    expect(secretEnvName('ssl-certificate', 'shop.example.com-8ed4', ['privateKey'])).toBe('GWOPS_SSL_CERTIFICATE_SHOP_EXAMPLE_COM_8ED4_PRIVATEKEY');
    expect(secretEnvName('acme-service', 'le', ['externalAccountBinding', 'hmacKey'])).toBe('GWOPS_ACME_SERVICE_LE_EXTERNALACCOUNTBINDING_HMACKEY');
  });
});

describe('generated names', () => {
  it('falls back to the kind when the value is no certificate', () => {
    expect(generatedName('ssl-certificate', 'abcdef0123456789', certificateIdentity.exportName?.({ certificate: 'not a pem' }, NODE_CERTIFICATES))).toBe('ssl-certificate-abcdef012345');
  });

  it('uses the subject CN of a certificate (a wildcard reads wildcard)', async () => {
    const text = await readFile(new URL('../../examples/manifests/certificates.yaml', import.meta.url), 'utf8');
    const pems = [...text.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)].map((m) => m[0].replace(/^ +/gm, ''));
    expect(pems.map((pem) => generatedName('ssl-certificate', 'ff'.repeat(32), certificateIdentity.exportName?.({ certificate: pem }, NODE_CERTIFICATES)))).toEqual(
      expect.arrayContaining(['shop.example.com-ffffffffffff', 'wildcard.example.com-ffffffffffff']),
    );
  });
});
