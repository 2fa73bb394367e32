import { describe, expect, it } from 'vitest';
import { objectElement } from '../../../src/emulator/archive-xml.js';
import { EmulatorApiError, errors } from '../../../src/emulator/responses.js';
import { kindOf } from '../../../src/kinds/index.js';
import { denyRuleArchive } from '../../../src/kinds/mapping/deny-rule-archive.js';
import { DENY_RULES, DENY_RULE_GROUPS } from '../../../src/kinds/mapping/deny-rules.js';
import { XmlFormatError, element, parseXml, writeXml } from '../../../src/emulator/xml.js';
import type { XmlElement } from '../../../src/emulator/xml.js';

describe('the XML of export archives', () => {
  it('round-trips elements, attributes and escaped text', () => {
    const root = element('ConfigRoot', [element('Name', 'a <b> & "c"'), element('Empty', ''), element('List', [element('Item', '1')], { id: '-1000', note: 'x"y' })], {
      format: 'f',
    });
    expect(parseXml(writeXml(root))).toEqual(root);
  });

  it('reads what ElementTree and hand edits produce: no declaration, self-closing tags, references, CDATA, comments', () => {
    const root = parseXml("\uFEFF<Root a='1'><!-- note --><Name>x&#65;&#x42;&apos;</Name><Data><![CDATA[<raw> & more]]></Data><Empty /></Root>");
    expect(root.attributes).toEqual({ a: '1' });
    expect(root.children.map((c) => [c.name, c.text])).toEqual([
      ['Name', "xAB'"],
      ['Data', '<raw> & more'],
      ['Empty', ''],
    ]);
  });

  it('refuses what is not well-formed, and document type declarations', () => {
    for (const bad of ['', 'text', '<a>', '<a></b>', '<a/><b/>', '<a x=1/>', '<a>&bogus;</a>', '<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>']) {
      expect(() => parseXml(bad), bad).toThrow(XmlFormatError);
    }
  });
});

describe('the mapping element of the archives', () => {
  const archive = { file: 'alec_table.xml', listElement: 'Mappings', itemElement: 'Mapping', allowRulesAttribute: 'allowRules', usage: denyRuleArchive } as const;
  const usageIn = (item: XmlElement, file: string): ReadonlyMap<string, unknown> => denyRuleArchive.read(item, file, errors);

  it("is the mapping kind's archive", () => {
    expect(kindOf('mapping').emulator.objectArchive?.usage).toBe(denyRuleArchive);
  });
  const mapping = {
    type: 'mapping' as const,
    id: '7',
    attributes: { name: 'm', allowRules: [{ name: 'r1' }] },
    relationships: {},
    denyRuleUsage: { SQLI_PARAM_VALUE: { enabled: false, logOnly: false }, SQL_001a: { enabled: true, logOnly: true } },
  };

  it('writes Name, AllowRules/*/IpPattern/DefaultId, per group DenyRuleGroupId + Enabled[@Locked], per rule DenyRuleUsage, and reads the use back', () => {
    const el = parseXml(writeXml(objectElement(mapping, archive, true)));
    expect([el.name, el.attributes.Id, el.children.map((c) => c.name)]).toEqual(['Mapping', '7', ['Name', 'AllowRules', 'DenyRuleGroupUsages', 'GwopsAttributes']]);
    const back = usageIn(el, 'alec_table.xml');
    expect(back.get('SQLI_PARAM_VALUE')).toEqual({ enabled: false, logOnly: false });
    expect(back.get('SQL_001a')).toEqual({ enabled: true, logOnly: true });
    expect(back.get('SQL_001b')).toEqual({ enabled: true, logOnly: false });
    expect(back.size).toBe(DENY_RULE_GROUPS.length + DENY_RULES.length);
  });

  it('reads a short name in place of the numeric id; refuses an unknown id and a flag that is no boolean', () => {
    const use = (id: string, enabled: string): XmlElement =>
      element('Mapping', [element('DenyRuleUsage', [element('DenyRuleId', id), element('Enabled', enabled), element('LogOnly', 'false')])]);
    expect(usageIn(use('SQL_001a', 'FALSE'), 'f').get('SQL_001a')).toEqual({ enabled: false, logOnly: false });
    expect(() => usageIn(use('-999999', 'true'), 'f')).toThrow(EmulatorApiError);
    expect(() => usageIn(use('SQL_001a', 'yes'), 'f')).toThrow(/true or false/);
  });
});
