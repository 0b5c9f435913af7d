import { connect, createServer, type Socket } from 'node:net';

/** A loopback TCP proxy to a server that can be cut (connections refused) and restored. */
export interface SwitchableProxy {
  /** `http://127.0.0.1:<port>`: what a client logs in to. */
  url: string;
  /** From now on the server is unreachable: open connections are dropped, new ones reset. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** Proxies to `target` (an http URL): the server "goes offline" without losing its state. */
export async function startSwitchableProxy(target: string): Promise<SwitchableProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let online = true;
  const server = createServer((client) => {
    if (!online) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(Number(port), hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut: () => {
      online = false;
      for (const socket of sockets) socket.destroy();
    },
    restore: () => {
      online = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((closed) => server.close(closed));
    },
  };
}
