import type { RobotLogEntry } from '@portal/contract';
import { describe, expect, it } from 'vitest';
import { appendLog, clearLog, filterLog, noLogFilter, prettyPayload, topicName } from './log-buffer';

const e = (seq: number, topic = 'state', direction: 'in' | 'out' = 'in', payload = '{"a":1}'): RobotLogEntry => ({
  seq,
  at: '2026-03-01T00:00:00.000Z',
  direction,
  topic,
  payload,
  truncated: false,
});
const seqs = (entries: readonly RobotLogEntry[]) => entries.map((x) => x.seq);

describe('console log buffer', () => {
  it('appends new entries, skips ones already held and keeps the newest up to the limit', () => {
    let log = appendLog(undefined, { entries: [e(1), e(2)], lastSeq: 2 });
    log = appendLog(log, { entries: [e(2), e(3), e(4)], lastSeq: 4 }, 3);
    expect(seqs(log.entries)).toEqual([2, 3, 4]);
    expect(log.lastSeq).toBe(4);
    expect(log.missed).toBe(0);
  });

  it('answers the same log when nothing is new, and counts a gap as missed', () => {
    const log = appendLog(undefined, { entries: [e(1)], lastSeq: 1 });
    expect(appendLog(log, { entries: [], lastSeq: 1 })).toBe(log);
    const gap = appendLog(log, { entries: [e(5)], lastSeq: 5 });
    expect(gap.missed).toBe(3);
  });

  it('starts over when the server sequence goes back (the server restarted)', () => {
    const log = appendLog(undefined, { entries: [e(7), e(8)], lastSeq: 8 });
    const fresh = appendLog(log, { entries: [e(1)], lastSeq: 1 });
    expect(seqs(fresh.entries)).toEqual([1]);
    expect(fresh.lastSeq).toBe(1);
  });

  it('clears what is shown but keeps polling from the last sequence number', () => {
    const log = clearLog(appendLog(undefined, { entries: [e(1), e(2)], lastSeq: 2 }));
    expect(log).toEqual({ entries: [], lastSeq: 2, missed: 0 });
    expect(seqs(appendLog(log, { entries: [e(3)], lastSeq: 3 }).entries)).toEqual([3]);
  });

  it('filters by topic name, direction and text', () => {
    const all = [e(1, 'state'), e(2, 'uagv/v2/ugo/UGO-1/order', 'out', '{"orderId":"X-9"}'), e(3, 'visualization')];
    expect(filterLog(all, noLogFilter)).toBe(all);
    expect(seqs(filterLog(all, { ...noLogFilter, topics: ['order', 'state'] }))).toEqual([1, 2]);
    expect(seqs(filterLog(all, { ...noLogFilter, direction: 'in' }))).toEqual([1, 3]);
    expect(seqs(filterLog(all, { ...noLogFilter, search: 'x-9' }))).toEqual([2]);
    expect(topicName('uagv/v2/ugo/UGO-1/order')).toBe('order');
  });

  it('pretty-prints whole JSON payloads and leaves cut ones as received', () => {
    expect(prettyPayload({ payload: '{"a":1}', truncated: false })).toBe('{\n  "a": 1\n}');
    expect(prettyPayload({ payload: '{"a":1', truncated: true })).toBe('{"a":1');
    expect(prettyPayload({ payload: 'not json', truncated: false })).toBe('not json');
  });
});
