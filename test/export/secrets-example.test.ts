/**
 * `secrets.env.example` is sourced by bash (`set -a; . ./secrets.env`, the adoption guide)
 * once its copy is filled in the way its header says: each value between the single quotes,
 * over several lines when it has them (a PEM), a `'` inside written as `'\''`. For every
 * object name and every value (a PEM, quotes, `$(...)`, backticks, line breaks), sourcing
 * runs no command, prints no error and sets each variable to exactly that value.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { SecretVariable } from '../../src/export/index.js';
import { renderSecretsExample } from '../../src/export/index.js';
import { secretEnvName } from '../../src/export/names.js';

const dir = mkdtempSync(join(tmpdir(), 'gwops-secrets-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A command that leaves a trace when bash runs it. */
const CANARY = join(dir, 'ran');
const HOSTILE = [`$(touch ${CANARY})`, `\`touch ${CANARY}\``, `'; touch ${CANARY}; '`, `"\ntouch ${CANARY}\n`, '\\', '$HOME', '!!', "it's", '\r\n', ' leading and trailing '];
const PEM = `-----BEGIN PRIVATE KEY-----\n${'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7'.repeat(2)}\nab+/=\n-----END PRIVATE KEY-----\n`;

/** Fills each `NAME=''` of the file as its header says. */
function fill(example: string, values: ReadonlyMap<string, string>): string {
  return example.replace(/^([A-Z0-9_]+)=''$/gm, (line, name: string) => {
    const value = values.get(name);
    return value === undefined ? line : `${name}='${value.replace(/'/g, `'\\''`)}'`;
  });
}

/** Sources `file` with `set -a` in bash and returns each variable's value as bash sees it. */
function source(file: string, names: readonly string[]): { status: number | null; stderr: string; values: string[] } {
  const script = `set -a; . "$1" || exit 9; shift; for v in "$@"; do printf '%s\\0' "\${!v}"; done`;
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', script, 'bash', file, ...names], { encoding: 'utf8', env: { PATH: process.env.PATH, LC_ALL: 'C' } });
  return { status: r.status, stderr: r.stderr, values: r.stdout.split('\0').slice(0, -1) };
}

const secret = (name: string, attribute: string, writeOnly = false): SecretVariable => ({
  variable: secretEnvName('ssl-certificate', name, attribute.split('.')),
  kind: 'ssl-certificate',
  name,
  attribute,
  writeOnly,
});

describe('secrets.env.example is safe to source in bash', () => {
  it('unfilled: sourcing runs nothing and sets every variable empty, whatever the object names', () => {
    const secrets = HOSTILE.map((name) => secret(`x${name}`, 'privateKey'));
    const file = join(dir, 'unfilled.env');
    writeFileSync(file, renderSecretsExample(secrets));
    const r = source(file, secrets.map((s) => s.variable));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.values).toEqual(secrets.map(() => ''));
    expect(existsSync(CANARY)).toBe(false);
  });

  it('filled as the header says: a PEM and hostile values round-trip exactly', () => {
    const secrets = [secret('shop-tls', 'privateKey'), secret('shop-tls', 'passphrase', true), ...HOSTILE.map((_, i) => secret(`hostile-${i}`, 'passphrase', true))];
    const values = new Map<string, string>([
      [secrets[0]?.variable ?? '', PEM],
      [secrets[1]?.variable ?? '', ''],
      ...HOSTILE.map((v, i): [string, string] => [secrets[i + 2]?.variable ?? '', v]),
    ]);
    const file = join(dir, 'filled.env');
    writeFileSync(file, fill(renderSecretsExample(secrets), values));
    const r = source(file, secrets.map((s) => s.variable));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.values).toEqual(secrets.map((s) => values.get(s.variable)));
    expect(existsSync(CANARY)).toBe(false);
  });

  it('for any object names and any values (no NUL, which no environment variable can hold)', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 }).map((s) => s.replace(/\0/g, ''));
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(text, text), { minLength: 1, maxLength: 6, selector: ([name]) => secretEnvName('ssl-certificate', `n${name}`, ['privateKey']) }), (pairs) => {
        const secrets = pairs.map(([name]) => secret(`n${name}`, 'privateKey'));
        const values = new Map(pairs.map(([, value], i): [string, string] => [secrets[i]?.variable ?? '', value]));
        const file = join(dir, 'property.env');
        writeFileSync(file, fill(renderSecretsExample(secrets), values));
        const r = source(file, secrets.map((s) => s.variable));
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
        expect(r.values).toEqual(secrets.map((s) => values.get(s.variable)));
      }),
      { numRuns: 12, seed: 20261125 },
    );
    expect(existsSync(CANARY)).toBe(false);
  });
});
