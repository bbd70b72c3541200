/**
 * Live updates over the tab's one WebSocket: the client (client.ts: auth, reference-counted topics,
 * resubscribe with backoff), the teleop channel on it (teleop-channel.ts), the tab's instance
 * following the session (tab-client.ts), the provider through which components get a client
 * (provider.tsx; tests give a FakeRealtime, testing/fake-realtime.ts) and the hooks (hooks.ts).
 */
export {
  RealtimeClient,
  realtimeUrl,
  type ConnectionState,
  type Realtime,
  type RealtimeOptions,
  type SocketFactory,
  type TopicListener,
} from './client';
export {
  isTeleopMessage,
  TeleopChannel,
  type TeleopClientMessage,
  type TeleopLink,
  type TeleopLinkListener,
  type TeleopServerMessage,
} from './teleop-channel';
export { realtime } from './tab-client';
export { RealtimeProvider, useRealtime } from './provider';
export { applyFleetMessage, useFleet, useMapSession, useRealtimeStatus, type FleetState } from './hooks';
