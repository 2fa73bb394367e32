/**
 * Hostile or damaged input: aliases that expand without bound ("billion laughs"), bytes
 * that are not UTF-8, control characters in values. Each is a located error found in
 * milliseconds, on every path that reads YAML (manifests, overlays, stdin, the project
 * file), and ordinary anchors, aliases and merge keys still load as before.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { hasErrors, loadManifests, loadProject } from '../../src/manifest/index.js';
import type { Diagnostic } from '../../src/manifest/index.js';
import { decodeUtf8 } from '../../src/manifest/source-file.js';
import { MAX_ALIAS_EXPANSION } from '../../src/manifest/yaml-guards.js';
import { project } from './fixture.js';

/** Generous for a slow shared machine: the checks take milliseconds, the bugs took forever. */
const LIMIT_MS = 5000;

const HEADER = 'apiVersion: gwops/v1\nkind: back-end-group\nname: lol\nattributes:\n  description:\n';

/** Ten levels of nine references each: about 1 KB standing for 9^10 values. */
function billionLaughs(indent = '    '): string {
  const names = 'abcdefghij';
  const lines = [`a0: &a [${Array(9).fill('lol').join(',')}]`];
  for (let i = 1; i < names.length; i++) {
    lines.push(`${names[i]}${i}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(',')}]`);
  }
  return lines.map((l) => indent + l + '\n').join('');
}

async function load(files: Record<string, string | Buffer>, options: { stdin?: string | Buffer; paths?: string[] } = {}) {
  const dir = project({});
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
  const started = performance.now();
  const result = await loadManifests({
    paths: options.paths ?? ['.'],
    cwd: dir,
    env: {},
    ...(options.stdin !== undefined ? { stdin: Readable.from([Buffer.from(options.stdin)]) } : {}),
  });
  return { ...result, ms: performance.now() - started };
}

const where = (d: Diagnostic): string => `${d.file}:${d.line}:${d.column} ${d.code}`;

describe('alias expansion is bounded', () => {
  it('refuses a billion-laughs file at the alias that exceeds the bound, in milliseconds', async () => {
    const text = HEADER + billionLaughs();
    expect(text.length).toBeLessThan(1100);
    const r = await load({ 'bomb.yaml': text });
    expect(r.ms).toBeLessThan(LIMIT_MS);
    expect(r.documents).toEqual([]);
    expect(r.diagnostics).toHaveLength(1);
    const d = r.diagnostics[0]!;
    expect(d).toMatchObject({ severity: 'error', code: 'yaml-syntax', file: 'bomb.yaml', pointer: '' });
    expect(d.message).toContain('too many alias references');
    expect(d.message).toContain('use `extends` templates');
    // At an alias (`*x`) of one of the nested lists (the loader's diagnostics are always located).
    if (d.file === undefined) throw new Error('a manifest diagnostic without a location');
    const line = text.split('\n')[d.line - 1] ?? '';
    expect(line.slice(d.column - 1)).toMatch(/^\*[a-j]\b/);
  });

  it('refuses it through merge keys (which the yaml package copies while resolving)', async () => {
    const text =
      HEADER +
      '    a0: &a { x: 1, y: 2, z: 3 }\n' +
      'bcdefghijklmnop'
        .split('')
        .map((name, i) => `    ${name}${i}: &${name} { <<: [${Array(9).fill(`*${'abcdefghijklmnop'[i]}`).join(', ')}], k${i}: ${i} }\n`)
        .join('') +
      '    all: [' +
      Array(200).fill('*p').join(', ') +
      ']\n';
    const r = await load({ 'merge.yaml': text });
    expect(r.ms).toBeLessThan(LIMIT_MS);
    expect(r.diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('too many alias references')]);
  });

  it('refuses many copies of one long value (the bound counts characters, not only nodes)', async () => {
    const long = 'x'.repeat(200_000);
    const text = `${HEADER}    value: &v "${long}"\n    copies: [${Array(10).fill('*v').join(', ')}]\n`;
    const r = await load({ 'long.yaml': text });
    // The sixth copy goes over 1,000,000 characters.
    expect(r.diagnostics.map(where)).toEqual(['long.yaml:7:34 yaml-syntax']);
    expect(r.diagnostics[0]?.message).toContain(`more than ${MAX_ALIAS_EXPANSION.toLocaleString('en-US')} characters`);
  });

  it('shares the bound between the documents of a file', async () => {
    const doc = (i: number): string =>
      `apiVersion: gwops/v1\nkind: back-end-group\nname: b${i}\nattributes:\n  description: &v "${'x'.repeat(100_000)}"\n  labels: [${Array(3).fill('*v').join(', ')}]\n`;
    const text = [0, 1, 2, 3].map(doc).join('---\n');
    const r = await load({ 'docs.yaml': text });
    // 300,000 characters each: the fourth document goes over 1,000,000.
    expect(r.diagnostics.filter((d) => d.message.includes('too many alias references')).map((d) => d.line)).toEqual([3 * 7 + 6]);
  });

  it('refuses an alias inside the value its anchor names (a cycle) instead of overflowing the stack', async () => {
    const text = 'apiVersion: gwops/v1\nkind: back-end-group\nname: cyc\nattributes: &a\n  labels: [*a]\n';
    const r = await load({ 'cycle.yaml': text });
    expect(r.diagnostics.map(where)).toEqual(['cycle.yaml:5:12 yaml-syntax']);
    expect(r.diagnostics[0]?.message).toContain("alias '*a' is inside the value its anchor names");
  });

  it('bounds aliases read from stdin and in overlays', async () => {
    const stdin = await load({}, { paths: ['-'], stdin: HEADER + billionLaughs() });
    expect(stdin.ms).toBeLessThan(LIMIT_MS);
    expect(stdin.diagnostics.map((d) => [d.file, d.code])).toEqual([['-', 'yaml-syntax']]);

    const dir = project({
      'gwops.yaml': 'manifests: [m]\ntargets:\n  prod: { url: "https://gw.example", overlays: [overlays] }\n',
      'm/bg.yaml': 'apiVersion: gwops/v1\nkind: back-end-group\nname: lol\nattributes: { backendHosts: [{ protocol: HTTP, hostName: a, port: 1 }] }\n',
      'overlays/patch.yaml': 'apiVersion: gwops/v1\nkind: back-end-group\nname: lol\nattributes:\n  description:\n' + billionLaughs(),
    });
    const started = performance.now();
    const r = await loadManifests({ paths: [], cwd: dir, env: {}, target: 'prod' });
    expect(performance.now() - started).toBeLessThan(LIMIT_MS);
    expect(r.diagnostics.map((d) => [d.file, d.code])).toContainEqual([path.join('overlays', 'patch.yaml'), 'yaml-syntax']);
    expect(r.diagnostics.find((d) => d.file?.includes('patch'))?.message).toContain('too many alias references');
  });

  it('bounds aliases in the project file', () => {
    const dir = project({ 'gwops.yaml': 'manifests: [m]\nx:\n' + billionLaughs('  ') });
    const started = performance.now();
    expect(() => loadProject(dir)).toThrow(InputError);
    expect(() => loadProject(dir)).toThrow(/gwops\.yaml:\d+:\d+: YAML error: too many alias references/);
    expect(performance.now() - started).toBeLessThan(LIMIT_MS);
  });

  it('still loads ordinary anchors, aliases and merge keys as before', async () => {
    const text = `apiVersion: gwops/v1
kind: back-end-group
name: shop-backend
attributes:
  tenant: &team shop
  backendHosts:
    - &host { protocol: HTTP, hostName: shop1.internal, port: 8080 }
    - <<: *host
      hostName: shop2.internal
    - *host
    - { protocol: HTTP, hostName: *team, port: 81 }
---
apiVersion: gwops/v1
kind: back-end-group
name: other-backend
attributes:
  backendHosts: [{ protocol: HTTP, hostName: &name other.internal, port: 80 }]
  tenant: *name
`;
    const r = await load({ 'anchors.yaml': text });
    expect(r.diagnostics).toEqual([]);
    const attributes = r.documents.map((d) => d.attributes);
    const reference = (parseAllDocuments(text, { merge: true }) as { toJS(): unknown }[]).map((d) => (d.toJS() as { attributes: object }).attributes);
    expect(attributes).toEqual(reference.map((a, i) => ({ ...a, name: r.documents[i]?.name })));
    expect(attributes[0]).toMatchObject({
      backendHosts: [
        { protocol: 'HTTP', hostName: 'shop1.internal', port: 8080 },
        { protocol: 'HTTP', hostName: 'shop2.internal', port: 8080 },
        { protocol: 'HTTP', hostName: 'shop1.internal', port: 8080 },
        { protocol: 'HTTP', hostName: 'shop', port: 81 },
      ],
      tenant: 'shop',
    });
    expect(attributes[1]).toMatchObject({ tenant: 'other.internal' });
  });

  it('locates problems inside aliased values where the anchor is written', async () => {
    const text = `apiVersion: gwops/v1
kind: back-end-group
name: shop-backend
attributes:
  backendHosts:
    - &host { protocol: HTTP, hostName: shop1.internal, port: 8080, weigth: 1 }
    - *host
`;
    const r = await load({ 'm.yaml': text });
    expect(r.diagnostics.map(where)).toEqual(['m.yaml:6:69 unknown-attribute', 'm.yaml:6:69 unknown-attribute']);
  });
});

describe('bytes that are not UTF-8', () => {
  const bg = (hostName: Buffer): Buffer =>
    Buffer.concat([
      Buffer.from('apiVersion: gwops/v1\nkind: back-end-group\nname: bad\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: '),
      hostName,
      Buffer.from(', port: 8080 }]\n'),
    ]);

  it('are an error at the line and column of the first one, and the rest of the file is still checked', async () => {
    const text = Buffer.concat([bg(Buffer.from([0x61, 0xff, 0x62])), Buffer.from('  tenantt: x\n')]);
    const r = await load({ 'bad.yaml': text });
    expect(r.ms).toBeLessThan(LIMIT_MS);
    expect(r.diagnostics.map(where)).toEqual(['bad.yaml:5:47 invalid-encoding', 'bad.yaml:6:3 unknown-attribute']);
    expect(r.diagnostics[0]?.message).toBe('the file is not valid UTF-8 (byte 0xFF here is not part of a UTF-8 character): save it as UTF-8');
    expect(hasErrors(r.diagnostics)).toBe(true);
  });

  it.each([
    ['a stray continuation byte', [0x80]],
    ['a truncated character', [0xc3]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['Latin-1 text', [0x63, 0x61, 0x66, 0xe9]],
  ])('finds %s', async (_what, bytes) => {
    const r = await load({ 'bad.yaml': bg(Buffer.concat([Buffer.from('"é'), Buffer.from(bytes), Buffer.from('"')])) });
    const d = r.diagnostics.find((x) => x.code === 'invalid-encoding');
    // Columns count characters as every position does: `"é` before the bad bytes is two.
    const column = 46 + 2 + (bytes[0] === 0x63 ? 3 : 0);
    expect(d && where(d)).toBe(`bad.yaml:5:${column} invalid-encoding`);
  });

  it('from stdin too', async () => {
    const r = await load({}, { paths: ['-'], stdin: bg(Buffer.from([0xfe])) });
    expect(r.diagnostics.map(where)).toEqual(['-:5:46 invalid-encoding']);
  });

  it('accept a byte-order mark and characters of every length', async () => {
    const r = await load({ 'bom.yaml': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bg(Buffer.from('"é€😀"'))]) });
    expect(r.diagnostics).toEqual([]);
    expect(r.documents[0]?.attributes).toMatchObject({ backendHosts: [{ hostName: 'é€😀' }] });
  });

  it('decodeUtf8 reads ASCII text as a strict TextDecoder does (property)', () => {
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0x7f }), { maxLength: 64 }), fc.nat({ max: 3 }), (list, offset) => {
        // A view into a larger buffer (with bytes that are not UTF-8 around it), as a file read may give.
        const buffer = Uint8Array.from([...Array.from({ length: offset }, () => 0xff), ...list, 0xff]);
        const view = buffer.subarray(offset, offset + list.length);
        expect(decodeUtf8(view)).toEqual({ text: strict.decode(view) });
      }),
    );
  });

  it('decodeUtf8 agrees with a strict TextDecoder (property)', () => {
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    /** Line of the byte where a streaming strict decoder notices the first error. */
    const errorLine = (list: readonly number[]): number => {
      const streaming = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
      let at = list.length;
      for (let i = 0; i < list.length; i++) {
        try {
          streaming.decode(Uint8Array.of(list[i] ?? 0), { stream: true });
        } catch {
          at = i;
          break;
        }
      }
      return 1 + list.slice(0, at).filter((b) => b === 0x0a).length;
    };
    const bytes = fc.array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x0a, 0x41, 0x80, 0xbf, 0xc3, 0xe2, 0xf0)), { maxLength: 12 });
    fc.assert(
      fc.property(bytes, (list) => {
        const input = Uint8Array.from(list);
        const { text, invalidUtf8 } = decodeUtf8(input);
        let expected: string | undefined;
        try {
          expected = strict.decode(input);
        } catch {
          expected = undefined;
        }
        if (expected !== undefined) {
          expect(invalidUtf8).toBeUndefined();
          expect(text).toBe(expected);
        } else {
          expect(invalidUtf8?.line).toBe(errorLine(list));
          expect(text).toBe(new TextDecoder('utf-8', { ignoreBOM: true }).decode(input));
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe('control characters', () => {
  const bg = (hostName: string): string =>
    `apiVersion: gwops/v1\nkind: back-end-group\nname: ctl\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: ${hostName}, port: 8080 }]\n`;

  it.each([
    ['a NUL escape', '"a\\0b"', 'U+0000'],
    ['a \\x01 escape', '"a\\x01b"', 'U+0001'],
    ['a \\u001F escape', '"a\\u001Fb"', 'U+001F'],
    ['an escape character', '"\\e[31m"', 'U+001B'],
    ['a raw NUL byte', 'a\0b', 'U+0000'],
    ['a raw NUL byte in quotes', '"a\0b"', 'U+0000'],
    ['a raw backspace', "'a\bb'", 'U+0008'],
  ])('refuses %s in a value, located at the value', async (_what, value, name) => {
    const r = await load({ 'ctl.yaml': bg(value) });
    expect(r.ms).toBeLessThan(LIMIT_MS);
    expect(r.diagnostics.map(where)).toEqual(['ctl.yaml:5:46 control-character']);
    expect(r.diagnostics[0]?.pointer).toBe('/attributes/backendHosts/0/hostName');
    expect(r.diagnostics[0]?.message).toContain(`control character ${name} in a value`);
  });

  it('refuses one in a key, located at the key', async () => {
    const r = await load({ 'ctl.yaml': 'apiVersion: gwops/v1\nkind: back-end-group\nname: ctl\nattributes:\n  "la\\0bels": [x]\n' });
    expect(r.diagnostics.filter((d) => d.code === 'control-character').map(where)).toEqual(['ctl.yaml:5:3 control-character']);
    expect(r.diagnostics.find((d) => d.code === 'control-character')?.message).toContain('in a key');
  });

  it('allows tab, line feed and carriage return, and text that only looks like an escape', async () => {
    for (const value of ['"a\\tb\\r\\nc"', '"a\tb"', "'a\\0b'", 'a\\x01b', '"a\\\\0b"', '"\\u00e9\\x41"']) {
      const r = await load({ 'ok.yaml': bg(value) });
      expect(r.diagnostics, value).toEqual([]);
    }
  });

  it('refuses them in values read from stdin and in the project file', async () => {
    const stdin = await load({}, { paths: ['-'], stdin: bg('"\\x07"') });
    expect(stdin.diagnostics.map(where)).toEqual(['-:5:46 control-character']);
    const dir = project({ 'gwops.yaml': 'manifests: ["m\\0"]\n' });
    expect(() => loadProject(dir)).toThrow(/gwops\.yaml:1:13: control character U\+0000 in a value/);
  });
});
