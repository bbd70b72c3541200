import type { WebSocket } from 'ws';
import type { WsServerMessage } from '@portal/contract';
import type { TestApp } from './helpers.ts';

/** A WebSocket client that records every message, with a wait for the next matching one. */
export class Probe {
  readonly messages: WsServerMessage[] = [];
  private waiters: Array<{ match: (m: WsServerMessage) => boolean; ok: (m: WsServerMessage) => void }> = [];
  closed: { code: number } | null = null;
  /** An error the socket reported (kept, so a socket torn down by a test or by the app's close never throws). */
  error: Error | null = null;
  constructor(readonly ws: WebSocket) {
    ws.on('error', (err: Error) => (this.error = err));
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as WsServerMessage;
      this.messages.push(m);
      this.waiters = this.waiters.filter((w) => (w.match(m) ? (w.ok(m), false) : true));
    });
    ws.on('close', (code: number) => (this.closed = { code }));
  }
  send(m: object) {
    this.ws.send(JSON.stringify(m));
  }
  next<T extends WsServerMessage['type']>(
    type: T,
    where: (m: Extract<WsServerMessage, { type: T }>) => boolean = () => true,
    ms = 10_000,
  ): Promise<Extract<WsServerMessage, { type: T }>> {
    const match = (m: WsServerMessage) => m.type === type && where(m as Extract<WsServerMessage, { type: T }>);
    const seen = this.messages.find(match);
    if (seen) return Promise.resolve(seen as Extract<WsServerMessage, { type: T }>);
    return new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no ${type} message within ${ms} ms`)), ms);
      this.waiters.push({
        match,
        ok: (m) => {
          clearTimeout(timer);
          ok(m as Extract<WsServerMessage, { type: T }>);
        },
      });
    });
  }
  clear() {
    this.messages.length = 0;
  }
}

/** Opens a WebSocket on the test app; with a token it signs in and waits for `ready`. */
export async function openProbe(t: TestApp, token?: string): Promise<Probe> {
  const p = new Probe(await t.app.injectWS('/api/ws'));
  if (token) {
    p.send({ type: 'auth', token });
    await p.next('ready');
  }
  return p;
}
