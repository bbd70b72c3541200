/**
 * Measuring helpers of `npm run bench:fleet`: a latency histogram (fixed memory, however many
 * samples) and what Linux tells about a process or the machine through /proc.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * Latencies in whole milliseconds (the robots' timestamps have millisecond resolution), 0 to
 * `maxMs`; longer ones land in the last bucket. Hundreds of thousands of samples a second cost one
 * increment each.
 */
export class Histogram {
  private readonly buckets: Uint32Array;
  count = 0;
  max = 0;
  private sum = 0;

  constructor(readonly maxMs = 60_000) {
    this.buckets = new Uint32Array(maxMs + 1);
  }

  add(ms: number): void {
    const v = ms < 0 ? 0 : ms > this.maxMs ? this.maxMs : Math.round(ms);
    this.buckets[v]!++;
    this.count++;
    this.sum += v;
    if (v > this.max) this.max = v;
  }

  mean(): number {
    return this.count === 0 ? Number.NaN : this.sum / this.count;
  }

  /** Nearest-rank percentile (ms). */
  percentile(p: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.max(1, Math.ceil((p / 100) * this.count));
    let seen = 0;
    for (let ms = 0; ms < this.buckets.length; ms++) {
      seen += this.buckets[ms]!;
      if (seen >= rank) return ms;
    }
    return this.maxMs;
  }
}

/** CPU time (user + system, ms) a process has used so far, from /proc/{pid}/stat; null if unknown. */
export function processCpuMs(pid: number | undefined): number | null {
  if (!pid || process.platform !== 'linux') return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After "(comm)": field 3 is the state; utime and stime are fields 14 and 15, in clock ticks (100/s).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** Resident set size now and its high-water mark (bytes), from /proc/{pid}/status; null if unknown. */
export function processMemory(pid: number | undefined): { rss: number; hwm: number } | null {
  if (!pid || process.platform !== 'linux') return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** Busy and total CPU time of the whole machine so far (all cores, clock ticks), from /proc/stat. */
export function machineCpu(): { busy: number; total: number } | null {
  if (process.platform !== 'linux') return null;
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const total = v.reduce((a, b) => a + b, 0);
    const idle = (v[3] ?? 0) + (v[4] ?? 0); // idle + iowait
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/** Share of the machine's CPUs that was busy between two readings, in % of all cores. */
export function machineBusyPercent(
  before: ReturnType<typeof machineCpu>,
  after: ReturnType<typeof machineCpu>,
): number {
  if (!before || !after || after.total === before.total) return Number.NaN;
  return ((after.busy - before.busy) / (after.total - before.total)) * 100;
}

export const cpuCount = () => os.cpus().length;

/** Ms since the epoch of an ISO timestamp, with a small cache (a fleet's messages of one tick share one). */
export function isoParser(): (iso: string) => number {
  const cache = new Map<string, number>();
  return (iso) => {
    let ms = cache.get(iso);
    if (ms === undefined) {
      if (cache.size > 2_000) cache.clear();
      ms = Date.parse(iso);
      cache.set(iso, ms);
    }
    return ms;
  };
}
