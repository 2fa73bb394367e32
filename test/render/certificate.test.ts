import { X509Certificate } from 'node:crypto';
import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/kinds/index.js';
import { describeCertificates } from '../../src/render/certificate.js';
import { DescribedValue, shownValue } from '../../src/render/values.js';
import { certificateAttributes } from '../../src/schema/index.js';

const cert = async (cn: string): Promise<string> => (await generate([{ name: 'commonName', value: cn }], { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' })).cert;

describe('certificates described by the schema mark x-gwops-certificate', () => {
  it('a chain in one string or a list: each certificate numbered with subject, validity and fingerprint', async () => {
    const [a, b] = [await cert('leaf'), await cert('intermediate')];
    for (const value of [`${a}\n${b}`, [a, b]]) {
      const lines = describeCertificates(value) ?? [];
      expect(lines[0]).toBe('(2 certificates)');
      expect(lines).toContain('  [1] subject:   CN=leaf');
      expect(lines).toContain('  [2] subject:   CN=intermediate');
      expect(lines).toContain(`      SHA-256:   ${new X509Certificate(b).fingerprint256}`);
    }
  });

  it('anything else is shown as it is: no PEM, a broken PEM, text around a PEM, an empty list', async () => {
    const a = await cert('leaf');
    for (const value of ['plain text', '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydA==\n-----END CERTIFICATE-----\n', `note\n${a}`, [], [a, 3]]) {
      expect(describeCertificates(value), JSON.stringify(value)).toBeUndefined();
    }
  });

  it("every marked attribute of every kind is described; unmarked ones and --verbose keep the PEM", async () => {
    const a = await cert('leaf');
    const marked = KINDS.flatMap((k) => [...certificateAttributes(k.type)].map((path) => [k.type, path] as const));
    expect(marked.length).toBeGreaterThanOrEqual(6);
    for (const [kind, path] of marked) {
      expect(shownValue(kind, path, a), `${kind} ${path}`).toBeInstanceOf(DescribedValue);
      expect(shownValue(kind, path, a, { full: true })).toBe(a);
    }
    for (const k of KINDS) expect(shownValue(k.type, 'name', a)).toBe(a);
  });
});
