import { describe, expect, it } from 'vitest';
import { isValidIpRule } from '../src/ip.ts';

describe('isValidIpRule', () => {
  it.each([
    '192.0.2.10',
    '10.0.0.0/8',
    '0.0.0.0/0',
    '2001:db8::1',
    '2001:db8::/32',
    '::1',
    '::',
    '::ffff:192.0.2.1',
    'fe80:0:0:0:0:0:0:1/128',
    ' 192.0.2.1 ',
  ])('accepts %s', (v) => expect(isValidIpRule(v)).toBe(true));
  it.each([
    '',
    '256.1.1.1',
    '1.2.3',
    '01.2.3.4',
    '10.0.0.0/33',
    '2001:db8::/129',
    '1::2::3',
    'abc',
    '10.0.0.1/',
    '10.0.0.1/8/9',
    '12345::1',
    '1:2:3:4:5:6:7:8:9',
  ])('refuses %s', (v) => expect(isValidIpRule(v)).toBe(false));
});
