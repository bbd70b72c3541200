/**
 * Teleoperation for simulated robots over WebRTC (`@roamhq/wrtc`, loaded on first use). A separate
 * entry point so that importing the simulator does not load the native module.
 */
export {
  webrtcTeleop,
  type TeleopEndpoint,
  type TeleopHost,
  type TeleopProvider,
  type WebrtcTeleopOptions,
} from './webrtc.ts';
export { loadWrtc } from './wrtc.ts';
