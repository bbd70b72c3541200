import { BlockList, isIP } from 'node:net';
import { isValidIpRule } from '@portal/contract';

export { isValidIpRule };

/** Strips the IPv4-mapped IPv6 prefix so `::ffff:10.0.0.1` matches a rule for `10.0.0.1`. */
export const normalizeIp = (ip: string): string =>
  ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;

/** True when `ip` matches one of the allow-list rules. */
export function ipAllowed(ip: string, rules: readonly string[]): boolean {
  const list = new BlockList();
  for (const rule of rules) {
    if (!isValidIpRule(rule)) continue;
    const [addr, prefix] = rule.trim().split('/') as [string, string | undefined];
    const family = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(addr, family);
    else list.addSubnet(addr, Number(prefix), family);
  }
  const candidate = normalizeIp(ip);
  const family = isIP(candidate);
  if (family === 0) return false;
  return list.check(candidate, family === 6 ? 'ipv6' : 'ipv4');
}
