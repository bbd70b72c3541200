import { describe, expect, it } from 'vitest';
import { fleetRobot } from '../testing/fixtures';
import { readLinkStats } from './link-stats';
import { teleopState } from './teleop-state';

const report = (entries: Array<Record<string, unknown>>) => new Map(entries.map((e) => [String(e.id), e]));

describe('link stats', () => {
  it('reads the round trip of the selected pair, the bitrate since the last sample, frame rate and loss', () => {
    const first = readLinkStats(
      report([
        { id: 'T1', type: 'transport', selectedCandidatePairId: 'CP2' },
        { id: 'CP1', type: 'candidate-pair', state: 'succeeded', currentRoundTripTime: 0.5 },
        { id: 'CP2', type: 'candidate-pair', state: 'succeeded', currentRoundTripTime: 0.0424 },
        {
          id: 'IV',
          type: 'inbound-rtp',
          kind: 'video',
          timestamp: 10_000,
          bytesReceived: 1_000_000,
          packetsReceived: 900,
          packetsLost: 100,
          framesPerSecond: 9.96,
        },
      ]),
      null,
    );
    expect(first.stats).toEqual({ rttMs: 42, bitrateKbps: null, fps: 10, lossPercent: 10 });
    const second = readLinkStats(
      report([
        { id: 'CP2', type: 'candidate-pair', nominated: true, state: 'succeeded', currentRoundTripTime: 0.03 },
        {
          id: 'IV',
          type: 'inbound-rtp',
          kind: 'video',
          timestamp: 11_000,
          bytesReceived: 1_250_000,
          packetsReceived: 1_098,
          packetsLost: 102,
          framesPerSecond: 12,
        },
      ]),
      first.sample,
    );
    expect(second.stats).toEqual({ rttMs: 30, bitrateKbps: 2000, fps: 12, lossPercent: 1 });
  });

  it('is empty before media flows', () => {
    expect(readLinkStats(new Map(), null).stats).toEqual({
      rttMs: null,
      bitrateKbps: null,
      fps: null,
      lossPercent: null,
    });
  });
});

describe('tele-operation state', () => {
  const live = (activity: 'idle' | 'driving' | 'paused' | 'charging') => fleetRobot({ activity }).live;
  it('is connecting until the peer is connected, then follows the robot', () => {
    expect(teleopState(false, live('driving'))).toBe('connecting');
    expect(teleopState(true, live('driving'))).toBe('running');
    expect(teleopState(true, live('paused'))).toBe('paused');
    expect(teleopState(true, live('charging'))).toBe('charging');
    expect(teleopState(true, live('idle'))).toBe('stopped');
    expect(teleopState(true, null)).toBe('stopped');
  });
});
