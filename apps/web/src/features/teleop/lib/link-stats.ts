/**
 * Connection quality from `RTCPeerConnection.getStats()`, sampled every second: round-trip time of
 * the selected candidate pair, video bitrate (bytes since the last sample), frame rate and packet
 * loss of the incoming video.
 */
export interface LinkStats {
  rttMs: number | null;
  bitrateKbps: number | null;
  fps: number | null;
  lossPercent: number | null;
}

/** What the next sample needs of this one. */
export interface StatsSample {
  timestamp: number;
  bytesReceived: number;
  packetsReceived: number;
  packetsLost: number;
}

type Entry = Record<string, unknown> & { type?: unknown; id?: unknown };

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function readLinkStats(
  report: ReadonlyMap<string, unknown>,
  previous: StatsSample | null,
): { stats: LinkStats; sample: StatsSample | null } {
  const entries: Entry[] = [];
  report.forEach((v) => {
    if (v && typeof v === 'object') entries.push(v as Entry);
  });
  const transport = entries.find((e) => e.type === 'transport' && typeof e.selectedCandidatePairId === 'string');
  const pair =
    entries.find((e) => e.type === 'candidate-pair' && e.id === transport?.selectedCandidatePairId) ??
    entries.find((e) => e.type === 'candidate-pair' && e.nominated === true && e.state === 'succeeded') ??
    entries.find((e) => e.type === 'candidate-pair' && e.state === 'succeeded');
  const rtt = num(pair?.currentRoundTripTime);
  const video = entries.find((e) => e.type === 'inbound-rtp' && (e.kind === 'video' || e.mediaType === 'video'));

  const stats: LinkStats = {
    rttMs: rtt === null ? null : Math.round(rtt * 1000),
    bitrateKbps: null,
    fps: null,
    lossPercent: null,
  };
  if (!video) return { stats, sample: null };

  const sample: StatsSample = {
    timestamp: num(video.timestamp) ?? 0,
    bytesReceived: num(video.bytesReceived) ?? 0,
    packetsReceived: num(video.packetsReceived) ?? 0,
    packetsLost: Math.max(0, num(video.packetsLost) ?? 0),
  };
  const fps = num(video.framesPerSecond);
  stats.fps = fps === null ? null : Math.round(fps * 10) / 10;
  const base = previous && sample.timestamp > previous.timestamp ? previous : null;
  if (base) {
    // Bits per millisecond are kilobits per second.
    stats.bitrateKbps = Math.round(
      ((sample.bytesReceived - base.bytesReceived) * 8) / (sample.timestamp - base.timestamp),
    );
  }
  const lost = sample.packetsLost - (base?.packetsLost ?? 0);
  const received = sample.packetsReceived - (base?.packetsReceived ?? 0);
  stats.lossPercent = lost + received > 0 ? Math.round((Math.max(0, lost) / (lost + received)) * 1000) / 10 : 0;
  return { stats, sample };
}
