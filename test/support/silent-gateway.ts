/**
 * A stand-in gateway that accepts TCP connections on the loopback interface and never
 * answers: for runs that must wait (timeouts, signals while a request is open).
 */
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

/** A gateway that accepts connections and never answers; `connected` resolves on the first connection. */
export async function silentGateway(): Promise<{ url: string; connected: Promise<void>; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  let connected: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (connected = resolve));
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.on('error', () => undefined);
    connected();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/airlock/rest`,
    connected: first,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
