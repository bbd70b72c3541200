import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * The one way the server calls out over HTTP (webhooks, chat bots). Every call a user can aim
 * (a URL an administrator typed) must not reach the server's own network, so each hop is checked:
 *
 * - the URL is parsed by WHATWG URL, which already turns numeric host forms (`0x7f000001`,
 *   `2130706433`, `0177.0.0.1`, `127.1`) into a dotted address;
 * - the host is resolved (every address) and refused when any address is loopback, private
 *   (RFC 1918, CGNAT), link-local, unique-local, unspecified, multicast, broadcast, reserved,
 *   documentation, a cloud metadata address, or an IPv4-mapped / NAT64 / 6to4 form of one;
 * - the connection goes to the checked address itself (a DNS answer that changes between the check
 *   and the connection cannot move it), with the name kept for TLS and the Host header;
 * - redirects are followed by hand (at most `maxRedirects`), each hop checked again;
 * - one deadline covers the whole call and at most `maxBytes` of the answer are read.
 *
 * An allow-list (OUTBOUND_ALLOW_HOSTS) admits on-premise servers: a host name admits whatever it
 * resolves to, an address or CIDR admits the addresses inside it. Unspecified, multicast, broadcast
 * and metadata addresses are never admitted.
 *
 * Failures are OutboundError with a coarse reason for the caller's own log; callers answer users a
 * generic text and never what the far end said.
 */

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface OutboundOptions {
  /** Host names (`chat.corp.example`, `*.corp.example`), addresses or CIDRs admitted although private. */
  allow?: readonly string[];
  /** URL schemes admitted (default https only). */
  protocols?: readonly ('https:' | 'http:')[];
  /** One deadline for the whole call, redirects included (default 10 s). */
  timeoutMs?: number;
  /** Bytes of the answer read at most; the rest is discarded (default 64 KiB). */
  maxBytes?: number;
  /** Redirects followed at most (default 3). */
  maxRedirects?: number;
  /** Certificate authorities trusted instead of the system ones (an on-premise CA; tests). */
  ca?: string | Buffer;
  /** Name resolution (default: the system resolver, every address). */
  resolve?: (host: string) => Promise<ResolvedAddress[]>;
}

export type OutboundRefusal = 'invalid-url' | 'scheme' | 'refused-address' | 'unresolvable';
export type OutboundFailureReason = OutboundRefusal | 'timeout' | 'too-many-redirects' | 'network';

export class OutboundError extends Error {
  constructor(readonly reason: OutboundFailureReason) {
    super(`Outbound request failed: ${reason}`);
    this.name = 'OutboundError';
  }
}

export type UrlCheck = { ok: true; url: URL; addresses: ResolvedAddress[] } | { ok: false; reason: OutboundRefusal };

export interface OutboundRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface OutboundResponse {
  status: number;
  /** True for 2xx. */
  ok: boolean;
  headers: http.IncomingHttpHeaders;
  /** At most maxBytes of the answer. */
  body: Buffer;
  truncated: boolean;
  /** The URL that answered (after redirects). */
  url: string;
}

export type Outbound = ReturnType<typeof createOutbound>;

export const OUTBOUND_DEFAULTS = { timeoutMs: 10_000, maxBytes: 64 * 1024, maxRedirects: 3 } as const;

// ------------------------------------------------------------------------------------------------
// addresses

/** Never reachable, whatever the allow-list says. */
const never = new BlockList();
never.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network", 0.0.0.0
never.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
never.addSubnet('240.0.0.0', 4, 'ipv4'); // reserved, 255.255.255.255 broadcast
never.addAddress('169.254.169.254', 'ipv4'); // AWS, GCP, Azure, OpenStack metadata
never.addAddress('169.254.170.2', 'ipv4'); // AWS ECS task metadata
never.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata
never.addAddress('::', 'ipv6'); // unspecified
never.addSubnet('ff00::', 8, 'ipv6'); // multicast
never.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6

/** Not public: refused unless the allow-list admits them. */
const internal = new BlockList();
for (const [net, prefix] of [
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
] as const) {
  internal.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated)
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, ...)
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
] as const) {
  internal.addSubnet(net, prefix, 'ipv6');
}

/** The 16 bytes of an IPv6 address (zone id dropped), or null. */
function ipv6Bytes(text: string): number[] | null {
  let s = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const words: number[] = [];
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const parts = v4[1]!.split('.').map(Number);
    if (parts.some((p) => p > 255)) return null;
    s =
      s.slice(0, -v4[1]!.length) +
      `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return null;
  for (const w of [...head, ...Array<string>(fill).fill('0'), ...tail]) {
    if (!/^[0-9a-f]{1,4}$/i.test(w)) return null;
    words.push(parseInt(w, 16));
  }
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

const dotted = (b: number[]) => b.join('.');

/** The IPv4 address an IPv6 one carries (mapped, NAT64, 6to4), if any. */
function embeddedIpv4(bytes: number[]): string | null {
  const zero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated)
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return dotted(bytes.slice(12));
  if (zero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(10, 12)) return dotted(bytes.slice(12));
  // 64:ff9b::a.b.c.d (NAT64 well-known prefix) and 64:ff9b:1::/48 (local-use NAT64)
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b) return dotted(bytes.slice(12));
  // 2002:a.b.c.d::/48 (6to4)
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return dotted(bytes.slice(2, 6));
  return null;
}

type AddressClass = 'public' | 'internal' | 'never';

/** Whether an address is public, internal (allow-list may admit it) or never reachable. */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address.replace(/%.*$/, ''));
  if (family === 4) {
    if (never.check(address, 'ipv4')) return 'never';
    return internal.check(address, 'ipv4') ? 'internal' : 'public';
  }
  const bytes = family === 6 || address.startsWith('[') ? ipv6Bytes(address) : null;
  if (!bytes) return 'never';
  const v4 = embeddedIpv4(bytes);
  if (v4 !== null) {
    const inner = classifyAddress(v4);
    // A 6to4 or NAT64 address of a public IPv4 one is public; of anything else, the same class.
    return inner;
  }
  const canonical = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16)).join(
    ':',
  );
  if (never.check(canonical, 'ipv6')) return 'never';
  return internal.check(canonical, 'ipv6') ? 'internal' : 'public';
}

// ------------------------------------------------------------------------------------------------
// the allow-list

interface AllowList {
  host(name: string): boolean;
  address(ip: string): boolean;
}

/** Checks one allow-list entry; answers an error text or null (used by the configuration). */
export function allowEntryProblem(entry: string): string | null {
  const e = entry.trim();
  if (e.includes('/')) {
    const [ip, bits] = e.split('/');
    const family = isIP(ip ?? '');
    const n = Number(bits);
    if (!family || !/^\d+$/.test(bits ?? '') || n > (family === 4 ? 32 : 128)) return `${e} is not a CIDR`;
    return null;
  }
  if (isIP(e.replace(/^\[|\]$/g, ''))) return null;
  if (/^(\*\.)?([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]*[a-z0-9])?\.?$/i.test(e)) return null;
  return `${e} is not a host name, address or CIDR`;
}

const normalHost = (h: string) =>
  h
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');

function allowList(entries: readonly string[]): AllowList {
  const names = new Set<string>();
  const suffixes: string[] = [];
  const nets = new BlockList();
  for (const raw of entries) {
    const e = raw.trim();
    if (!e) continue;
    if (allowEntryProblem(e) !== null) throw new Error(`OUTBOUND_ALLOW_HOSTS: ${allowEntryProblem(e)}`);
    if (e.includes('/')) {
      const [ip, bits] = e.split('/') as [string, string];
      nets.addSubnet(ip, Number(bits), isIP(ip) === 4 ? 'ipv4' : 'ipv6');
    } else if (isIP(normalHost(e))) {
      const ip = normalHost(e);
      nets.addAddress(ip, isIP(ip) === 4 ? 'ipv4' : 'ipv6');
    } else if (e.startsWith('*.')) {
      suffixes.push(normalHost(e.slice(1)));
    } else {
      names.add(normalHost(e));
    }
  }
  return {
    host: (name) => {
      const n = normalHost(name);
      return names.has(n) || suffixes.some((s) => n.endsWith(s));
    },
    address: (ip) => {
      const family = isIP(ip);
      return family !== 0 && nets.check(ip, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

// ------------------------------------------------------------------------------------------------
// the helper

const systemResolve = async (host: string): Promise<ResolvedAddress[]> => {
  const found = await dns.promises.lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function createOutbound(options: OutboundOptions = {}) {
  const allowed = allowList(options.allow ?? []);
  const protocols = new Set<string>(options.protocols ?? ['https:']);
  const timeoutMs = options.timeoutMs ?? OUTBOUND_DEFAULTS.timeoutMs;
  const maxBytes = options.maxBytes ?? OUTBOUND_DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? OUTBOUND_DEFAULTS.maxRedirects;
  const resolve = options.resolve ?? systemResolve;

  /** Whether the address may be reached for this host name. */
  const admitted = (host: string, address: string) => {
    const cls = classifyAddress(address);
    if (cls === 'public') return true;
    if (cls === 'never') return false;
    return allowed.host(host) || allowed.address(address);
  };

  /** Parses, resolves and checks one URL (no connection). */
  async function check(raw: string | URL): Promise<UrlCheck> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return { ok: false, reason: 'invalid-url' };
    }
    if (!protocols.has(url.protocol)) return { ok: false, reason: 'scheme' };
    if (url.username || url.password) return { ok: false, reason: 'invalid-url' };
    const host = normalHost(url.hostname);
    if (!host) return { ok: false, reason: 'invalid-url' };
    let addresses: ResolvedAddress[];
    const literal = isIP(host);
    if (literal) {
      addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
    } else {
      try {
        addresses = await resolve(host);
      } catch {
        return { ok: false, reason: 'unresolvable' };
      }
      if (addresses.length === 0) return { ok: false, reason: 'unresolvable' };
    }
    // One refused address refuses the name: the connection must not depend on which one is tried.
    if (!addresses.every((a) => admitted(host, a.address))) return { ok: false, reason: 'refused-address' };
    return { ok: true, url, addresses };
  }

  /** One hop to the checked address; reads at most maxBytes. */
  function hop(
    url: URL,
    to: ResolvedAddress,
    req: Required<Pick<OutboundRequest, 'method' | 'headers'>> & { body?: Buffer },
    signal: AbortSignal,
  ): Promise<OutboundResponse> {
    const secure = url.protocol === 'https:';
    const name = normalHost(url.hostname);
    return new Promise((done, fail) => {
      const request = (secure ? https : http).request(
        {
          host: to.address,
          family: to.family,
          port: url.port ? Number(url.port) : secure ? 443 : 80,
          method: req.method,
          path: `${url.pathname}${url.search}`,
          headers: {
            ...req.headers,
            host: url.host,
            ...(req.body ? { 'content-length': String(req.body.length) } : {}),
          },
          ...(secure && !isIP(name) ? { servername: name } : {}),
          ...(secure && options.ca ? { ca: options.ca } : {}),
          agent: false,
          signal,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          let truncated = false;
          const finish = () =>
            done({
              status: res.statusCode ?? 0,
              ok: (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300,
              headers: res.headers,
              body: Buffer.concat(chunks),
              truncated,
              url: url.toString(),
            });
          res.on('data', (chunk: Buffer) => {
            if (truncated) return;
            const room = maxBytes - size;
            if (chunk.length > room) {
              chunks.push(chunk.subarray(0, room));
              size = maxBytes;
              truncated = true;
              // The rest is not read: the connection is dropped.
              res.destroy();
              finish();
              return;
            }
            chunks.push(chunk);
            size += chunk.length;
          });
          res.on('end', () => {
            if (!truncated) finish();
          });
          res.on('error', (err) => {
            if (!truncated) fail(err);
          });
        },
      );
      request.on('error', fail);
      request.end(req.body);
    });
  }

  /**
   * Sends one request, following redirects (each hop checked), within one deadline.
   * Throws OutboundError; an answer of any status is returned (check `ok`).
   */
  async function send(raw: string | URL, init: OutboundRequest = {}): Promise<OutboundResponse> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const deadline = new Promise<never>((_, fail) =>
      controller.signal.addEventListener('abort', () => fail(new OutboundError('timeout')), { once: true }),
    );
    deadline.catch(() => undefined);
    let method = (init.method ?? 'GET').toUpperCase();
    let headers: Record<string, string> = { ...init.headers };
    let body = init.body === undefined ? undefined : Buffer.from(init.body);
    let current: string | URL = raw;
    try {
      for (let redirects = 0; ; redirects++) {
        const checked = await Promise.race([check(current), deadline]);
        if (!checked.ok) throw new OutboundError(checked.reason);
        let res: OutboundResponse;
        try {
          res = await Promise.race([
            hop(checked.url, checked.addresses[0]!, { method, headers, body }, controller.signal),
            deadline,
          ]);
        } catch (err) {
          if (err instanceof OutboundError) throw err;
          throw new OutboundError(timedOut ? 'timeout' : 'network');
        }
        const location = res.headers.location;
        if (!REDIRECTS.has(res.status) || !location) return res;
        if (redirects >= maxRedirects) throw new OutboundError('too-many-redirects');
        let next: URL;
        try {
          next = new URL(location, checked.url);
        } catch {
          throw new OutboundError('invalid-url');
        }
        // As fetch does: 303 (and 301/302 after a POST) continue as GET without a body;
        // credentials are not carried to another origin.
        if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-/i.test(k)));
        }
        if (next.origin !== checked.url.origin) {
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^(authorization|cookie)$/i.test(k)));
        }
        current = next;
      }
    } catch (err) {
      if (err instanceof OutboundError) throw err;
      throw new OutboundError(timedOut ? 'timeout' : 'network');
    } finally {
      clearTimeout(timer);
    }
  }

  return { check, send };
}

/** The helper as the configuration sets it up (allow-list from OUTBOUND_ALLOW_HOSTS). */
export function outboundFromConfig(config: { outboundAllowHosts: readonly string[] }): Outbound {
  return createOutbound({ allow: config.outboundAllowHosts });
}
