/**
 * A declared name that differs from a live object's name only by Unicode normalisation,
 * width or case (NFC/NFD, fullwidth letters, ligatures, upper case) would be created
 * beside it and look identical in the plan: the plan warns, naming both with the
 * characters outside printable ASCII escaped, for every such transformation; a name that
 * really differs gets no warning.
 */
import { describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

/** A live name and the declared look-alikes made from it. */
const CASES: readonly { readonly live: string; readonly declared: string; readonly how: string; readonly shown: string }[] = [
  { live: 'cafe\u0301-api', declared: 'caf\u00e9-api', how: 'NFD live, NFC declared', shown: "'caf\\u{e9}-api'" },
  { live: 'shop-api', declared: '\uff53hop-api', how: 'fullwidth letter', shown: "'\\u{ff53}hop-api'" },
  { live: 'profile-api', declared: 'pro\ufb01le-api', how: 'ligature fi', shown: "'pro\\u{fb01}le-api'" },
  { live: 'orders-api', declared: 'Orders-API', how: 'case', shown: "'Orders-API'" },
  { live: 'billing-api', declared: '\uff22illing-\uff21PI', how: 'width and case', shown: "'\\u{ff22}illing-\\u{ff21}PI'" },
];

const group = (name: string): string =>
  `apiVersion: gwops/v1\nkind: back-end-group\nname: ${JSON.stringify(name)}\nattributes:\n  backendHosts:\n    - { hostName: h.internal, port: 8080 }\n---\n`;

describe('look-alike names', () => {
  const t = useHarness();

  it('plan warns, naming both escaped, for each declared name that only normalisation, width or case tells from a live one', async () => {
    await t.h.raw(async (s) => {
      for (const c of [...CASES.map((x) => x.live), 'other-api']) {
        await s.create('back-end-groups', { type: 'back-end-group', attributes: { name: c, backendHosts: [{ hostName: 'h.internal', port: 8080 }] } });
      }
    }, 'live look-alikes');
    const manifests = await writeManifests(t.h, 'lookalike', { 'groups.yaml': [...CASES.map((c) => group(c.declared)), group('other-apj')].join('') });
    const plan = await t.h.cli(['plan', manifests, ...t.h.connection]);
    expect(plan.code, plan.stderr).toBe(0);
    const warnings = plan.stderr.split('\n').filter((l) => l.includes('will be created beside the live'));
    expect(warnings).toHaveLength(CASES.length);
    for (const c of CASES) {
      const line = warnings.find((l) => l.includes(`back-end-group ${c.shown} will be created`));
      expect(line, c.how).toBeDefined();
      const liveShown = [...c.live].map((ch) => ((ch.codePointAt(0) ?? 0) < 0x7f ? ch : `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`)).join('');
      expect(line, c.how).toContain(`live back-end-group '${liveShown}'`);
    }
    expect(plan.stderr).not.toContain('other-apj');
  });
});
