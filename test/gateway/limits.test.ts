import { afterEach, describe, expect, it } from 'vitest';
import { GwopsError } from '../../src/core/errors.js';
import { ResponseTooLargeError, UnexpectedResponseError } from '../../src/gateway/errors.js';
import { MAX_BODY_BYTES, MAX_STREAMED_BODY_BYTES } from '../../src/gateway/http.js';
import { GatewaySession } from '../../src/gateway/session.js';
import type { ApiResource } from '../../src/api/documents.js';
import type { FakeGateway, FakeHandler } from './fake-gateway.js';
import { startFakeGateway, streamForever } from './fake-gateway.js';
import { TEST_POLICY, recordingClock } from './helpers.js';

const MiB = 1024 * 1024;
let gateway: FakeGateway | undefined;

afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

async function openSession(handler: FakeHandler, limits?: { maxBodyBytes?: number; maxStreamedBodyBytes?: number }): Promise<GatewaySession> {
  gateway = await startFakeGateway(handler);
  const session = new GatewaySession({ url: gateway.url, apiKey: 'fake-key', retry: TEST_POLICY, clock: recordingClock(), limits });
  await session.open();
  return session;
}

const MESSAGE = '{"type":"validator-message","id":"m","attributes":{"meta":{"severity":"WARNING"},"detail":"x"}},';

describe('response size limits', () => {
  it('a whole-body answer past the limit is a ResponseTooLargeError naming the call and the limit, read no further and not retried', async () => {
    const s = await openSession(async (_req, res, path, g) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (path === '/configuration/validator-messages') await streamForever(res, g, '{"data":[', MESSAGE);
    }, { maxBodyBytes: MiB });
    const error = await s.validatorMessages().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toBeInstanceOf(GwopsError);
    expect((error as GwopsError).exitCode).toBe(1);
    expect((error as Error).message).toContain('GET /configuration/validator-messages');
    expect((error as Error).message).toContain('1 MiB');
    expect(gateway?.requests.get('GET /configuration/validator-messages')).toBe(1);
    // Bounded while reading: the client stopped long before the 48 MiB the server would send.
    expect(gateway?.written ?? 0).toBeLessThan(16 * MiB);
    await s.terminate();
  });

  it('the whole-body limit is 64 MiB by default, and a Content-Length above it is refused before the body is read', async () => {
    expect(MAX_BODY_BYTES).toBe(64 * MiB);
    expect(MAX_STREAMED_BODY_BYTES).toBeGreaterThan(MAX_BODY_BYTES);
    const s = await openSession(async (_req, res, _path, g) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(200 * MiB) });
      await streamForever(res, g, '{"data":[', MESSAGE, 200 * MiB);
    });
    const error = await s.validatorMessages().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toContain('64 MiB');
    expect(gateway?.requests.get('GET /configuration/validator-messages')).toBe(1);
    expect(gateway?.written ?? 0).toBeLessThan(16 * MiB);
    await s.terminate();
  });

  it('a list framed element by element may pass the whole-body limit, up to its own larger limit', async () => {
    const element = '{"type":"mapping","id":"1","attributes":{"name":"m","padding":"' + 'x'.repeat(1000) + '"}}';
    const s = await openSession(async (req, res, _path, g) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url?.includes('endless') === true) {
        await streamForever(res, g, '{"data":[', element + ',');
        return;
      }
      res.end(`{"data":[${Array.from({ length: 2000 }, () => element).join(',')}]}`);
    }, { maxBodyBytes: 256 * 1024, maxStreamedBodyBytes: 4 * MiB });
    const project = (r: ApiResource): ApiResource => ({ ...r, attributes: { name: r.attributes.name } });
    const listed = await s.list('mappings', [], { project, streamAboveBytes: 64 * 1024 });
    expect(listed).toHaveLength(2000);

    const error = await s.list('mappings', ['name==endless'], { project, streamAboveBytes: 64 * 1024 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toContain('GET /configuration/mappings?filter=name%3D%3Dendless');
    expect((error as Error).message).toContain('4 MiB');
    expect(gateway?.requests.get('GET /configuration/mappings')).toBe(2);
    expect(gateway?.written ?? 0).toBeLessThan(2 * MiB + 4 * MiB + 16 * MiB);
    await s.terminate();
  });

  it("a create's answer, read for its identifier only, is held to the whole-body limit", async () => {
    const s = await openSession(async (_req, res, _path, g) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      await streamForever(res, g, '{"data":{"type":"mapping","id":"1","attributes":{"padding":[', '"' + 'x'.repeat(1000) + '",');
    }, { maxBodyBytes: MiB, maxStreamedBodyBytes: 64 * MiB });
    const error = await s.createChecked('mappings', { type: 'mapping', attributes: { name: 'm' } }, { name: 'm' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toContain('1 MiB');
    expect(gateway?.requests.get('POST /configuration/mappings')).toBe(1);
    expect(gateway?.written ?? 0).toBeLessThan(16 * MiB);
    await s.terminate();
  });
});

describe("a create's answer", () => {
  const SECRET = 'sekrit-private-key-material';
  const answers: readonly [body: string, problem: string][] = [
    ['', 'document without a data object'],
    [`{"data":[{"type":"mapping","id":"1","attributes":{"k":"${SECRET}"}}]}`, 'document without a data object'],
    [`{"data":{"type":"mapping","attributes":{"k":"${SECRET}"}}}`, 'resource object without type and id'],
    [`{"data":{"type":"mapping","id":"1","attributes":{"k":"${SECRET}"},}}`, 'body is not JSON'],
    [`{"data":{"type":"mapping","id":"1","attributes":{"k":"${SECRET}"}`, 'truncated document'],
  ];
  it.each(answers)('%j is an UnexpectedResponseError saying %s, never echoing the body', async (body, problem) => {
    const s = await openSession((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(body);
    });
    const error = await s.createChecked('mappings', { type: 'mapping', attributes: { name: 'm' } }, { name: 'm' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect((error as Error).message).toContain(problem);
    expect((error as Error).message).toContain('201');
    expect((error as Error).message).not.toContain(SECRET);
    await s.terminate();
  });

  it('gives the type and id of each created object, however alike the answers of a run are', async () => {
    let n = 0;
    const s = await openSession((_req, res) => {
      n += 1;
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: { type: 'mapping', id: String(n), attributes: { name: `m${n}`, defaults: { long: 'x'.repeat(200) } }, relationships: {} } }));
    });
    for (let i = 1; i <= 3; i++) {
      expect(await s.createChecked('mappings', { type: 'mapping', attributes: { name: `m${i}` } }, { name: `m${i}` })).toEqual({ type: 'mapping', id: String(i) });
    }
    await s.terminate();
  });
});

describe('a list whose body is not JSON', () => {
  it('is an UnexpectedResponseError that never quotes the body, framed or parsed whole', async () => {
    const secret = 'sekrit-list-material';
    const body = `{"data":[{"type":"mapping","id":"1","attributes":{"name":"m","key":"${secret}"},}]}`;
    const s = await openSession((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    const project = (r: ApiResource): ApiResource => r;
    for (const options of [{ project }, { project, fields: ['name'] }, { project, streamAboveBytes: 1 }]) {
      const error = await s.list('mappings', [], options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnexpectedResponseError);
      expect((error as Error).message).toContain('not JSON');
      expect((error as Error).message).not.toContain(secret);
    }
    await s.terminate();
  });
});
