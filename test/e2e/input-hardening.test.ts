/**
 * Hostile or damaged manifests through the real CLI: a "billion laughs" file, bytes that are
 * not UTF-8, a NUL byte in a value. `validate`, `plan` and `apply --yes` each stop at once
 * with exit 1 and the file:line:column of the problem (on stdout for validate, whose report
 * it is; on stderr for plan and apply), and send nothing to the gateway.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useHarness, writeManifests } from './harness.js';

/** Generous for a slow shared machine: the checks take milliseconds (the bugs took forever). */
const LIMIT_MS = 5000;

const backendGroup = (hostName: string): string =>
  `apiVersion: gwops/v1\nkind: back-end-group\nname: hardening\nattributes:\n  backendHosts: [{ protocol: HTTP, hostName: ${hostName}, port: 8080 }]\n`;

/** About 1 KB: ten levels of nine references each, 9^10 values written out. */
function billionLaughs(): string {
  const names = 'abcdefghij';
  let text = backendGroup('app.internal') + '  expertSettings:\n';
  text += `    a0: &a [${Array(9).fill('lol').join(',')}]\n`;
  for (let i = 1; i < names.length; i++) {
    text += `    ${names[i]}${i}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(',')}]\n`;
  }
  return text;
}

/** `hostName: a<0xFF>b`: the bad byte is at line 5, column 47. */
const invalidUtf8 = Buffer.concat([Buffer.from(backendGroup('a<>b').split('<>')[0] ?? ''), Buffer.from([0xff]), Buffer.from(backendGroup('a<>b').split('<>')[1] ?? '')]);

const CASES: { name: string; content: string | Buffer; at: RegExp; says: RegExp }[] = [
  { name: 'billion-laughs', content: billionLaughs(), at: /^m\.yaml:\d+:\d+: error: .*too many alias references/m, says: /use `extends` templates/ },
  { name: 'invalid-utf8', content: invalidUtf8, at: /^m\.yaml:5:47: error: /m, says: /not valid UTF-8/ },
  { name: 'nul-byte', content: backendGroup('"a\0b"'), at: /^m\.yaml:5:46: error: /m, says: /control character U\+0000 in a value/ },
];

describe('hostile or damaged manifests stop every command before any request', () => {
  const t = useHarness();
  const folders = new Map<string, string>();
  beforeAll(async () => {
    for (const c of CASES) {
      const folder = await writeManifests(t.h, c.name, {});
      await writeFile(join(folder, 'm.yaml'), c.content); // bytes as they are
      folders.set(c.name, folder);
    }
    folders.set('valid', await writeManifests(t.h, 'valid', { 'm.yaml': backendGroup('ab') }));
  });

  it('the same manifest without the damage is valid', async () => {
    const r = await t.h.cli(['validate', 'm.yaml'], { cwd: folders.get('valid') });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  for (const c of CASES) {
    for (const command of [['validate'], ['plan'], ['apply', '--yes']]) {
      it(`${command.join(' ')} refuses ${c.name} with exit 1 at file:line:column, sending nothing`, async () => {
        const connection = command[0] === 'validate' ? [] : t.h.connection;
        t.h.emulator.requestLog.length = 0;
        const started = performance.now();
        const r = await t.h.cli([...command, 'm.yaml', ...connection], { cwd: folders.get(c.name) });
        expect(performance.now() - started).toBeLessThan(LIMIT_MS);
        expect(r.code).toBe(1);
        // validate's report is its output (stdout); plan and apply report on stderr.
        const report = command[0] === 'validate' ? r.stdout : r.stderr;
        expect(report).toMatch(c.at);
        expect(report).toMatch(c.says);
        expect(t.h.emulator.requestLog).toEqual([]);
      });
    }
  }
});
