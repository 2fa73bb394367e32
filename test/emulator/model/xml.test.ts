import { describe, expect, it } from 'vitest';
import { XmlFormatError, element, parseXml, writeXml } from '../../../src/emulator/xml.js';

describe('the XML of export archives', () => {
  it('round-trips elements, attributes and escaped text', () => {
    const root = element('Configuration', [element('Name', 'a <b> & "c"'), element('Empty', ''), element('List', [element('Item', '1')], { id: '-1000', note: 'x"y' })], {
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
