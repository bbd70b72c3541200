import type { RobotLive, TeleopState } from '@portal/contract';

/**
 * The tele-operation state of spec section 4 shown by the badge: connecting until the peer is up,
 * then what the robot does (driving: running; paused; charging; otherwise stopped).
 */
export function teleopState(peerConnected: boolean, live: RobotLive | null): TeleopState {
  if (!peerConnected) return 'connecting';
  if (live?.activity === 'driving') return 'running';
  if (live?.activity === 'paused') return 'paused';
  if (live?.activity === 'charging' || live?.batteryState === 'charging') return 'charging';
  return 'stopped';
}

/** Issue codes shown as the emergency-stop banner rather than in the list. */
export const EMERGENCY_STOP = 'emergencyStop';
