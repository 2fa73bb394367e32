/**
 * Transport: the emulator over HTTPS with its generated or a given certificate, and over
 * plain HTTP under a custom base path on request.
 */
import { generate } from 'selfsigned';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { Client, jsessionSetCookie, startHarness, VALID } from './client.js';

/** The status of POST /session/create at `url` with the key, through `dispatcher`. */
async function createStatus(url: string, apiKey: string, dispatcher: Agent): Promise<number> {
  const res = await request(`${url}/session/create`, { method: 'POST', headers: { authorization: `Bearer ${apiKey}` }, dispatcher });
  await res.body.dump();
  return res.statusCode;
}

describe('TLS', () => {
  it('the generated certificate is self-signed: refused without the CA, accepted when pinned or when verification is off', async () => {
    const h = await startHarness();
    const strict = new Agent();
    const lax = new Agent({ connect: { rejectUnauthorized: false } });
    try {
      await expect(request(`${h.emulator.url}/session/create`, { method: 'POST', dispatcher: strict })).rejects.toThrow();
      const pinned = await h.client().createSession(h.emulator.apiKey);
      expect(pinned.status).toBe(200);
      expect(await createStatus(h.emulator.url, h.emulator.apiKey, lax)).toBe(200);
    } finally {
      await strict.close();
      await lax.close();
      await h.close();
    }
  });

  it('the generated certificate is valid for localhost too (clients that address the emulator by name)', async () => {
    const h = await startHarness();
    const byName = new Agent({ connect: { ca: h.emulator.caCertificate } });
    try {
      const url = h.emulator.url.replace('127.0.0.1', 'localhost');
      expect(await createStatus(url, h.emulator.apiKey, byName)).toBe(200);
    } finally {
      await byName.close();
      await h.close();
    }
  });

  it('serves a given certificate and key', async () => {
    const pems = await generate([{ name: 'commonName', value: 'conformance' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    const h = await startHarness({ tls: { cert: pems.cert, key: pems.private } });
    try {
      expect(h.emulator.url).toMatch(/^https:/);
      expect(h.emulator.caCertificate?.trim()).toBe(pems.cert.trim());
      expect((await h.client().createSession(h.emulator.apiKey)).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});

describe('plain HTTP on request', () => {
  it('serves the same API over http:// without a Secure cookie', async () => {
    const h = await startHarness({ tls: false });
    try {
      expect(h.emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/airlock\/rest$/);
      expect(h.emulator.caCertificate).toBeUndefined();
      const c = h.client();
      const created = await c.createSession(h.emulator.apiKey);
      expect(created.status).toBe(200);
      const setCookie = jsessionSetCookie(created.headers);
      expect(setCookie).toMatch(/^JSESSIONID=/);
      expect(setCookie).not.toMatch(/;\s*Secure/i);
      expect((await c.call('POST', '/configuration/configurations/load-active')).status).toBe(204);
      const id = await c.create('back-end-group', VALID.backEndGroup('plain-http'));
      expect((await c.read('back-end-group', id)).attributes.name).toBe('plain-http');
    } finally {
      await h.close();
    }
  });

  it('honours a custom base path', async () => {
    const h = await startHarness({ tls: false, basePath: '/gw/api' });
    try {
      expect(h.emulator.url).toMatch(/\/gw\/api$/);
      expect((await h.client().createSession(h.emulator.apiKey)).status).toBe(200);
      // the default base path is not served then
      const other = new Client(h.emulator.url.replace('/gw/api', '/airlock/rest'), h.dispatcher);
      expect((await other.createSession(h.emulator.apiKey)).status).toBe(404);
    } finally {
      await h.close();
    }
  });
});
