/**
 * IP allow-list rules: an IPv4 or IPv6 address, or a CIDR block of either (/0–/32, /0–/128).
 * Pure, so the server and the forms check rules with the same code.
 */
const IPV4_PART = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

export function isIpv4(s: string): boolean {
  const parts = s.split('.');
  return parts.length === 4 && parts.every((p) => IPV4_PART.test(p));
}

export function isIpv6(s: string): boolean {
  if (s.length === 0 || s.length > 45) return false;
  let head = s;
  let groupsForV4 = 0;
  // An embedded IPv4 address may end the address (::ffff:192.0.2.1).
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    if (!isIpv4(s.slice(lastColon + 1))) return false;
    head = s.slice(0, lastColon + 1) + '0';
    groupsForV4 = 1;
  }
  const halves = head.split('::');
  if (halves.length > 2) return false;
  const group = /^[0-9a-fA-F]{1,4}$/;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const parts = halves.flatMap(groups);
  if (!parts.every((p) => group.test(p))) return false;
  const count = parts.length + groupsForV4;
  return halves.length === 2 ? count <= 7 : count === 8;
}

export function isValidIpRule(address: string): boolean {
  const [ip, prefix, ...rest] = address.trim().split('/');
  if (!ip || rest.length > 0) return false;
  const family = isIpv4(ip) ? 4 : isIpv6(ip) ? 6 : 0;
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  const bits = Number(prefix);
  return bits >= 0 && bits <= (family === 4 ? 32 : 128);
}
