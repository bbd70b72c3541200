import http, { type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

interface Waiting {
  req: IncomingMessage;
  res: ServerResponse;
  /** When its connection last had an answer (or opened): the earliest the request can have been sent. */
  since: number;
  /** Arrival order: a connection's requests, and equal ages, keep it. */
  seq: number;
}

const before = (a: Waiting, b: Waiting) => a.since < b.since || (a.since === b.since && a.seq < b.seq);

/** A binary min-heap of waiting requests, oldest on top. */
class WaitingHeap {
  private readonly items: Waiting[] = [];

  push(w: Waiting): void {
    const items = this.items;
    items.push(w);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): Waiting | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length === 0 || last === undefined) return top;
    items[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < items.length && before(items[l]!, items[m]!)) m = l;
      if (r < items.length && before(items[r]!, items[m]!)) m = r;
      if (m === i) return top;
      [items[i], items[m]] = [items[m]!, items[i]!];
      i = m;
    }
  }
}

/** The timeouts Fastify gives the server it makes itself (its options, defaults filled in). */
export interface ServerTimeouts {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/**
 * An HTTP server that, when requests queue up, answers the one that has waited longest first
 * (docs/performance.md "Who the p99 is").
 *
 * Node answers the sockets that are ready in the order the kernel lists them (epoll), once per turn
 * of its event loop. Under a load that keeps the server busy, a request that arrives just after a
 * turn began is listed last in the next turn, so its answer comes last again, and the connection's
 * next request again arrives just after a turn began: the same one or two connections wait two turns
 * for every answer while the others wait one. At 50 busy connections that was 1 to 3 % of all
 * requests, and so the p99.
 *
 * Here the requests read in one turn of the event loop wait in a queue and are answered right after
 * it (its check phase: one `setImmediate` each, so the promises of one request run before the next
 * starts), oldest first. A request's age is taken from its connection: how long ago that
 * connection's previous answer was written (a client cannot send its next request before it has
 * the answer), or when the connection opened. Requests of one connection keep their order. When
 * the server is not busy, the queue holds one request, answered at once in the same turn.
 */
export function createFairServer(handler: RequestListener, timeouts: ServerTimeouts = {}): http.Server {
  const readySince = new WeakMap<Socket, number>();
  const waiting = new WaitingHeap();
  let seq = 0;

  // One turn of `setImmediate` per request read: the turns queued while the event loop read its
  // sockets all run in its next check phase, each followed by its promises, and each answers the
  // oldest request still waiting, whichever request queued it.
  const serveOldest = () => {
    const next = waiting.pop();
    if (!next) return;
    const { req, res } = next;
    res.once('finish', () => readySince.set(req.socket, performance.now()));
    handler(req, res);
  };

  const server = http.createServer((req, res) => {
    waiting.push({ req, res, since: readySince.get(req.socket) ?? 0, seq: seq++ });
    setImmediate(serveOldest);
  });
  server.on('connection', (socket: Socket) => readySince.set(socket, performance.now()));
  // As Fastify sets them on a server of its own (fastify/lib/server.js), so nothing else changes.
  if (timeouts.keepAliveTimeout !== undefined) server.keepAliveTimeout = timeouts.keepAliveTimeout;
  if (timeouts.requestTimeout !== undefined) server.requestTimeout = timeouts.requestTimeout;
  if (timeouts.connectionTimeout !== undefined) server.setTimeout(timeouts.connectionTimeout);
  if (timeouts.maxRequestsPerSocket) server.maxRequestsPerSocket = timeouts.maxRequestsPerSocket;
  return server;
}
