import { ROBOT_LOG_PAYLOAD_MAX, ROBOT_LOG_SIZE, type RobotLog, type RobotLogEntry } from '@portal/contract';
import type { Clock } from '../../lib/time.ts';

/** A robot's message log is kept while its console asks for it, and this long after the last ask. */
export const LOG_WATCH_MS = 10 * 60_000;

/** The in-memory message log of one robot (only while an administrator's console watches it). */
interface RobotLogBuffer {
  entries: RobotLogEntry[];
  seq: number;
  until: number;
}

/** The console's message log: the last ROBOT_LOG_SIZE messages of each watched robot, in memory. */
export function createMessageLog(clock: Clock) {
  const logs = new Map<number, RobotLogBuffer>();
  return {
    /** Whether any robot is watched (recording costs nothing otherwise). */
    get watching(): boolean {
      return logs.size > 0;
    },
    /** Records a message from (`in`) or to (`out`) the robot, when its log is watched. */
    record(robotId: number, direction: 'in' | 'out', topic: string, payload: Buffer | string): void {
      const buf = logs.get(robotId);
      if (!buf) return;
      const now = clock().getTime();
      if (now > buf.until) {
        logs.delete(robotId);
        return;
      }
      let text = typeof payload === 'string' ? payload : payload.toString('utf8');
      const truncated = text.length > ROBOT_LOG_PAYLOAD_MAX;
      if (truncated) text = text.slice(0, ROBOT_LOG_PAYLOAD_MAX);
      buf.seq += 1;
      buf.entries.push({
        seq: buf.seq,
        at: new Date(now).toISOString(),
        direction,
        topic: topic.split('/').pop() ?? topic,
        payload: text,
        truncated,
      });
      if (buf.entries.length > ROBOT_LOG_SIZE) buf.entries.splice(0, buf.entries.length - ROBOT_LOG_SIZE);
    },
    /** The log after `after`; starts keeping it, or keeps it LOG_WATCH_MS longer. */
    watch(robotId: number, after?: number): RobotLog {
      const now = clock().getTime();
      let buf = logs.get(robotId);
      if (!buf || now > buf.until) {
        buf = { entries: [], seq: buf?.seq ?? 0, until: now + LOG_WATCH_MS };
        logs.set(robotId, buf);
      }
      buf.until = now + LOG_WATCH_MS;
      const from = after ?? 0;
      return { entries: buf.entries.filter((x) => x.seq > from), lastSeq: buf.seq };
    },
  };
}

export type MessageLog = ReturnType<typeof createMessageLog>;
