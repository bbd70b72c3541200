import type { RobotLog, RobotLogEntry } from '@portal/contract';

/** The console keeps at most this many messages (the oldest go first). */
export const CLIENT_LOG_LIMIT = 1_000;

/** The message log as the console holds it. */
export interface ConsoleLog {
  entries: readonly RobotLogEntry[];
  /** The last sequence number seen: the next poll asks for what came after it. */
  lastSeq: number;
  /** Messages the server dropped before they were fetched (its log holds only the latest few hundred). */
  missed: number;
}

/**
 * Adds a page of the server's log to what the console holds. Entries already held are skipped; a
 * gap in the sequence counts as missed; a sequence that went back means the server started a new
 * log (it restarted), which replaces the old one.
 */
export function appendLog(current: ConsoleLog | undefined, page: RobotLog, limit = CLIENT_LOG_LIMIT): ConsoleLog {
  if (!current || page.lastSeq < current.lastSeq) {
    return { entries: page.entries.slice(-limit), lastSeq: page.lastSeq, missed: 0 };
  }
  const fresh = page.entries.filter((e) => e.seq > current.lastSeq);
  const first = fresh[0];
  if (!first) return page.lastSeq === current.lastSeq ? current : { ...current, lastSeq: page.lastSeq };
  const missed = current.missed + Math.max(0, first.seq - current.lastSeq - 1);
  const all = current.entries.concat(fresh);
  return {
    entries: all.length > limit ? all.slice(all.length - limit) : all,
    lastSeq: Math.max(page.lastSeq, fresh[fresh.length - 1]!.seq),
    missed,
  };
}

/** Empties the log shown; polling goes on after the last sequence number seen. */
export const clearLog = (log: ConsoleLog): ConsoleLog => ({ entries: [], lastSeq: log.lastSeq, missed: 0 });

/** Topics a VDA 5050 robot and the portal exchange (docs/robot-protocol.md), offered as filters. */
export const KNOWN_TOPICS = [
  'state',
  'visualization',
  'connection',
  'factsheet',
  'order',
  'instantActions',
  'teleop',
  'teleopReply',
  'mapping',
  'photo',
] as const;

/** The last level of an MQTT topic (`uagv/v2/ugo/SN/state` -> `state`): the server may send either. */
export const topicName = (topic: string): string => topic.slice(topic.lastIndexOf('/') + 1) || topic;

export interface LogFilter {
  /** Topic names to show; empty shows all. */
  topics: readonly string[];
  direction: 'all' | RobotLogEntry['direction'];
  /** Case-insensitive text in the topic or payload. */
  search: string;
}

export const noLogFilter: LogFilter = { topics: [], direction: 'all', search: '' };

export function filterLog(entries: readonly RobotLogEntry[], filter: LogFilter): readonly RobotLogEntry[] {
  const search = filter.search.trim().toLowerCase();
  if (filter.topics.length === 0 && filter.direction === 'all' && !search) return entries;
  const topics = new Set(filter.topics);
  return entries.filter(
    (e) =>
      (topics.size === 0 || topics.has(topicName(e.topic))) &&
      (filter.direction === 'all' || e.direction === filter.direction) &&
      (!search || e.topic.toLowerCase().includes(search) || e.payload.toLowerCase().includes(search)),
  );
}

/** The payload pretty-printed when it is whole JSON; as received otherwise (cut or not JSON). */
export function prettyPayload(entry: Pick<RobotLogEntry, 'payload' | 'truncated'>): string {
  if (entry.truncated) return entry.payload;
  try {
    return JSON.stringify(JSON.parse(entry.payload), null, 2);
  } catch {
    return entry.payload;
  }
}
