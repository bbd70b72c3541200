import { describe, expect, it } from 'vitest';
import { formatDateTime, formatYmd, formatZone, resolvedZone } from './format';

/** One zone for both languages: the one asked for (a building's), else the browser's; always stated. */
describe('formatDateTime', () => {
  const at = '2026-03-31T16:05:00.000Z';

  it('shows a building’s zone in both languages, with its short name', () => {
    expect(formatDateTime(at, 'ja', { timeZone: 'Asia/Tokyo' })).toBe('2026/04/01 01:05 JST');
    expect(formatDateTime(at, 'en', { timeZone: 'Asia/Tokyo' })).toBe('Apr 1, 2026, 1:05 AM GMT+9');
    expect(formatDateTime(at, 'en', { timeZone: 'America/New_York' })).toBe('Mar 31, 2026, 12:05 PM EDT');
  });

  it('shows the browser’s zone in both languages when no zone is asked for (not Tokyo for Japanese)', () => {
    const browser = resolvedZone();
    for (const lang of ['ja', 'en'] as const)
      expect(formatDateTime(at, lang)).toBe(formatDateTime(at, lang, { timeZone: browser }));
    // The test machine's zone is not Tokyo's, so Japanese no longer means Tokyo time.
    if (browser !== 'Asia/Tokyo') expect(formatDateTime(at, 'ja')).not.toContain('JST');
  });

  it('falls back to the browser’s zone for a zone the browser does not know, and keeps bad input as written', () => {
    expect(formatDateTime(at, 'en', { timeZone: 'Mars/Olympus' })).toBe(formatDateTime(at, 'en'));
    expect(formatDateTime('not a time', 'ja')).toBe('not a time');
  });
});

describe('formatZone', () => {
  it('names the zone and its short name for captions', () => {
    expect(formatZone('en', 'Asia/Tokyo')).toBe('Asia/Tokyo (GMT+9)');
    expect(formatZone('ja', 'Asia/Tokyo')).toBe('Asia/Tokyo (JST)');
    expect(formatZone('en', 'UTC')).toBe('UTC');
    expect(formatZone('en')).toContain(resolvedZone());
  });
});

describe('formatYmd', () => {
  it('shows a date without a time as it is, in any zone', () => {
    expect(formatYmd('2027-03-31', 'en', { timeZone: 'America/Los_Angeles' })).toBe('2027-03-31');
  });
});
