/**
 * A tiny fake gateway for transport faults the emulator cannot produce: an endless or
 * oversized body, a gateway that stops answering. It answers the session calls
 * (create with a JSESSIONID cookie, the node status, load-active, terminate) itself and hands every other
 * request to the test's `handler`. It counts, per path, the requests it received and the
 * body bytes it managed to write.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export const FAKE_BASE_PATH = '/airlock/rest';

/** Handles one request of the test (path relative to the base path, without the query). */
export type FakeHandler = (req: IncomingMessage, res: ServerResponse, path: string, gateway: FakeGateway) => void | Promise<void>;

export interface FakeGateway {
  /** Base URL, e.g. `http://127.0.0.1:4711/airlock/rest`. */
  readonly url: string;
  /** Requests received, per `METHOD path`. */
  readonly requests: Map<string, number>;
  /** Body bytes written so far by {@link streamForever} and {@link sendBytes}. */
  written: number;
  /** Status of `POST /session/create` (200 sets the cookie). */
  createStatus: number;
  close(): Promise<void>;
}

/**
 * Writes `prefix`, then `unit` again and again (respecting backpressure) until the client
 * goes away or `capBytes` were written (then the response ends, so that a client without
 * a limit fails fast instead of reading forever). `written` counts every byte handed to
 * the socket.
 */
export async function streamForever(res: ServerResponse, gateway: FakeGateway, prefix: string, unit: string, capBytes = 48 * 1024 * 1024): Promise<void> {
  const write = (text: string): Promise<boolean> =>
    new Promise((resolve) => {
      if (res.destroyed || res.writableEnded) {
        resolve(false);
        return;
      }
      gateway.written += Buffer.byteLength(text);
      if (res.write(text)) {
        resolve(true);
        return;
      }
      const done = (): void => {
        res.off('drain', done);
        res.off('close', done);
        resolve(!res.destroyed);
      };
      res.on('drain', done);
      res.on('close', done);
    });
  const chunk = unit.repeat(Math.max(1, Math.floor(65_536 / Math.max(1, unit.length))));
  if (!(await write(prefix))) return;
  let sent = Buffer.byteLength(prefix);
  while (sent < capBytes && (await write(chunk))) sent += Buffer.byteLength(chunk);
  if (!res.destroyed) res.end();
}

/** Starts the fake gateway on a free loopback port. */
export async function startFakeGateway(handler: FakeHandler): Promise<FakeGateway> {
  const sockets = new Set<Socket>();
  const holder: { server?: Server } = {};
  const gateway: FakeGateway = {
    url: '',
    requests: new Map(),
    written: 0,
    createStatus: 200,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        holder.server?.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]?.slice(FAKE_BASE_PATH.length) ?? '';
    const key = `${req.method ?? 'GET'} ${path}`;
    gateway.requests.set(key, (gateway.requests.get(key) ?? 0) + 1);
    req.resume();
    if (key === 'POST /session/create') {
      if (gateway.createStatus !== 200) {
        res.writeHead(gateway.createStatus, { 'content-type': 'application/json' }).end('{"errors":[{"code":"UNAUTHORIZED"}]}');
        return;
      }
      res.writeHead(200, { 'set-cookie': 'JSESSIONID=fake-session-cookie; Path=/; HttpOnly', 'content-type': 'application/json' }).end('{}');
      return;
    }
    if (key === 'GET /system/status/node') {
      // Every run reads the gateway's version first (its variant): a latest gateway.
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"type":"node-status","id":"node","attributes":{"version":"8.6"}}}');
      return;
    }
    if (key === 'POST /session/terminate' || key === 'POST /configuration/configurations/load-active') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    void Promise.resolve(handler(req, res, path, gateway)).catch(() => res.destroy());
  });
  holder.server = server;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return Object.assign(gateway, { url: `http://127.0.0.1:${port}${FAKE_BASE_PATH}` });
}
