/**
 * What a newcomer meets in the first hour, end to end against the emulator: diagnoses that
 * name the cause of a wrong URL, CA or key; a failed run in a few lines; one JSON document
 * on stdout with --format json; empty input refused; and the conventions people type
 * without thinking (-y, --no-color, FORCE_COLOR, gwops version, --api-key, ownership).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { selfSignedCertificate, startEmulator } from '../../src/emulator/index.js';
import { useHarness, writeManifests } from './harness.js';

const GROUP = (name: string, port = 8080): string =>
  `apiVersion: gwops/v1\nkind: back-end-group\nname: ${name}\nattributes:\n  backendHosts:\n    - { hostName: ${name}.internal, port: ${port} }\n`;

describe('diagnoses that name the cause', () => {
  const t = useHarness();
  let plain: RunningEmulator;
  let manifests = '';
  beforeAll(async () => {
    plain = await startEmulator({ port: 0, variant: 'latest', tls: false });
    manifests = await writeManifests(t.h, 'diagnoses', { 'group.yaml': GROUP('diagnosed') });
  });
  afterAll(async () => {
    expect(plain.openSessionCount()).toBe(0);
    await plain.close();
  });
  const keyFile = (): string => t.h.connection[3] ?? '';
  const caFile = (): string => t.h.connection[5] ?? '';
  const origin = (): string => new URL(t.h.emulator.url).origin;
  const host = (): string => new URL(t.h.emulator.url).host;

  it('https:// to a plain-HTTP gateway: the server does not speak TLS, did you mean http://', async () => {
    const url = plain.url.replace('http://', 'https://');
    await writeFile(join(t.h.dir, 'plain-key'), plain.apiKey);
    const r = await t.h.cli(['plan', manifests, '--url', url, '--api-key-file', join(t.h.dir, 'plain-key'), '--no-server-check']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`does not speak TLS`);
    expect(r.stderr).toContain(`did you mean ${plain.url}?`);
    expect(r.stderr).not.toContain('--ca-file');
    expect(plain.requestLog).toEqual([]);
  });

  it('http:// to an HTTPS gateway: the server closed the connection and expects https://, after one attempt', async () => {
    const r = await t.h.cli(['plan', manifests, '--url', t.h.emulator.url.replace('https://', 'http://'), '--api-key-file', keyFile()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('closed the connection');
    expect(r.stderr).toContain(`expects ${t.h.emulator.url}`);
    expect(r.stderr).not.toContain('attempts');
  });

  it('--ca-file with the wrong CA: not signed by the CA in that file, naming the certificate\'s issuer and the file\'s CA', async () => {
    const other = join(t.h.dir, 'other-ca.pem');
    await writeFile(other, (await selfSignedCertificate('other-ca.example')).cert);
    const r = await t.h.cli(['plan', manifests, '--url', t.h.emulator.url, '--api-key-file', keyFile(), '--ca-file', other]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the TLS certificate of ${origin()} (issued by CN=`);
    expect(r.stderr).toContain(`is not signed by the CA in ${other} (CN=`);
    expect(r.stderr).not.toContain('add the issuing CA');
  });

  it('an unresolvable host: host not found, with the host, not retried', async () => {
    const r = await t.h.cli(['plan', manifests, '--url', 'https://no-such-gateway.invalid/airlock/rest', '--api-key-file', keyFile()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/host not found: no-such-gateway\.invalid/);
    expect(r.stderr).not.toContain('attempts');
  });

  it('a URL without the API base path: it must end in the base path, with an example on this host', async () => {
    const r = await t.h.cli(['plan', manifests, '--url', origin(), '--api-key-file', keyFile(), '--ca-file', caFile()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`must end in the API's base path, e.g. https://${host()}/airlock/rest`);
  });

  it("a URL past the base path: the gateway's own message", async () => {
    const r = await t.h.cli(['plan', manifests, '--url', `${t.h.emulator.url}/configuration`, '--api-key-file', keyFile(), '--ca-file', caFile()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("401 UNAUTHORIZED: no valid session: create one with POST /session/create (the gateway's message)");
    expect(r.stderr).toContain("does not end in the API's base path");
  });

  it("a read-only key during plan's server check: the plan from what was read, then the hint to --no-server-check", async () => {
    const readOnly = join(t.h.dir, 'read-only-key');
    await writeFile(readOnly, t.h.emulator.readOnlyApiKey);
    const r = await t.h.cli(['plan', manifests, '--url', t.h.emulator.url, '--api-key-file', readOnly, '--ca-file', caFile()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('+ back-end-group "diagnosed"');
    expect(r.stdout).toMatch(/Plan: 1 to create/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('the API key may not write');
    expect(r.stderr).toContain('use --no-server-check for a read-only preview');
    const preview = await t.h.cli(['plan', manifests, '--url', t.h.emulator.url, '--api-key-file', readOnly, '--ca-file', caFile(), '--no-server-check']);
    expect(preview.code).toBe(0);
    expect(preview.stdout).toMatch(/Plan: 1 to create/);
  });
});

describe('a failed run reads in a few lines', () => {
  const t = useHarness();

  it('prints the failed step and its error, the counts and the outcome once; --verbose lists every step', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`g${i}.yaml`] = GROUP(`few-lines-${String(i).padStart(2, '0')}`);
    const manifests = await writeManifests(t.h, 'few-lines', files);
    t.h.emulator.faults.add({ method: 'POST', path: '/configuration/back-end-groups', status: 500, nth: 11 });
    const r = await t.h.cli(['apply', '--yes', manifests, ...t.h.connection]);
    t.h.emulator.faults.clear();
    expect(r.code).toBe(1);
    const lines = r.stderr.trim().split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('Steps: 10 applied (in the session, then discarded with it), 1 failed, 19 skipped; --verbose lists every step.');
    expect(lines[1]).toMatch(/^Error: step 11 \(create back-end-group 'few-lines-10'\) failed: .*500 INJECTED_FAULT.*; nothing was activated and the session was terminated$/);
    expect(r.stderr.match(/nothing was activated/g)).toHaveLength(1);

    t.h.emulator.faults.add({ method: 'POST', path: '/configuration/back-end-groups', status: 500, nth: 11 });
    const verbose = await t.h.cli(['apply', '--yes', '--verbose', manifests, ...t.h.connection]);
    t.h.emulator.faults.clear();
    expect(verbose.code).toBe(1);
    expect(verbose.stderr.match(/^ +\d+ (applied|failed|skipped) /gm)).toHaveLength(30);
    expect(verbose.stderr.match(/nothing was activated/g)).toHaveLength(1);
  });
});

describe('output contracts: one JSON document on stdout with --format json', () => {
  const t = useHarness();

  it('every command with --format json writes exactly one JSON document, human text on stderr', async () => {
    const manifests = await writeManifests(t.h, 'contract', { 'group.yaml': GROUP('contract') });
    const runs: [string, readonly string[]][] = [
      ['validate', ['validate', manifests, '--format', 'json']],
      ['plan', ['plan', manifests, ...t.h.connection, '--format', 'json']],
      ['apply', ['apply', '--yes', manifests, ...t.h.connection, '--format', 'json']],
      ['apply (no changes)', ['apply', '--yes', manifests, ...t.h.connection, '--format', 'json']],
      ['drift', ['drift', manifests, ...t.h.connection, '--format', 'json']],
      ['history', ['history', ...t.h.connection, '--format', 'json']],
      ['targets', ['targets', '--config', join(t.h.dir, 'contract-project.yaml'), '--format', 'json']],
      ['export', ['export', ...t.h.connection, '--out', join(t.h.dir, 'contract-export'), '--format', 'json']],
      ['schema', ['schema', 'back-end-group']],
    ];
    await writeFile(join(t.h.dir, 'contract-project.yaml'), `manifests: [contract]\ntargets:\n  one: { url: '${t.h.emulator.url}' }\n`);
    for (const [name, args] of runs) {
      const r = await t.h.cli(args);
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      expect(() => JSON.parse(r.stdout) as unknown, `${name} stdout is one JSON document`).not.toThrow();
    }
    const apply = await t.h.cli(['apply', '--yes', await writeManifests(t.h, 'contract-2', { 'group.yaml': GROUP('contract', 9090) }), ...t.h.connection, '--format', 'json']);
    const document = JSON.parse(apply.stdout) as { outcome: { result: string; configuration?: string }; steps: unknown[] };
    expect(document.outcome.result).toBe('activated');
    expect(document.steps).toHaveLength(1);
    expect(apply.stdout).not.toContain('Apply complete');
    expect(apply.stderr).toContain('Apply complete');
  });

  it('the other formats: the data on stdout in that format, nothing of it on stderr', async () => {
    const manifests = await writeManifests(t.h, 'contract-formats', { 'group.yaml': GROUP('contract-formats') });
    const markdown = await t.h.cli(['plan', manifests, ...t.h.connection, '--format', 'markdown']);
    expect(markdown.stdout.startsWith('<!-- gwops-plan -->\n')).toBe(true);
    expect(markdown.stderr).toBe('');
    const text = await t.h.cli(['drift', manifests, ...t.h.connection]);
    expect(text.code).toBe(2);
    expect(text.stdout).toContain('Drift detected');
    // Only the one line saying why drift has no base to tell the sides apart.
    expect(text.stderr).toMatch(/^note: No base: [^\n]*\n$/);
    const bad = await writeManifests(t.h, 'contract-github', { 'bad.yaml': 'apiVersion: gwops/v1\nkind: back-end-group\nname: gh\nattributes: { nope: 1 }\n' });
    const github = await t.h.cli(['validate', bad, '--format', 'github']);
    expect(github.code).toBe(1);
    expect(github.stdout.trim().split('\n').every((l) => l.startsWith('::'))).toBe(true);
  });

  it('apply --format json that the validator rejects still writes one document, with the messages and the outcome', async () => {
    const manifests = await writeManifests(t.h, 'contract-rejected', {
      'mapping.yaml': 'apiVersion: gwops/v1\nkind: mapping\nname: contract-orphan\nattributes:\n  entryPath: { value: /orphan/ }\n',
    });
    const r = await t.h.cli(['apply', '--yes', manifests, ...t.h.connection, '--format', 'json']);
    expect(r.code).toBe(3);
    const document = JSON.parse(r.stdout) as { outcome: { result: string }; diagnostics: { severity: string }[] };
    expect(document.outcome.result).toBe('failed');
    expect(document.diagnostics.some((d) => d.severity === 'error')).toBe(true);
  });

  it("changing one back-end host's port shows that port and nothing else", async () => {
    const first = await writeManifests(t.h, 'port-1', { 'group.yaml': GROUP('port-change', 8080) });
    expect((await t.h.cli(['apply', '--yes', first, ...t.h.connection])).code).toBe(0);
    const second = await writeManifests(t.h, 'port-2', { 'group.yaml': GROUP('port-change', 8081) });
    const r = await t.h.cli(['plan', second, ...t.h.connection, '--no-server-check']);
    const changed = r.stdout.split('\n').filter((l) => /^\s+[-+] /.test(l));
    expect(changed.map((l) => l.trim().replace(/\s+/g, ' '))).toEqual(['- "port": 8080,', '+ "port": 8081,']);
  });
});

describe('empty input is an error', () => {
  const t = useHarness();

  it('validate, plan and apply exit 1 naming the paths; --allow-empty allows it', async () => {
    const empty = await writeManifests(t.h, 'empty', { 'notes.yaml': '# nothing declared yet\n' });
    for (const args of [['validate', empty], ['plan', empty, ...t.h.connection], ['apply', '--yes', empty, ...t.h.connection]]) {
      const r = await t.h.cli(args);
      expect(r.code, args[0]).toBe(1);
      expect(r.stderr, args[0]).toContain(`no manifest documents in '${empty}'`);
      expect(r.stderr, args[0]).toContain('--allow-empty');
    }
    expect(t.h.emulator.requestLog.filter((e) => e.path.includes('session/create'))).toEqual([]);
    const validate = await t.h.cli(['validate', empty, '--allow-empty']);
    expect(validate.code).toBe(0);
    const plan = await t.h.cli(['plan', empty, ...t.h.connection, '--allow-empty']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes');
  });
});

describe('conventions people type without thinking', () => {
  const t = useHarness();

  it('-y is --yes', async () => {
    const manifests = await writeManifests(t.h, 'short-yes', { 'group.yaml': GROUP('short-yes') });
    const r = await t.h.cli(['apply', '-y', manifests, ...t.h.connection]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Apply complete');
  });

  it('gwops version prints what --version prints', async () => {
    const version = await t.h.cli(['version']);
    const flag = await t.h.cli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    expect(version.stdout).toBe(flag.stdout);
  });

  it('--api-key VALUE is refused with one line pointing to GWOPS_API_KEY and --api-key-file, never echoing the value', async () => {
    for (const args of [['plan', '--api-key', 'secret-typed-key'], ['drift', '--api-key=secret-typed-key']]) {
      const r = await t.h.cli(args);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('GWOPS_API_KEY');
      expect(r.stderr).toContain('--api-key-file');
      expect(r.stdout + r.stderr).not.toContain('secret-typed-key');
      expect(r.stderr).not.toContain('Usage:');
    }
  });

  it('colours follow FORCE_COLOR, --no-color and NO_COLOR', async () => {
    const bad = await writeManifests(t.h, 'colours', { 'bad.yaml': 'apiVersion: gwops/v1\nkind: back-end-group\nname: colours\nattributes: { nope: 1 }\n' });
    const ESC = '\x1b[';
    const forced = await t.h.cli(['validate', bad], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain(ESC);
    const plain = await t.h.cli(['validate', bad]);
    expect(plain.stdout).not.toContain(ESC);
    const off = await t.h.cli(['validate', bad, '--no-color'], { env: { FORCE_COLOR: '0' } });
    expect(off.stdout).not.toContain(ESC);
  });

  it('a malformed ownership filter gets one message with an example', async () => {
    const dir = await writeManifests(t.h, 'ownership', { 'group.yaml': GROUP('ownership') });
    const project = join(dir, 'gwops.yaml');
    for (const ownership of ["  mapping: ['label']", '  mapping: [{ label: x }]', '  mapping: 42']) {
      await writeFile(project, `manifests: [.]\nownership:\n${ownership}\n`);
      const r = await t.h.cli(['validate', '--config', project]);
      expect(r.code).toBe(1);
      // In validate's report, with the manifests' problems.
      const problems = r.stdout.split('\n').filter((l) => /gwops\.yaml:\d+:\d+:/.test(l));
      expect(problems, ownership).toHaveLength(1);
      expect(problems[0]).toContain("'ownership.mapping'");
      expect(problems[0]).toContain("e.g. ownership: { mapping: ['label==managed-by-gwops']");
    }
  });
});
