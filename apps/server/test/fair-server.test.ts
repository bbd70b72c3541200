import { afterEach, describe, expect, it } from 'vitest';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createFairServer } from '../src/lib/fair-server.ts';
import { createTestApp } from './helpers.ts';

/** A keep-alive client on a raw socket: requests written by hand, answers read as they come. */
function rawClient(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let buffer = '';
  const waiters: Array<() => void> = [];
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    for (const w of waiters.splice(0)) w();
  });
  const connected = new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return {
    connected,
    send(path: string) {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n`);
    },
    /** Resolves once `n` answers have been read in all (each body is one line: the path). */
    async answers(n: number): Promise<string[]> {
      for (;;) {
        const bodies = [...buffer.matchAll(/\r\n\r\n([^\n]*)\n/g)].map((m) => m[1]!);
        if (bodies.length >= n) return bodies;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    close: () => socket.destroy(),
  };
}

/** Blocks the whole process, so what clients write meanwhile waits in the kernel for the next turn. */
function blockFor(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy: the event loop must not run
  }
}

describe('createFairServer', () => {
  let server: Server | null = null;
  const clients: Array<{ close(): void }> = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = null;
  });

  async function start(): Promise<{ port: number; served: string[] }> {
    const served: string[] = [];
    server = createFairServer((req, res) => {
      served.push(req.url!);
      res.setHeader('content-type', 'text/plain');
      res.end(`${req.url}\n`);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { port: (server.address() as AddressInfo).port, served };
  }

  it('answers the request whose connection has waited longest first, not the one read first', async () => {
    const { port, served } = await start();
    const early = rawClient(port);
    const late = rawClient(port);
    clients.push(early, late);
    await Promise.all([early.connected, late.connected]);
    // `late` has just had an answer; `early` has waited since it connected.
    late.send('/warm');
    await late.answers(1);
    // Both requests reach the kernel while the process is blocked, `late`'s first: the next turn
    // reads them in that order.
    late.send('/late');
    early.send('/early');
    blockFor(50);
    await Promise.all([late.answers(2), early.answers(1)]);
    expect(served).toEqual(['/warm', '/early', '/late']);
  });

  it('keeps the order of the requests of one connection', async () => {
    const { port, served } = await start();
    const client = rawClient(port);
    clients.push(client);
    await client.connected;
    for (const path of ['/1', '/2', '/3', '/4']) client.send(path);
    blockFor(20);
    expect(await client.answers(4)).toEqual(['/1', '/2', '/3', '/4']);
    expect(served).toEqual(['/1', '/2', '/3', '/4']);
  });

  it('answers every request of many connections, each once', async () => {
    const { port, served } = await start();
    const many = Array.from({ length: 20 }, () => rawClient(port));
    clients.push(...many);
    await Promise.all(many.map((c) => c.connected));
    many.forEach((c, i) => {
      c.send(`/${i}/a`);
      c.send(`/${i}/b`);
    });
    const answers = await Promise.all(many.map((c) => c.answers(2)));
    answers.forEach((a, i) => expect(a).toEqual([`/${i}/a`, `/${i}/b`]));
    expect(served.toSorted()).toEqual(many.flatMap((_, i) => [`/${i}/a`, `/${i}/b`]).toSorted());
  });

  it("is the app's server, with the timeouts Fastify gives its own, answering over a real socket", async () => {
    const t = await createTestApp();
    try {
      // Fastify's defaults, which it sets only on a server it makes itself (fastify/lib/server.js).
      expect(t.app.server.keepAliveTimeout).toBe(72_000);
      expect(t.app.server.requestTimeout).toBe(0);
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(res.status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
