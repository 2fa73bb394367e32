/**
 * A gateway whose 400 error detail echoes the request body (`cannot parse {…body…}`):
 * the body carries the certificate's private key and passphrase, and no output of
 * plan (text, markdown, json, --out) or apply may show them.
 *
 * A small proxy in front of the (plain-HTTP) emulator answers every resource POST and
 * PATCH with such an error instead of forwarding it; everything else is forwarded.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SENSITIVE_MASK } from '../../src/engine/plan-types.js';
import type { Interception, InterceptingProxy, ProxiedCall } from '../support/proxy.js';
import { startInterceptingProxy } from '../support/proxy.js';
import type { CliResult } from './harness.js';
import { useHarness, writeManifests } from './harness.js';

/** Quote, backslash and slash: its JSON-escaped form differs from the value. */
const PASSPHRASE = 'pa"ss\\phrase/Zq8-echoed';

const MANIFEST = `apiVersion: gwops/v1
kind: ssl-certificate
name: echo-tls
attributes:
  passphrase: { fromEnv: GWOPS_ECHO_PASSPHRASE }
  privateKey: { fromEnv: GWOPS_ECHO_KEY }
  certType: SERVER_CERT
  certificate: { fromEnv: GWOPS_ECHO_CERT_NOT_A_SECRET }
`;

/** Forwards to the emulator, except resource POST/PATCH: 400 with the request body echoed in the detail. */
function echoBody(call: ProxiedCall): Interception | undefined {
  const resourceWrite = (call.method === 'POST' || call.method === 'PATCH') && /^\/configuration\/(?!configurations\/)[^/]+(\/[^/]+)?$/.test(call.path);
  if (!resourceWrite) return undefined;
  const detail = `cannot parse ${call.body}`;
  return { reply: { status: 400, body: JSON.stringify({ errors: [{ code: 'INVALID_VALUE', status: '400', title: 'Bad request', detail }] }) } };
}

describe('a gateway error that echoes the request body shows no secret', () => {
  const t = useHarness({ tls: false });
  let proxy: InterceptingProxy;
  let manifests: string;
  let privateKey: string;
  let connection: string[];
  const results: CliResult[] = [];
  const files: string[] = [];

  beforeAll(async () => {
    proxy = await startInterceptingProxy(t.h.emulator.url, echoBody);
    const now = new Date();
    const pems = await generate([{ name: 'commonName', value: 'echo.example.com' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      notBeforeDate: new Date(now.getTime() - 60_000),
      notAfterDate: new Date(now.getTime() + 365 * 24 * 3600 * 1000),
    });
    privateKey = pems.private;
    const certificate = pems.cert;
    // The certificate is no secret: written into the manifest as a block scalar.
    const indented = certificate.trimEnd().split('\n').map((l) => `    ${l}`).join('\n');
    manifests = await writeManifests(t.h, 'echo', {
      'cert.yaml': MANIFEST.replace('certificate: { fromEnv: GWOPS_ECHO_CERT_NOT_A_SECRET }', `certificate: |\n${indented}`),
    });
    t.h.env = { ...t.h.env, GWOPS_ECHO_PASSPHRASE: PASSPHRASE, GWOPS_ECHO_KEY: privateKey };
    const keyFile = t.h.connection[t.h.connection.indexOf('--api-key-file') + 1] ?? '';
    connection = ['--url', proxy.url, '--api-key-file', keyFile];
  });

  afterAll(async () => {
    await proxy.close();
    // Everything together once more: every output and every plan file written.
    const written = await Promise.all(files.filter((f) => existsSync(f)).map((f) => readFile(f, 'utf8')));
    expectNoSecret([...results.flatMap((r) => [r.stdout, r.stderr]), ...written].join('\n'));
  });

  /** Every form the passphrase may take in an output: plain, JSON-escaped, and pieces of it. */
  const passphraseForms = [PASSPHRASE, JSON.stringify(PASSPHRASE).slice(1, -1), 'pa"ss', 'phrase/Zq8'];
  const expectNoSecret = (text: string): void => {
    for (const form of passphraseForms) expect(text.includes(form), `passphrase form ${JSON.stringify(form)} leaked`).toBe(false);
    for (const line of privateKey.split('\n').filter((l) => l !== '' && !l.startsWith('-----'))) {
      expect(text.includes(line), 'a line of the private key leaked').toBe(false);
    }
    expect(text).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
  };

  const run = async (args: readonly string[]): Promise<CliResult> => {
    const echoed = (): number => proxy.calls.filter((c) => echoBody(c) !== undefined).length;
    const before = echoed();
    const r = await t.h.cli(args);
    results.push(r);
    expectNoSecret(r.stdout);
    expectNoSecret(r.stderr);
    expect(echoed(), 'the gateway echoed the request body').toBeGreaterThan(before);
    expect(r.code).toBe(1);
    // The failure is still explained: call, status, code and a bounded part of the detail.
    expect(r.stderr).toContain('400 INVALID_VALUE: cannot parse');
    expect(r.stderr).toContain('[redacted');
    return r;
  };

  it('plan (text) prints the echoed error without the passphrase or the private key', async () => {
    const r = await run(['plan', manifests, ...connection]);
    // The echoed detail is cut to a bounded length.
    expect(r.stderr).toMatch(/characters omitted/);
  });

  it('plan --format markdown', async () => {
    await run(['plan', manifests, ...connection, '--format', 'markdown']);
  });

  it('plan --format json --out fails without writing a plan file, so the secrets land in none', async () => {
    const out = join(t.h.dir, 'echo-plan.json');
    const r = await run(['plan', manifests, ...connection, '--format', 'json', '--out', out]);
    expect(existsSync(out), 'a failed plan leaves no plan file').toBe(false);
    // The plan still goes to stdout: both secrets are in the create body, masked there.
    const plan = JSON.parse(r.stdout) as { steps: { secretPaths?: string[]; body?: { data: { attributes: Record<string, unknown> } } }[] };
    expect(plan.steps.map((s) => s.secretPaths)).toEqual([['/data/attributes/passphrase', '/data/attributes/privateKey']]);
    expect(plan.steps[0]?.body?.data.attributes).toMatchObject({ passphrase: SENSITIVE_MASK, privateKey: SENSITIVE_MASK });
  });

  it('plan --no-server-check --out writes a plan file without the secrets', async () => {
    const out = join(t.h.dir, 'echo-plan-unchecked.json');
    files.push(out);
    const r = await t.h.cli(['plan', manifests, ...connection, '--format', 'json', '--no-server-check', '--out', out]);
    results.push(r);
    expect(r.code).toBe(0);
    expect(existsSync(out)).toBe(true);
    expectNoSecret(await readFile(out, 'utf8'));
  });

  it('apply --yes prints the echoed error without the passphrase or the private key', async () => {
    const before = JSON.stringify(t.h.emulator.activeSnapshot());
    await run(['apply', manifests, ...connection, '--yes']);
    expect(JSON.stringify(t.h.emulator.activeSnapshot())).toBe(before);
  });
});
