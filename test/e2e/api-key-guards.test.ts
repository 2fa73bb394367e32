/**
 * Where an API key may go, end to end: a key that belongs to a target goes only to that
 * target's URL (`--target` with another `--url` is refused before anything is sent), and
 * an expired key (a JWT whose `exp` has passed) is named as expired before connecting,
 * while the emulator refuses it with 401 as a gateway would. Keys that are not JWTs keep
 * working.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { useHarness, writeManifests } from './harness.js';

const GROUP = (name: string): string =>
  `apiVersion: gwops/v1\nkind: back-end-group\nname: ${name}\nattributes:\n  backendHosts:\n    - { hostName: ${name}.internal, port: 8080 }\n`;

/** A JWT-shaped key (unsigned payload, random-looking signature) with the given `exp` (seconds). */
function jwtKey(exp: number, sub = 'ci'): string {
  const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub, exp })}.${Buffer.from(`signature-of-${sub}-${exp}`).toString('base64url')}`;
}

/** A plain-HTTP loopback server that records the headers of every request it gets. */
async function recorder(): Promise<{ url: string; seen: IncomingHttpHeaders[]; server: Server }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"errors":[{"status":"401"}]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/airlock/rest`, seen, server };
}

describe('a target key goes only to its own URL', () => {
  const t = useHarness();
  let other: Awaited<ReturnType<typeof recorder>>;
  let project = '';
  beforeAll(async () => {
    other = await recorder();
    const dir = await writeManifests(t.h, 'target-url', { 'group.yaml': GROUP('target-url') });
    await writeFile(join(dir, 'prod.key'), `${t.h.emulator.apiKey}\n`);
    await writeFile(join(dir, 'ca.pem'), t.h.emulator.caCertificate ?? '');
    project = join(dir, 'gwops.yaml');
    await writeFile(project, `manifests: [group.yaml]\ntargets:\n  production:\n    url: ${t.h.emulator.url}\n    apiKeyFile: prod.key\n    caFile: ca.pem\n`);
  });
  afterAll(async () => {
    await new Promise((resolve) => other.server.close(resolve));
  });

  it('--target production --url http://other is refused, naming both URLs, and the other host gets no request', async () => {
    const r = await t.h.cli(['plan', '--config', project, '--target', 'production', '--url', other.url, '--no-server-check']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`--url ${other.url}`);
    expect(r.stderr).toContain(`target 'production' (${t.h.emulator.url})`);
    expect(other.seen).toEqual([]);
    expect(r.stderr + r.stdout).not.toContain(t.h.emulator.apiKey);
  });

  it("--target with --url that is the target's own URL (trailing slash aside) works", async () => {
    const r = await t.h.cli(['plan', '--config', project, '--target', 'production', '--url', `${t.h.emulator.url}/`, '--no-server-check']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('back-end-group "target-url" will be created');
  });
});

describe('an expired API key', () => {
  const t = useHarness();
  const expiredAt = Date.UTC(2025, 0, 31, 12, 0, 0) / 1000;
  const expired = jwtKey(expiredAt, 'expired-ci');
  let emulator: RunningEmulator;
  let manifests = '';
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, variant: 'latest', tls: false, apiKey: expired, readOnlyApiKey: 'opaque-read-only-key-0123456789' });
    // The harness scans every output for its secrets after the suite: the expired key too.
    (t.h.secrets as string[]).push(expired);
    manifests = await writeManifests(t.h, 'expired', { 'group.yaml': GROUP('expired') });
    await writeFile(join(t.h.dir, 'expired.key'), `${expired}\n`);
    await writeFile(join(t.h.dir, 'opaque.key'), 'opaque-read-only-key-0123456789\n');
  });
  afterAll(async () => {
    expect(emulator.openSessionCount()).toBe(0);
    await emulator.close();
  });

  it('gwops says before connecting that the key expired, and on which date, never printing it', async () => {
    const r = await t.h.cli(['plan', manifests, '--url', emulator.url, '--api-key-file', join(t.h.dir, 'expired.key'), '--no-server-check']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('expired on 2025-01-31T12:00:00Z');
    expect(r.stderr).toContain(`--api-key-file (${join(t.h.dir, 'expired.key')})`);
    expect(r.stderr + r.stdout).not.toContain(expired);
    expect(emulator.requestLog).toEqual([]);
  });

  it('the emulator refuses an expired key with 401, as a gateway does', async () => {
    const reply = await fetch(`${emulator.url}/session/create`, { method: 'POST', headers: { authorization: `Bearer ${expired}` } });
    expect(reply.status).toBe(401);
    expect(await reply.text()).toContain('expired');
  });

  it('a key that is not a JWT keeps working', async () => {
    const r = await t.h.cli(['plan', manifests, '--url', emulator.url, '--api-key-file', join(t.h.dir, 'opaque.key'), '--no-server-check']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('back-end-group "expired" will be created');
  });
});
