import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import type { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import {
  classifyAddress,
  createOutbound,
  OutboundError,
  type OutboundOptions,
  type ResolvedAddress,
} from '../src/lib/outbound.ts';

/** The one outbound HTTP helper: refused address forms, redirects, allow-list, limits, against a real local server. */

const PUBLIC_IP = '93.184.216.34';
const ONPREM = 'chat.onprem.test';

/** A resolver for test names only (the system one for anything else would need a network). */
const names =
  (table: Record<string, string[]>, calls: string[] = []) =>
  async (host: string): Promise<ResolvedAddress[]> => {
    calls.push(host);
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const reasonOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return 'answered';
  } catch (err) {
    expect(err).toBeInstanceOf(OutboundError);
    return (err as OutboundError).reason;
  }
};

describe('address checks', () => {
  const outbound = createOutbound({
    resolve: names({ 'public.test': [PUBLIC_IP], 'mixed.test': [PUBLIC_IP, '10.0.0.7'] }),
  });

  it.each([
    'https://127.0.0.1/',
    'https://0x7f000001/',
    'https://2130706433/',
    'https://0177.0.0.1/',
    'https://127.1/',
    'https://169.254.169.254/latest/meta-data/',
    'https://[::1]/',
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://[64:ff9b::7f00:1]/',
    'https://[2002:7f00:1::]/',
    'https://10.1.2.3/',
    'https://172.16.0.1/',
    'https://192.168.1.1/',
    'https://100.64.0.1/',
    'https://[fe80::1]/',
    'https://[fd12:3456::1]/',
    'https://0.0.0.0/',
    'https://[::]/',
    'https://224.0.0.1/',
    'https://255.255.255.255/',
    'https://mixed.test/',
  ])('refuses %s', async (url) => {
    expect(await outbound.check(url)).toEqual({ ok: false, reason: 'refused-address' });
  });

  it('refuses a name the system resolves to loopback (localhost)', async () => {
    const system = createOutbound();
    expect(await system.check('https://localhost/hook')).toEqual({ ok: false, reason: 'refused-address' });
    expect(await system.check('https://LOCALHOST./hook')).toEqual({ ok: false, reason: 'refused-address' });
  });

  it('admits public addresses and names', async () => {
    for (const url of [`https://${PUBLIC_IP}/x`, 'https://[2606:4700:4700::1111]/', 'https://public.test/hook']) {
      expect((await outbound.check(url)).ok, url).toBe(true);
    }
    expect(classifyAddress('8.8.8.8')).toBe('public');
  });

  it('refuses other schemes, credentials in the URL and garbage; tells an unresolvable name apart', async () => {
    expect(await outbound.check(`http://${PUBLIC_IP}/`)).toEqual({ ok: false, reason: 'scheme' });
    expect(await outbound.check(`ftp://${PUBLIC_IP}/`)).toEqual({ ok: false, reason: 'scheme' });
    expect(await outbound.check(`https://u:p@${PUBLIC_IP}/`)).toEqual({ ok: false, reason: 'invalid-url' });
    expect(await outbound.check('not a url')).toEqual({ ok: false, reason: 'invalid-url' });
    expect(await outbound.check('https://nowhere.test/')).toEqual({ ok: false, reason: 'unresolvable' });
  });

  it('lets the allow-list admit internal ranges but never metadata, unspecified or multicast addresses', async () => {
    const onprem = createOutbound({ allow: ['169.254.0.0/16', '10.20.0.0/16', '0.0.0.0/0', '*.corp.test'] });
    expect((await onprem.check('https://169.254.1.1/')).ok).toBe(true);
    expect((await onprem.check('https://10.20.3.4/')).ok).toBe(true);
    expect(await onprem.check('https://169.254.169.254/')).toEqual({ ok: false, reason: 'refused-address' });
    expect(await onprem.check('https://0.0.0.0/')).toEqual({ ok: false, reason: 'refused-address' });
    expect(await onprem.check('https://239.1.1.1/')).toEqual({ ok: false, reason: 'refused-address' });
  });
});

describe('calls against a real local server', () => {
  let server: Server;
  let port: number;
  const hits: Array<{ path: string; method: string; body: string; authorization?: string }> = [];
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/ok': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('fine'),
    '/to-loopback': (_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${port}/ok` }).end(),
    '/to-metadata': (_req, res) => res.writeHead(307, { location: 'http://169.254.169.254/latest/' }).end(),
    '/to-self': (_req, res) => res.writeHead(307, { location: `/ok` }).end(),
    '/loop': (_req, res) => res.writeHead(302, { location: `/loop` }).end(),
    '/big': (_req, res) => res.writeHead(200).end(Buffer.alloc(256 * 1024, 0x61)),
    '/silent': () => undefined,
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        hits.push({
          path: req.url ?? '',
          method: req.method ?? '',
          body,
          ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
        });
        (routes[req.url ?? ''] ?? ((_q, s: ServerResponse) => s.writeHead(404).end()))(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** Plain HTTP to the local server, reached only through the on-premise name on the allow-list. */
  const onprem = (extra: Partial<OutboundOptions> = {}, calls: string[] = []) =>
    createOutbound({
      protocols: ['http:'],
      allow: [ONPREM],
      resolve: names({ [ONPREM]: ['127.0.0.1'] }, calls),
      ...extra,
    });
  const at = (path: string) => `http://${ONPREM}:${port}${path}`;
  const hitsTo = (path: string) => hits.filter((h) => h.path === path).length;

  it('never connects to a refused address, whatever its form', async () => {
    const outbound = createOutbound({ protocols: ['http:'] });
    const before = hits.length;
    for (const host of ['127.0.0.1', '0x7f000001', '2130706433', '127.1', 'localhost', '[::ffff:127.0.0.1]']) {
      expect(await reasonOf(outbound.send(`http://${host}:${port}/ok`)), host).toBe('refused-address');
    }
    expect(hits.length).toBe(before);
  });

  it('reaches an on-premise server on the allow-list, by name or by CIDR, at the checked address', async () => {
    const calls: string[] = [];
    const res = await onprem({}, calls).send(at('/ok'), { method: 'POST', body: '{"a":1}' });
    expect(res).toMatchObject({ status: 200, ok: true, truncated: false });
    expect(res.body.toString()).toBe('fine');
    expect(hits.at(-1)).toMatchObject({ path: '/ok', method: 'POST', body: '{"a":1}' });
    // Resolved once, by the check: the connection went to that address (the system resolver knows no such name).
    expect(calls).toEqual([ONPREM]);
    const byCidr = createOutbound({ protocols: ['http:'], allow: ['127.0.0.0/8'] });
    expect((await byCidr.send(`http://127.0.0.1:${port}/ok`)).status).toBe(200);
  });

  it('re-checks every redirect: a hop to loopback or metadata is refused before it connects', async () => {
    const outbound = onprem();
    const loopbackHits = hitsTo('/ok');
    expect(await reasonOf(outbound.send(at('/to-loopback')))).toBe('refused-address');
    expect(hitsTo('/to-loopback')).toBe(1);
    expect(hitsTo('/ok')).toBe(loopbackHits);
    expect(await reasonOf(outbound.send(at('/to-metadata'), { method: 'POST', body: 'x' }))).toBe('refused-address');
  });

  it('follows a redirect to an admitted address, keeping a 307 POST, and stops after three', async () => {
    const res = await onprem().send(at('/to-self'), {
      method: 'POST',
      body: 'payload',
      headers: { authorization: 'Basic abc' },
    });
    expect(res.status).toBe(200);
    expect(hits.at(-1)).toMatchObject({ path: '/ok', method: 'POST', body: 'payload', authorization: 'Basic abc' });
    const before = hitsTo('/loop');
    expect(await reasonOf(onprem().send(at('/loop')))).toBe('too-many-redirects');
    expect(hitsTo('/loop') - before).toBe(4);
  });

  it('reads at most maxBytes of the answer', async () => {
    const res = await onprem({ maxBytes: 1024 }).send(at('/big'));
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(1024);
    expect(res.truncated).toBe(true);
    const whole = await onprem().send(at('/big'));
    expect(whole.body.length).toBe(64 * 1024);
  });

  it('gives up on a server that does not answer', async () => {
    expect(await reasonOf(onprem({ timeoutMs: 200 }).send(at('/silent')))).toBe('timeout');
  });

  it('reports a closed port as a network failure', async () => {
    const closed = createOutbound({ protocols: ['http:'], allow: ['127.0.0.1'] });
    expect(await reasonOf(closed.send('http://127.0.0.1:1/'))).toBe('network');
  });
});

describe('OUTBOUND_ALLOW_HOSTS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'portal-outbound-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = (value: string) => ({ DATA_DIR: dir, SECRET_KEY: 'x'.repeat(32), OUTBOUND_ALLOW_HOSTS: value });

  it('reads comma-separated host names, wildcards, addresses and CIDRs', () => {
    expect(
      loadConfig(env(' chat.corp.example, *.corp.test,10.20.0.0/16 ,fd00::/8,192.0.2.1')).outboundAllowHosts,
    ).toEqual(['chat.corp.example', '*.corp.test', '10.20.0.0/16', 'fd00::/8', '192.0.2.1']);
    expect(loadConfig({ DATA_DIR: dir, SECRET_KEY: 'x'.repeat(32) }).outboundAllowHosts).toEqual([]);
  });

  it('refuses what is none of those', () => {
    expect(() => loadConfig(env('10.0.0.0/33'))).toThrow(ConfigError);
    expect(() => loadConfig(env('https://chat.example/'))).toThrow(/OUTBOUND_ALLOW_HOSTS/);
  });
});

/** A self-signed certificate for chat.onprem.test (valid until 2126), for the HTTPS case. */
const ONPREM_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgQKGWhifbrjffKw7i
8YJNnE5qIj9FzFL9DIMcmYtUvb2hRANCAARw4fXfZT6GAmNksMFrIWhFy3ebUs57
ek2DKuWrwqv85H7M+SpFnpfojDPfc7iErBHbqo/QONeTb95gsB4n95Cr
-----END PRIVATE KEY-----`;
const ONPREM_CERT = `-----BEGIN CERTIFICATE-----
MIIBqjCCAVCgAwIBAgIUdSWVWAAY56dr02MnIkhDYMPcOUgwCgYIKoZIzj0EAwIw
GzEZMBcGA1UEAwwQY2hhdC5vbnByZW0udGVzdDAgFw0yNjExMjQwODAzMjRaGA8y
MTI2MTAzMTA4MDMyNFowGzEZMBcGA1UEAwwQY2hhdC5vbnByZW0udGVzdDBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABHDh9d9lPoYCY2SwwWshaEXLd5tSznt6TYMq
5avCq/zkfsz5KkWel+iMM99zuISsEduqj9A415Nv3mCwHif3kKujcDBuMB0GA1Ud
DgQWBBT4bZC5MMF4z2N06MmC19tKX4h9iTAfBgNVHSMEGDAWgBT4bZC5MMF4z2N0
6MmC19tKX4h9iTAPBgNVHRMBAf8EBTADAQH/MBsGA1UdEQQUMBKCEGNoYXQub25w
cmVtLnRlc3QwCgYIKoZIzj0EAwIDSAAwRQIgdybMlzphsPkopqkjTLNukUhwJJLI
9Doford+2meQYNMCIQCgkIYc807k/wvy8kvqIv+Zrk0K6Ao2T5NRVnRgFtM0Jw==
-----END CERTIFICATE-----`;

describe('HTTPS to the checked address', () => {
  let server: ReturnType<typeof createTlsServer>;
  let port: number;
  const seen: Array<{ servername: string | false | null; host: string | undefined }> = [];

  beforeAll(async () => {
    server = createTlsServer({ key: ONPREM_KEY, cert: ONPREM_CERT }, (req, res) => {
      const socket = req.socket as TLSSocket;
      seen.push({ servername: socket.servername, host: req.headers.host });
      res.writeHead(200).end('tls fine');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('connects to the resolved address, verifying the certificate for the name (SNI and Host kept)', async () => {
    const outbound = createOutbound({
      allow: [ONPREM],
      ca: ONPREM_CERT,
      resolve: names({ [ONPREM]: ['127.0.0.1'] }),
    });
    const res = await outbound.send(`https://${ONPREM}:${port}/hook`, { method: 'POST', body: '{}' });
    expect(res.body.toString()).toBe('tls fine');
    expect(seen.at(-1)).toEqual({ servername: ONPREM, host: `${ONPREM}:${port}` });
  });

  it('refuses a certificate that does not name the host', async () => {
    const outbound = createOutbound({
      allow: ['other.onprem.test'],
      ca: ONPREM_CERT,
      resolve: names({ 'other.onprem.test': ['127.0.0.1'] }),
    });
    const before = seen.length;
    expect(await reasonOf(outbound.send(`https://other.onprem.test:${port}/hook`))).toBe('network');
    expect(seen.length).toBe(before);
  });
});
