/**
 * Every secret a run learns reaches the run's registry: the manifests' secret values
 * (loader), the API key (connectionFor), the JSESSIONID cookie (GatewaySession.open);
 * and the session redacts and bounds the gateway's error details with it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { inspect } from 'node:util';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ApiError } from '../../src/gateway/errors.js';
import { GatewaySession } from '../../src/gateway/session.js';
import { loadManifests } from '../../src/manifest/index.js';
import { connectionFor, prepare } from '../../src/operations/steps/pipeline.js';
import { MAX_ECHO_LENGTH, REDACTED, SecretRedactor } from '../../src/core/secrets.js';

const CERT = 'apiVersion: gwops/v1\nkind: ssl-certificate\nname: c\nattributes:\n  certType: SERVER_CERT\n  certificate: not-checked-here\n';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'gwops-secrets-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function manifest(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

describe('the manifest loader', () => {
  it('exposes every resolved fromEnv / fromFile secret value, and secrets written as strings', async () => {
    await writeFile(join(dir, 'key.pem'), 'file-secret-value\n\n');
    const file = await manifest(
      'certs.yaml',
      `${CERT}  privateKey: { fromFile: key.pem }\n  passphrase: { fromEnv: PASS }\n---\n` +
        CERT.replace('name: c', 'name: d') +
        '  passphrase: literal-passphrase\n',
    );
    const result = await loadManifests({ paths: [file], cwd: dir, env: { PASS: 'env-passphrase' } });
    expect(result.secretValues.sort()).toEqual(['env-passphrase', 'file-secret-value', 'literal-passphrase']);
    // Not-secret attributes are not registered.
    expect(result.secretValues).not.toContain('SERVER_CERT');
  });

  it('resolves no source with validate --skip-secrets, but still exposes the variables they name for redaction', async () => {
    const file = await manifest('skip.yaml', `${CERT}  passphrase: { fromEnv: PASS }\n`);
    const result = await loadManifests({ paths: [file], cwd: dir, env: { PASS: 'env-passphrase' }, resolveSecrets: false });
    expect(result.documents[0]?.attributes.passphrase).toEqual({ fromEnv: 'PASS' });
    expect(result.secretValues).toEqual(['env-passphrase']);
    expect((await loadManifests({ paths: [file], cwd: dir, env: {}, resolveSecrets: false })).secretValues).toEqual([]);
  });
});

describe('prepare and connectionFor', () => {
  it('register the manifest secrets and the API key in the run registry, which rides along to the session', async () => {
    const pems = await generate([{ name: 'commonName', value: 'run.example.com' }], { keyType: 'ec', curve: 'P-256', algorithm: 'sha256' });
    const certificate = pems.cert.trimEnd().split('\n').map((l) => `    ${l}`).join('\n');
    const file = await manifest(
      'run.yaml',
      `${CERT.replace('  certificate: not-checked-here\n', `  certificate: |\n${certificate}\n`)}  passphrase: { fromEnv: PASS }\n`,
    );
    const secrets = new SecretRedactor();
    const input = {
      paths: [file],
      cwd: dir,
      env: { PASS: 'prepared-passphrase', GWOPS_API_KEY: 'the-api-key-value' },
      url: 'http://127.0.0.1:1/airlock/rest',
      warn: () => undefined,
      secrets,
    };
    const { result: prepared } = await prepare(input);
    expect(secrets.redact('p=prepared-passphrase')).toBe(`p=${REDACTED}`);
    const connection = connectionFor(input, prepared);
    expect(connection.secrets).toBe(secrets);
    expect(secrets.redact('Bearer the-api-key-value')).toBe(`Bearer ${REDACTED}`);
    expect(JSON.stringify(connection)).not.toContain('the-api-key-value');
    expect(inspect(connection.secrets, { showHidden: true })).not.toContain('prepared-passphrase');
  });
});

describe('GatewaySession', () => {
  const COOKIE = 'cookie-0123456789abcdef';
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url?.endsWith('/session/create')) {
          res.writeHead(200, { 'set-cookie': `JSESSIONID=${COOKIE}; Path=/; HttpOnly`, 'content-type': 'application/json' });
          res.end('{}');
          return;
        }
        // Echoes the request (body and cookie) in the error detail.
        const detail = `cannot parse ${Buffer.concat(chunks).toString('utf8')} (cookie ${req.headers.cookie ?? ''})`;
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ errors: [{ code: 'INVALID_VALUE', status: '400', detail }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/airlock/rest`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('registers the API key and the cookie, and redacts then bounds an echoed error detail', async () => {
    const secrets = new SecretRedactor(['run-passphrase"quoted']);
    const session = new GatewaySession({ url, apiKey: 'session-api-key', secrets, retry: { maxAttempts: 1 } });
    expect(secrets.redact('session-api-key')).toBe(REDACTED);
    await session.open();
    expect(secrets.redact(`JSESSIONID=${COOKIE}`)).toBe(`JSESSIONID=${REDACTED}`);
    const attributes = { passphrase: 'run-passphrase"quoted', certificate: 'x'.repeat(2000) };
    const error = await session.create('ssl-certificates', { type: 'ssl-certificate', attributes }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const detail = (error as ApiError).detail ?? '';
    expect(detail).toMatch(/^cannot parse \{"data":\{"type":"ssl-certificate","attributes":\{"passphrase":"\[redacted\]"/);
    expect(detail).not.toContain('run-passphrase');
    expect(detail).toMatch(/… \[\d+ characters omitted\]$/);
    expect(detail.length).toBeLessThan(MAX_ECHO_LENGTH + 40);
    await session.terminate();
  });

  it('redacts with its own key and cookie when no registry is given', async () => {
    const session = new GatewaySession({ url, apiKey: 'session-api-key', retry: { maxAttempts: 1 } });
    await session.open();
    const error = await session.update('mappings', '1', { type: 'mapping', attributes: { note: 'session-api-key' } }).catch((e: unknown) => e);
    const message = (error as Error).message;
    expect(message).toContain('cannot parse');
    expect(message).not.toContain('session-api-key');
    expect(message).not.toContain(COOKIE);
    await session.terminate();
  });
});

describe('the keys a run knows before it reads anything', () => {
  it('are registered before any command runs: GWOPS_API_KEY, every target key (apiKeyEnv, apiKeyFile) and --api-key-file', async () => {
    const project = await mkdtemp(join(dir, 'project-'));
    await writeFile(join(project, 'prod.key'), 'prod-file-key-9f2\n');
    await writeFile(join(project, 'option.key'), 'option-file-key-4c1\n');
    await writeFile(
      join(project, 'gwops.yaml'),
      "targets:\n  staging: { url: 'https://staging.invalid/rest', apiKeyEnv: STAGING_KEY }\n  production: { url: 'https://prod.invalid/rest', apiKeyFile: prod.key }\n",
    );
    const secrets = new SecretRedactor();
    const env = { GWOPS_API_KEY: 'global-key-77d', STAGING_KEY: 'staging-key-31a' };
    const io = { stdout: { write: () => true }, stderr: { write: () => true }, env, cwd: project, isTTY: false, stdin: Readable.from([]), secrets };
    // `targets` reads no manifest and no key: only the first step can have registered them.
    expect(await main(['node', 'gwops', 'targets'], io)).toBe(0);
    expect(secrets.redact('option-file-key-4c1')).toBe('option-file-key-4c1');
    // A gateway that cannot be reached: the command stops before it resolves a key.
    expect(await main(['node', 'gwops', 'history', '--url', 'ftp://unreachable.invalid/', '--api-key-file', 'option.key'], io)).toBe(1);
    for (const key of ['global-key-77d', 'staging-key-31a', 'prod-file-key-9f2', 'option-file-key-4c1']) expect(secrets.redact(`<${key}>`)).toBe(`<${REDACTED}>`);
  });
});
