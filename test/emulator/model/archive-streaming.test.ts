/**
 * The configuration archive written and read piece by piece (zip.ts `ZipWriter` and
 * `readZipStreamed`, xml.ts `writeXmlPieces`, content-json.ts): the same text as the
 * one-string writers, at any size. The 100,000-mapping export and import runs in
 * `npm run bench:emulator -- --scale-100k`.
 */
import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContentJsonReader, contentJsonPieces } from '../../../src/emulator/content-json.js';
import { newObjectAttributes } from '../../../src/emulator/defaults.js';
import { emptyContent } from '../../../src/emulator/model.js';
import type { ConfigContent, StoredObject } from '../../../src/emulator/model.js';
import { element, writeXml, writeXmlPieces } from '../../../src/emulator/xml.js';
import type { StreamedElement, XmlElement } from '../../../src/emulator/xml.js';
import { ZipFormatError, ZipWriter, readZip, readZipStreamed } from '../../../src/emulator/zip.js';

/** Element trees with names, attributes and text that need escaping, line breaks included. */
const text = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '\n', '<', '>', '&', '"', "'", 'é', '😀'), maxLength: 6 });
const name = fc.constantFrom('A', 'B', 'Mapping', 'Name', 'x-y');
const attributes = fc.dictionary(fc.constantFrom('Id', 'Version', 'k'), text, { maxKeys: 2 });
const { tree } = fc.letrec<{ tree: XmlElement }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small' },
    fc.tuple(name, text, attributes).map(([n, t, a]) => element(n, t, a)),
    fc.tuple(name, fc.array(tie('tree'), { maxLength: 4 }), attributes).map(([n, c, a]) => element(n, c, a)),
  ),
}));

/** `el` with the elements `streamed` picks (by their order in a walk) as streamed elements. */
function streamedVersion(el: XmlElement, streamed: (index: number) => boolean, counter = { next: 0 }): XmlElement | StreamedElement {
  const index = counter.next++;
  if (el.text !== '' || !streamed(index)) return el;
  const children = el.children.map((c) => streamedVersion(c, streamed, counter));
  return {
    name: el.name,
    attributes: el.attributes,
    *stream() {
      yield* children;
    },
  } as unknown as StreamedElement;
}

describe('writeXmlPieces', () => {
  it('writes what writeXml writes, character for character, whichever elements are streamed', () => {
    fc.assert(
      fc.property(tree, fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), (root, picks) => {
        const version = streamedVersion(root, (i) => picks[i % picks.length] === true);
        const asStreamed = 'stream' in version && typeof version.stream === 'function' ? { ...version, stream: (version.stream as () => Iterable<XmlElement>)() } : version;
        expect([...writeXmlPieces(fixStreams(asStreamed))].join('')).toBe(writeXml(root));
      }),
      { numRuns: 100 },
    );
  });

  it('makes the children of a streamed element one at a time, as they are written', () => {
    let made = 0;
    function* items(): Generator<XmlElement> {
      for (let i = 0; i < 3; i++) {
        made++;
        yield element('Item', String(i));
      }
    }
    const pieces = writeXmlPieces({ name: 'Root', attributes: {}, stream: [{ name: 'List', attributes: {}, stream: items() }] });
    const seen: number[] = [];
    for (const _piece of pieces) seen.push(made);
    expect(seen[0]).toBe(0);
    expect(Math.max(...seen)).toBe(3);
    expect(seen.filter((m) => m === 1).length).toBeGreaterThan(0);
  });
});

/** Turns the generator functions of {@link streamedVersion} into iterables, at every depth. */
function fixStreams(el: XmlElement | StreamedElement): XmlElement | StreamedElement {
  if (!('stream' in el)) return el;
  const raw = el.stream as unknown;
  const children = typeof raw === 'function' ? [...(raw as () => Iterable<XmlElement | StreamedElement>)()] : [...el.stream];
  return { name: el.name, attributes: el.attributes, stream: children.map(fixStreams) };
}

/** A content of `count` mappings made as the emulator makes them (attributes over shared defaults), linked in pairs. */
function mappings(count: number): ConfigContent {
  const content = emptyContent();
  for (let i = 0; i < count; i++) {
    const id = String(content.nextId++);
    const obj: StoredObject = {
      type: 'mapping',
      id,
      attributes: newObjectAttributes('mapping', 'latest', { name: `m-${i}`, backendPath: `/s-${i}/`, labels: ['a', `é-${i % 3}`] }),
      relationships: { 'virtual-hosts': [String(i % 5)] },
      ...(i % 7 === 0 ? { denyRuleUsage: { SQLI_PARAM_VALUE: { enabled: false, logOnly: true } } } : {}),
    };
    content.objects.mapping.set(id, obj);
  }
  content.nextId += 3;
  return content;
}

/** The JSON of a content as one string, as the export wrote it before it streamed. */
function oneString(content: ConfigContent): string {
  const objects: StoredObject[] = [];
  for (const map of Object.values(content.objects)) for (const obj of map.values()) objects.push(obj);
  return JSON.stringify({ nextId: content.nextId, objects });
}

function readBack(bytes: Buffer, chunk: number): ConfigContent {
  const reader = new ContentJsonReader('latest', (why) => new Error(why));
  for (let at = 0; at < bytes.length; at += chunk) reader.write(bytes.subarray(at, at + chunk));
  return reader.result();
}

describe("the emulator's content JSON", () => {
  it('is written piece by piece as JSON.stringify writes it whole, and read back in chunks of any size', () => {
    const content = mappings(40);
    const text = [...contentJsonPieces(content)].join('');
    expect(text).toBe(oneString(content));
    for (const chunk of [1, 7, 4096]) {
      const back = readBack(Buffer.from(text, 'utf8'), chunk);
      expect(back.nextId).toBe(content.nextId);
      expect([...back.objects.mapping.values()]).toEqual([...content.objects.mapping.values()]);
    }
  });

  it('reads attributes back sharing the server defaults again', () => {
    const content = mappings(2);
    const back = readBack(Buffer.from([...contentJsonPieces(content)].join(''), 'utf8'), 64);
    const [a, b] = [...back.objects.mapping.values()];
    expect(a?.attributes.timeouts).toBeDefined();
    expect(a?.attributes.timeouts).toBe(b?.attributes.timeouts);
  });

  it('refuses text that is no content or ends early', () => {
    const text = [...contentJsonPieces(mappings(3))].join('');
    for (const bad of ['{"nextId":1}', text.slice(0, -5), '{"objects":[{"type":"mapping"}]}', '{"objects":[{"type":"nope","id":"1","attributes":{}}]}']) {
      expect(() => readBack(Buffer.from(bad), 5), bad).toThrow(Error);
    }
  });
});

describe('ZipWriter and readZipStreamed', () => {
  it('carry 1,000 full mappings (9 MB of JSON) through a streamed archive: entries in the order opened, data written in any order, read back in chunks', () => {
    const content = mappings(1000);
    const zip = new ZipWriter(new Date('2026-01-02T03:04:05Z'));
    const first = zip.open('first.xml');
    const second = zip.open('content.json');
    const hash = createHash('sha256');
    let pieces = 0;
    for (const piece of contentJsonPieces(content)) {
      hash.update(piece, 'utf8');
      second.write(piece);
      pieces++;
    }
    second.end();
    first.write(`<Root Hash="${hash.digest('hex')}"/>`);
    first.end();
    const bytes = zip.finish();
    expect(pieces).toBe(1002);

    const whole = readZip(bytes);
    expect(whole.map((e) => e.name)).toEqual(['first.xml', 'content.json']);
    const json = whole[1]?.data ?? Buffer.alloc(0);
    expect(whole[0]?.data.toString()).toBe(`<Root Hash="${createHash('sha256').update(json).digest('hex')}"/>`);

    const reader = new ContentJsonReader('latest', (why) => new Error(why));
    readZipStreamed(bytes, (name) => (name === 'content.json' ? (chunk) => reader.write(chunk) : undefined));
    const back = reader.result();
    expect(back.objects.mapping.size).toBe(1000);
    expect([...back.objects.mapping.values()]).toEqual([...content.objects.mapping.values()]);
  });

  it('hands an entry to its reader in pieces, not whole', () => {
    const text = randomBytes(1024 * 1024).toString('hex');
    const zip = new ZipWriter();
    const entry = zip.open('random.txt');
    for (let at = 0; at < text.length; at += 1000) entry.write(text.slice(at, at + 1000));
    entry.end();
    const chunks: Buffer[] = [];
    readZipStreamed(zip.finish(), () => (chunk) => chunks.push(Buffer.from(chunk)));
    expect(chunks.length).toBeGreaterThan(4);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(text.length / 2);
    expect(Buffer.concat(chunks).toString()).toBe(text);
  });

  it('passes on what a receiver throws, and reports a corrupt archive as ZipFormatError', () => {
    const zip = new ZipWriter();
    const entry = zip.open('a.txt');
    entry.write('x'.repeat(1000));
    entry.end();
    const bytes = zip.finish();
    const mine = new RangeError('mine');
    expect(() =>
      readZipStreamed(bytes, () => () => {
        throw mine;
      }),
    ).toThrow(mine);
    const corrupt = Buffer.from(bytes);
    corrupt.fill(0xff, 40, 60);
    expect(() => readZipStreamed(corrupt, () => () => undefined)).toThrow(ZipFormatError);
  });
});
