import { describe, expect, it } from 'vitest';
import { formatYmd } from './format';
import { initials } from './initials';
import { safeRedirect } from './safe-redirect';

describe('initials', () => {
  it('take the last name first, then the first name', () => {
    expect(initials('Yamada', 'Hanako')).toBe('YH');
    expect(initials('山田', '花子')).toBe('山花');
    expect(initials(' smith', 'john')).toBe('SJ');
    expect(initials('', 'Taro')).toBe('T');
  });
});

describe('safeRedirect', () => {
  it('keeps same-origin relative paths', () => {
    expect(safeRedirect('/my/messages/2?x=1')).toBe('/my/messages/2?x=1');
  });
  it.each([
    null,
    '',
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    'javascript:alert(1)',
    '/auth/login',
  ])('sends %s to robot control', (target) => {
    expect(safeRedirect(target)).toBe('/robot/control');
  });
});

describe('formatYmd', () => {
  it('uses the zone asked for, the same in both languages', () => {
    expect(formatYmd('2026-03-31T16:00:00.000Z', 'ja', { timeZone: 'Asia/Tokyo' })).toBe('2026-04-01');
    expect(formatYmd('2026-03-31T16:00:00.000Z', 'en', { timeZone: 'Asia/Tokyo' })).toBe('2026-04-01');
    expect(formatYmd('2026-03-31T16:00:00.000Z', 'ja', { timeZone: 'UTC' })).toBe('2026-03-31');
  });
});
