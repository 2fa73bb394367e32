/**
 * Token keys from the login application, end to end: mappings whose
 * `access.tokenVerification.jwsKey` is `{ fromJwks }` against `gwops emulator --login-app`
 * over HTTPS. Apply writes the PEM of the current key; a rotation is drift naming every
 * affected mapping with the old and the new kid; apply heals, and a token signed with the
 * new private key verifies with the PEM gwops wrote. Every error case stops before any
 * request reaches the gateway; `validate` never fetches; a JWKS named by several mappings
 * is fetched once per run.
 */
import { createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwkThumbprint } from '../../src/jwks/keys.js';
import { LOGIN_APP_JWKS_PATH } from '../../src/emulator/login-app.js';
import { useHarness, writeManifests } from './harness.js';

const mapping = (name: string, jwsKey: string, algorithm = 'RS_256'): string => `apiVersion: gwops/v1
kind: mapping
name: ${name}
attributes:
  entryPath: { value: /${name}/ }
  backendPath: /
  access:
    tokenVerification:
      signatureCheckEnforced: true
      jwsAlgorithm: ${algorithm}
      jwsKey: ${jwsKey}
relationships:
  back-end-groups: [jwks-backend]
---
`;

const BACKEND = `apiVersion: gwops/v1
kind: back-end-group
name: jwks-backend
attributes:
  backendHosts: [{ protocol: HTTP, hostName: app.internal, port: 8080 }]
`;

const MAPPINGS = ['jwks-orders', 'jwks-billing', 'jwks-profile'];

interface Snapshot {
  objects: { type: string; attributes: { name?: string; access?: { tokenVerification?: { jwsKey?: string } } } }[];
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact RS256 JWS signed with `key`. */
function signJwt(key: KeyObject, kid: string): string {
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64({ sub: 'alice', iat: 1_700_000_000 })}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/** True when the JWS verifies with the PEM public key. */
function verifies(jwt: string, pem: string): boolean {
  const [header, payload, signature] = jwt.split('.');
  return verify('sha256', Buffer.from(`${header ?? ''}.${payload ?? ''}`), pem, Buffer.from(signature ?? '', 'base64url'));
}

/** A small HTTPS server with the bodies the error cases need. */
async function startBadJwksServer(): Promise<{ server: Server; url: string; ca: string }> {
  const now = new Date();
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + 24 * 3600 * 1000),
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const rsa = (kid: string): Record<string, unknown> => ({
    ...(generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' }) as Record<string, unknown>),
    kid,
    alg: 'RS256',
  });
  const ec = { ...(generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }) as Record<string, unknown>), kid: 'ec-key' };
  const bodies: Record<string, { status: number; body: string; headers?: Record<string, string> }> = {
    '/not-a-set': { status: 200, body: JSON.stringify({ issuer: 'https://login.example.com' }) },
    '/two-rs256': { status: 200, body: JSON.stringify({ keys: [rsa('a'), rsa('b')] }) },
    '/ec': { status: 200, body: JSON.stringify({ keys: [ec] }) },
    '/moved': { status: 302, body: '', headers: { location: '/ec' } },
    '/huge': { status: 200, body: JSON.stringify({ keys: [], pad: 'x'.repeat(300 * 1024) }) },
  };
  const server = createServer({ cert: pems.cert, key: pems.private }, (req, res) => {
    if (req.url === '/hang') return; // never answers: the fetch's timeout ends it
    const found = bodies[req.url ?? ''] ?? { status: 404, body: '{}' };
    res.writeHead(found.status, { 'content-type': 'application/json', ...found.headers });
    res.end(found.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, ca: pems.cert };
}

describe('fromJwks keys from the emulator login application', () => {
  const t = useHarness({ loginApp: true });
  let project: string;
  let manifests: string;
  const jwksFetches = (): number => t.h.emulator.requestLog.filter((e) => e.path === LOGIN_APP_JWKS_PATH).length;
  const gatewayCalls = (): number => t.h.emulator.requestLog.filter((e) => e.path !== LOGIN_APP_JWKS_PATH).length;
  const liveKeys = (): Map<string, string> => {
    const out = new Map<string, string>();
    for (const o of (t.h.emulator.activeSnapshot() as Snapshot).objects) {
      const key = o.attributes.access?.tokenVerification?.jwsKey;
      if (o.type === 'mapping' && o.attributes.name !== undefined && key !== undefined) out.set(o.attributes.name, key);
    }
    return out;
  };
  const thumbprintOfKid = (kid: string): string => {
    const key = t.h.emulator.loginApp?.privateKey(kid);
    if (!key) throw new Error(`kid ${kid} is not published`);
    return jwkThumbprint(createPublicKey(key).export({ format: 'jwk' }));
  };

  beforeAll(async () => {
    const login = t.h.emulator.loginApp;
    if (!login) throw new Error('the emulator runs without --login-app');
    project = join(t.h.dir, 'gwops.yaml');
    await writeFile(project, `jwks:\n  login:\n    url: ${login.jwksUrl}\n    caFile: ca.pem\n    timeoutMs: 20000\n`);
    manifests = await writeManifests(t.h, 'jwks', {
      'backend.yaml': BACKEND,
      'mappings.yaml': MAPPINGS.map((name) => mapping(name, '{ fromJwks: { source: login, alg: RS_256 } }')).join(''),
    });
  });

  const run = (command: string, ...extra: string[]) => t.h.cli([command, manifests, '--config', project, ...t.h.connection, ...extra]);

  it('applies the current key to every mapping, fetching the JWKS once', async () => {
    const before = jwksFetches();
    const applied = await run('apply', '--yes');
    expect(applied.code, applied.stderr).toBe(0);
    expect(jwksFetches() - before).toBe(1);
    const kid = t.h.emulator.loginApp?.currentKid() ?? '';
    expect(applied.stdout.replace(/ +=/g, ' =')).toContain(`access.tokenVerification.jwsKey = (public key kid ${kid} (thumbprint ${thumbprintOfKid(kid)}))`);
    expect(applied.stdout).not.toContain('BEGIN PUBLIC KEY');
    const keys = liveKeys();
    expect([...keys.keys()].sort()).toEqual([...MAPPINGS].sort());
    const expected = createPublicKey(t.h.emulator.loginApp?.privateKey(kid) as KeyObject).export({ type: 'spki', format: 'pem' }).toString();
    for (const pem of keys.values()) expect(pem).toBe(expected);
    const again = await run('plan');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes');
  });

  it('shows a rotation as drift of every affected mapping, old and new kid; apply heals; a token of the new key verifies', async () => {
    const login = t.h.emulator.loginApp;
    if (!login) throw new Error('no login app');
    const oldKid = login.currentKid();
    const oldThumbprint = thumbprintOfKid(oldKid);
    const newKid = login.rotate(3600);
    const newThumbprint = thumbprintOfKid(newKid);
    const before = jwksFetches();
    const drift = await run('drift');
    expect(drift.code, drift.stderr).toBe(2);
    expect(jwksFetches() - before).toBe(1);
    // The drift report names each mapping changed on the gateway, the manifests' key first, then the gateway's.
    const line = `access.tokenVerification.jwsKey: manifests (public key kid ${newKid} (thumbprint ${newThumbprint})), gateway (public key kid ${oldKid} (thumbprint ${oldThumbprint}))`;
    for (const name of MAPPINGS) expect(drift.stdout).toContain(`mapping "${name}"`);
    expect(drift.stdout.split(line).length - 1, drift.stdout).toBe(MAPPINGS.length);
    // A rotation at the key source, not a change on the gateway: said so, and not counted as the gateway's.
    expect(drift.stdout).not.toContain('changed outside gwops');
    expect(drift.stdout).not.toContain('Changed on the gateway');
    expect(drift.stdout).not.toContain('cannot be attributed');
    expect(drift.stdout).toContain('Drift detected: the key source the manifests read keys from ("login") rotated its keys: the gateway still holds the earlier key');
    expect(drift.stdout).toContain(`Drift: ${MAPPINGS.length} attributes with an earlier key of a key source that rotated its keys, not applied yet.`);
    expect((await run('drift', '--fail-on', 'gateway')).code).toBe(0);
    const json = await run('drift', '--format', 'json');
    const entries = (JSON.parse(json.stdout) as { entries: { side?: string; keySource?: string }[] }).entries;
    expect(entries.map((e) => [e.side, e.keySource])).toEqual(MAPPINGS.map(() => ['key-source', 'login']));
    expect(json.stdout).toContain(`(public key kid ${newKid} (thumbprint ${newThumbprint}))`);
    expect(json.stdout).not.toContain('BEGIN PUBLIC KEY');
    const markdown = await run('drift', '--format', 'markdown');
    expect(markdown.stdout).toContain(newThumbprint);
    expect(markdown.stdout).toContain('The key source the manifests read keys from ("login") rotated its keys');
    expect(markdown.stdout).not.toContain('changed outside gwops');
    expect(markdown.stdout).not.toContain('BEGIN PUBLIC KEY');

    const healed = await run('apply', '--yes');
    expect(healed.code, healed.stderr).toBe(0);
    const after = await run('drift');
    expect(after.code, after.stdout).toBe(0);

    const jwt = signJwt(login.privateKey(newKid) as KeyObject, newKid);
    const oldJwt = signJwt(login.privateKey(oldKid) as KeyObject, oldKid);
    for (const pem of liveKeys().values()) {
      expect(verifies(jwt, pem)).toBe(true);
      expect(verifies(oldJwt, pem)).toBe(false);
    }
  });

  it('keeps the retired key published, without alg, for the grace period, then removes it', async () => {
    const login = t.h.emulator.loginApp;
    if (!login) throw new Error('no login app');
    const published = async (): Promise<{ kid: string; alg?: string }[]> => {
      const agent = new Agent({ connect: { ca: t.h.emulator.caCertificate ?? '' } });
      try {
        const response = await request(login.jwksUrl, { dispatcher: agent });
        return ((await response.body.json()) as { keys: { kid: string; alg?: string }[] }).keys.map((k) => ({ kid: k.kid, ...(k.alg ? { alg: k.alg } : {}) }));
      } finally {
        await agent.close();
      }
    };
    login.expireRetired(); // the key the previous test retired
    const retiring = login.currentKid();
    const current = login.rotate(3600);
    expect(await published()).toEqual([{ kid: current, alg: 'RS256' }, { kid: retiring }]);
    const plan = await run('plan', '--no-server-check');
    expect(plan.stdout.replace(/ +=/g, ' =')).toContain(`(public key kid ${retiring} (thumbprint ${thumbprintOfKid(retiring)})) -> (public key kid ${current} (thumbprint`);
    login.expireRetired();
    expect(await published()).toEqual([{ kid: current, alg: 'RS256' }]);
    expect(login.privateKey(retiring)).toBeUndefined();
    const healed = await run('apply', '--yes');
    expect(healed.code, healed.stderr).toBe(0);
  });

  it('validate checks fromJwks offline: no fetch, and an HS_* algorithm is refused with a hint to fromEnv/fromFile', async () => {
    const before = jwksFetches();
    const ok = await t.h.cli(['validate', manifests, '--config', project]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(jwksFetches()).toBe(before);
    const hs = await writeManifests(t.h, 'jwks-hs', {
      'backend.yaml': BACKEND,
      'm.yaml': mapping('jwks-hs', '{ fromJwks: { source: login, kid: x } }', 'HS_256'),
    });
    const calls = gatewayCalls();
    for (const command of ['validate', 'plan']) {
      const result = await t.h.cli([command, hs, '--config', project, ...(command === 'plan' ? t.h.connection : [])]);
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toContain(
        "m.yaml:11:15: error: attribute 'access.tokenVerification.jwsKey' of mapping 'jwks-hs' reads a public key with { fromJwks }, but access.tokenVerification.jwsAlgorithm HS_256 takes a passphrase: use { fromEnv: NAME } or { fromFile: path } [jwks-algorithm]",
      );
    }
    const unknown = await writeManifests(t.h, 'jwks-unknown', { 'backend.yaml': BACKEND, 'm.yaml': mapping('jwks-u', '{ fromJwks: { source: logn, kid: x } }') });
    const result = await t.h.cli(['validate', unknown, '--config', project]);
    expect(result.stdout).toContain("names jwks source 'logn', which gwops.yaml does not define: did you mean 'login'?");
    expect(gatewayCalls()).toBe(calls);
    expect(jwksFetches()).toBe(before);
  });

  describe('failures stop the run before any request reaches the gateway', () => {
    let bad: { server: Server; url: string; ca: string };
    let badProject: string;
    beforeAll(async () => {
      bad = await startBadJwksServer();
      badProject = join(t.h.dir, 'bad-gwops.yaml');
      await writeFile(join(t.h.dir, 'bad-ca.pem'), bad.ca);
      const source = (name: string, path: string): string => `  ${name}:\n    url: ${bad.url}${path}\n    caFile: bad-ca.pem\n`;
      await writeFile(
        badProject,
        `jwks:\n${source('notset', '/not-a-set')}${source('two', '/two-rs256')}${source('ec', '/ec')}${source('moved', '/moved')}${source('huge', '/huge')}` +
          `  login:\n    url: ${t.h.emulator.loginApp?.jwksUrl ?? ''}\n    caFile: ca.pem\n` +
          `  untrusted:\n    url: ${bad.url}/ec\n` +
          `  hang:\n    url: ${bad.url}/hang\n    caFile: bad-ca.pem\n    timeoutMs: 1000\n` +
          `  closed:\n    url: https://127.0.0.1:1/jwks\n    timeoutMs: 5000\n`,
      );
    });
    afterAll(async () => {
      bad.server.closeAllConnections();
      await new Promise<void>((resolve) => bad.server.close(() => resolve()));
    });

    const cases: [string, string, string][] = [
      ['unreachable', '{ fromJwks: { source: closed, kid: k } }', 'cannot use JWKS https://127.0.0.1:1/jwks: connection refused [jwks-unavailable]'],
      ['a certificate no trusted CA signed', '{ fromJwks: { source: untrusted, kid: ec-key } }', `cannot use JWKS ${'URL'}/ec: cannot verify the TLS certificate (`],
      ['no answer in time', '{ fromJwks: { source: hang, kid: k } }', `cannot use JWKS ${'URL'}/hang: no answer within 1000 ms [jwks-unavailable]`],
      ['not a JWK Set', '{ fromJwks: { source: notset, kid: k } }', `cannot use JWKS ${'URL'}/not-a-set: the body is not a JWK Set (expected a JSON object with a "keys" array) [jwks-unavailable]`],
      ['a redirect', '{ fromJwks: { source: moved, kid: k } }', `cannot use JWKS ${'URL'}/moved: answered 302 (a redirect to /ec); redirects are refused: give the final URL [jwks-unavailable]`],
      ['a body over the size limit', '{ fromJwks: { source: huge, kid: k } }', `cannot use JWKS ${'URL'}/huge: the body is over the limit of 262144 bytes [jwks-unavailable]`],
      ['a missing kid', '{ fromJwks: { source: login, kid: nope } }', "JWKS LOGIN: no key with kid 'nope' (kids in the set: "],
      ['several candidates for alg', '{ fromJwks: { source: two, alg: RS_256 } }', `JWKS ${'URL'}/two-rs256: several candidate keys for alg RS256 (kids a, b); name one with kid [jwks-key]`],
      ['a key of the wrong type', '{ fromJwks: { source: ec, kid: ec-key } }', `JWKS ${'URL'}/ec: key 'ec-key' is of type EC, but jwsAlgorithm RS_256 needs an RSA key [jwks-key]`],
    ];
    it.each(cases)('%s', async (name, reference, message) => {
      const folder = await writeManifests(t.h, `bad-${name.replace(/\W+/g, '-')}`, { 'backend.yaml': BACKEND, 'm.yaml': mapping('jwks-bad', reference) });
      const calls = gatewayCalls();
      const result = await t.h.cli(['plan', folder, '--config', badProject, ...t.h.connection]);
      expect(result.code).toBe(1);
      const expected = message.replace('URL', bad.url).replace('LOGIN', t.h.emulator.loginApp?.jwksUrl ?? '');
      expect(result.stderr).toContain(`m.yaml:11:15: error: access.tokenVerification.jwsKey of mapping 'jwks-bad': ${expected}`);
      expect(result.stderr).toContain('nothing was sent to the gateway');
      expect(gatewayCalls()).toBe(calls);
    });
  });
});
