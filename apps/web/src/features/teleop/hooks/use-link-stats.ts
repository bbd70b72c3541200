import { useEffect, useState } from 'react';
import { readLinkStats, type LinkStats, type StatsSample } from '../lib/link-stats';
import type { TeleopSession } from '../lib/teleop-session';

const STATS_INTERVAL_MS = 1_000;

/** Connection quality, read from the peer every second while it is connected. */
export function useLinkStats(session: TeleopSession, connected: boolean): LinkStats | null {
  const [stats, setStats] = useState<LinkStats | null>(null);
  const [wasConnected, setWasConnected] = useState(connected);
  if (wasConnected !== connected) {
    setWasConnected(connected);
    if (!connected) setStats(null);
  }

  useEffect(() => {
    if (!connected) return;
    let previous: StatsSample | null = null;
    let cancelled = false;
    const timer = setInterval(() => {
      const pending = session.getStats();
      if (!pending) return;
      pending
        .then((report) => {
          if (cancelled) return;
          const next = readLinkStats(report, previous);
          previous = next.sample;
          setStats(next.stats);
        })
        .catch(() => undefined);
    }, STATS_INTERVAL_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [session, connected]);

  return stats;
}
