/**
 * `gwops validate` and `gwops schema` through commander, with captured output, and the
 * three diagnostic formats.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerSchema } from '../../src/cli/commands/schema/command.js';
import { registerValidate } from '../../src/cli/commands/validate/command.js';
import { exitCodeFor } from '../../src/cli/exit.js';
import { objectDiagnostic } from '../../src/core/diagnostics.js';
import { diagnosticJson } from '../../src/core/diagnostics-format.js';
import { formatDiagnostics, sortDiagnostics } from '../../src/manifest/index.js';
import type { Diagnostic } from '../../src/manifest/index.js';
import { project } from './fixture.js';
import { captureIO } from './helpers.js';
import { pemPrivateKey } from '../support/private-keys.js';

async function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  const io = captureIO(cwd, env);
  let code = 0;
  const program = new Command('gwops').exitOverride().configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  registerValidate(program, io, (c) => (code = c));
  registerSchema(program, io, (c) => (code = c));
  for (const c of program.commands) c.exitOverride();
  try {
    await program.parseAsync(['node', 'gwops', ...args]);
  } catch (error) {
    code = exitCodeFor(error, io);
  }
  return { code, out: io.out(), err: io.err() };
}

const VALID = 'apiVersion: gwops/v1\nkind: back-end-group\nname: a\n';
const BROKEN = 'apiVersion: gwops/v1\nkind: back-end-group\nname: b\nattributes:\n  tenantt: x\n';
const WARNING = 'apiVersion: gwops/v1\nkind: ssl-certificate\nname: c\nattributes:\n  passphrase: not-for-output\n';

describe('gwops validate', () => {
  it('exits 0 and says so when the manifests are valid', async () => {
    const dir = project({ 'a.yaml': VALID });
    const r = await run(['validate', 'a.yaml'], dir);
    expect(r).toEqual({ code: 0, out: '1 document valid (variant latest)\n', err: '' });
  });

  it('exits 1 and prints every problem as file:line:col', async () => {
    const dir = project({ 'a.yaml': VALID, 'b.yaml': BROKEN, 'c.yaml': WARNING });
    const r = await run(['validate', '.'], dir);
    expect(r.code).toBe(1);
    expect(r.out).toBe(
      "b.yaml:5:3: error: unknown attribute 'tenantt' in back-end-group 'b': did you mean 'tenant'? [unknown-attribute]\n" +
        "c.yaml:5:15: warning: secret 'passphrase' of ssl-certificate 'c' is written in the manifest: use { fromEnv: NAME } or { fromFile: path } [literal-secret]\n" +
        '1 error, 1 warning\n',
    );
    expect(r.out).not.toContain('not-for-output');
  });

  it('exits 0 with warnings only', async () => {
    const dir = project({ 'c.yaml': WARNING });
    expect((await run(['validate', 'c.yaml'], dir)).code).toBe(0);
  });

  it('prints the json format with formatVersion', async () => {
    const dir = project({ 'b.yaml': BROKEN });
    const r = await run(['validate', '--format', 'json', 'b.yaml'], dir);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toEqual({
      formatVersion: '1.0',
      valid: false,
      errorCount: 1,
      warningCount: 0,
      diagnostics: [
        {
          severity: 'error',
          code: 'unknown-attribute',
          file: 'b.yaml',
          line: 5,
          column: 3,
          pointer: '/attributes/tenantt',
          message: "unknown attribute 'tenantt' in back-end-group 'b': did you mean 'tenant'?",
        },
      ],
    });
  });

  it('prints GitHub annotations', async () => {
    const dir = project({ 'b.yaml': BROKEN });
    const r = await run(['validate', '--format=github', 'b.yaml'], dir);
    expect(r.out).toBe(
      "::error file=b.yaml,line=5,col=3,title=unknown-attribute::unknown attribute 'tenantt' in back-end-group 'b': did you mean 'tenant'?\n",
    );
  });

  it('takes --target, --variant and --config', async () => {
    const dir = project({
      'conf/project.yaml': 'manifests: [../m]\ntargets:\n  old: { url: https://old.example.com, variant: earliest }\n',
      'm/vh.yaml': 'apiVersion: gwops/v1\nkind: virtual-host\nname: v\nattributes:\n  tls: { lowStrengthCiphersAllowed: true }\n',
    });
    expect((await run(['validate', '--config', 'conf/project.yaml', '--target', 'old'], dir)).code).toBe(0);
    const latest = await run(['validate', '--config', 'conf/project.yaml', '--target', 'old', '--variant', 'latest'], dir);
    expect(latest.code).toBe(1);
    expect(latest.out).toContain('m/vh.yaml:5:10: error:');
  });

  it('reads secret sources unless --skip-secrets', async () => {
    const dir = project({ 'c.yaml': 'apiVersion: gwops/v1\nkind: ssl-certificate\nname: c\nattributes:\n  privateKey: { fromEnv: TLS_KEY }\n' });
    const strict = await run(['validate', 'c.yaml'], dir);
    expect(strict.code).toBe(1);
    expect(strict.out).toContain("c.yaml:5:15: error: secret 'privateKey' of ssl-certificate 'c': environment variable 'TLS_KEY' is not set");
    expect((await run(['validate', '--skip-secrets', 'c.yaml'], dir)).code).toBe(0);
    expect((await run(['validate', 'c.yaml'], dir, { TLS_KEY: pemPrivateKey() })).code).toBe(0);
    // A key that is no PEM private key is found offline, without showing it.
    const notPem = await run(['validate', 'c.yaml'], dir, { TLS_KEY: 'not-a-pem-key' });
    expect(notPem.code).toBe(1);
    expect(notPem.out).toContain("c.yaml:5:15: error: 'privateKey' of ssl-certificate 'c' is not a PEM private key that can be read");
    expect(notPem.out).not.toContain('not-a-pem-key');
  });

  it('exits 1 with a message for an unreadable path or a bad option value', async () => {
    const dir = project({});
    const missing = await run(['validate', 'missing.yaml'], dir);
    expect(missing).toMatchObject({ code: 1, err: "Error: cannot read 'missing.yaml': no such file or directory\n" });
    expect((await run(['validate', '--format', 'xml', '.'], dir)).code).toBe(1);
  });
});

describe('gwops schema', () => {
  it('prints a kind schema, the project schema, or the manifest schema', async () => {
    const dir = project({});
    const mapping = await run(['schema', 'mapping'], dir);
    expect(mapping.code).toBe(0);
    expect((JSON.parse(mapping.out) as { $id: string }).$id).toBe('https://gwops.dev/schemas/mapping.schema.json');
    expect((JSON.parse((await run(['schema', 'project'], dir)).out) as { $id: string }).$id).toBe('https://gwops.dev/schemas/project.schema.json');
    expect((JSON.parse((await run(['schema'], dir)).out) as { $id: string }).$id).toBe('https://gwops.dev/schemas/manifest.schema.json');
  });

  it('refuses an unknown kind with a suggestion', async () => {
    const r = await run(['schema', 'maping'], project({}));
    expect(r.code).toBe(1);
    expect(r.err).toContain("unknown schema 'maping': did you mean 'mapping'?");
  });
});

describe('formatDiagnostics', () => {
  const d = (file: string, line: number, column: number, message = 'm'): Diagnostic => ({
    severity: 'error',
    code: 'invalid-value',
    file,
    line,
    column,
    pointer: '',
    message,
  });

  it('sorts by file, line and column', () => {
    const sorted = sortDiagnostics([d('b', 1, 1), d('a', 2, 1), d('a', 1, 5), d('a', 1, 2)]);
    expect(sorted.map((x) => `${x.file}:${x.line}:${x.column}`)).toEqual(['a:1:2', 'a:1:5', 'a:2:1', 'b:1:1']);
  });

  it('escapes GitHub workflow-command characters', () => {
    expect(formatDiagnostics([d('dir,x/a:b.yaml', 1, 2, '50% done\nnext')], 'github')).toBe(
      '::error file=dir%2Cx/a%3Ab.yaml,line=1,col=2,title=invalid-value::50%25 done%0Anext\n',
    );
  });

  it('colours text only when asked', () => {
    expect(formatDiagnostics([d('a', 1, 1)], 'text')).not.toContain('\u001b[');
    expect(formatDiagnostics([d('a', 1, 1)], 'text', { color: true })).toContain('\u001b[');
    expect(formatDiagnostics([], 'text')).toBe('');
  });

  describe('diagnostics of other sources in the same forms', () => {
    // A validator message at its manifest, one about an object no manifest declares, one about nothing.
    const located = objectDiagnostic({
      code: 'MAPPING_WITHOUT_BACKEND_GROUP',
      object: { kind: 'mapping', name: 'shop' },
      source: { file: 'm.yaml', line: 7, column: 1 },
      message: "The mapping 'shop' has no back-end group.",
    });
    const unlocated = objectDiagnostic({ severity: 'warning', code: 'X', object: { kind: 'mapping', name: 'old' }, message: 'old, a, b' });
    const info: Diagnostic = { severity: 'info', code: 'validator-message', message: 'note' };
    const all = [located, unlocated, info];

    it('text: file:line:col (else the object) severity: message [code], and the counts', () => {
      expect(formatDiagnostics(all, 'text')).toBe(
        "m.yaml:7:1: error: The mapping 'shop' has no back-end group. [MAPPING_WITHOUT_BACKEND_GROUP]\n" +
          "mapping 'old': warning: old, a, b [X]\n" +
          'info: note [validator-message]\n' +
          '1 error, 1 warning, 1 info\n',
      );
    });

    it('json: the document of validate, with object and without a location where there is none', () => {
      expect(JSON.parse(formatDiagnostics(all, 'json'))).toEqual({
        formatVersion: '1.0',
        valid: false,
        errorCount: 1,
        warningCount: 1,
        diagnostics: [
          {
            severity: 'error',
            code: 'MAPPING_WITHOUT_BACKEND_GROUP',
            file: 'm.yaml',
            line: 7,
            column: 1,
            pointer: '',
            object: { kind: 'mapping', name: 'shop' },
            message: "The mapping 'shop' has no back-end group.",
          },
          { severity: 'warning', code: 'X', object: { kind: 'mapping', name: 'old' }, message: 'old, a, b' },
          { severity: 'info', code: 'validator-message', message: 'note' },
        ],
      });
      expect(Object.keys(diagnosticJson(located))).toEqual(['severity', 'code', 'file', 'line', 'column', 'pointer', 'object', 'message']);
    });

    it('github: annotations without file properties when unlocated; info is a notice', () => {
      expect(formatDiagnostics(all, 'github')).toBe(
        "::error file=m.yaml,line=7,col=1,title=MAPPING_WITHOUT_BACKEND_GROUP::The mapping 'shop' has no back-end group.\n" +
          "::warning title=X::mapping 'old': old, a, b\n" +
          '::notice title=validator-message::note\n',
      );
    });

    it('sorts located diagnostics first, keeping the order of the others', () => {
      expect(sortDiagnostics([info, unlocated, located, d('a', 1, 1)]).map((x) => x.code)).toEqual(['invalid-value', 'MAPPING_WITHOUT_BACKEND_GROUP', 'validator-message', 'X']);
    });
  });
});
