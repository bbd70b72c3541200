import { z } from 'zod';
import { mapSessionSchema } from './mapping.ts';
import { fleetRobotSchema, robotLiveSchema, robotPositionSchema } from './robots.ts';
import { teleopClientMessageSchemas, teleopServerMessageSchemas } from './teleop.ts';

/**
 * The browser's WebSocket (`GET {API_BASE}/ws`, docs/architecture-decisions.md "Browsers: one WebSocket per tab").
 * The first message authenticates with the session token (browsers cannot set headers on a
 * WebSocket, and a token in the URL would end up in logs). Then the client subscribes to topics;
 * each subscription is answered with a snapshot, then deltas. Position frames are coalesced per
 * client (latest wins); live-state changes are never dropped.
 */
export const WS_PATH = '/ws';
/** Largest client message (WebRTC offers carry a few KB of SDP). */
export const WS_MAX_MESSAGE_BYTES = 64 * 1024;
/** The server closes a socket that has not authenticated within this time. */
export const WS_AUTH_TIMEOUT_MS = 5_000;
/** Position frames are flushed to each client at most this often (latest wins). */
export const WS_POSE_FLUSH_MS = 50;

/** `fleet:all` (every robot the operator may see), `fleet:{buildingId}`, `robot:{robotId}`. */
export const wsTopicSchema = z.string().regex(/^(fleet:(all|\d{1,12})|robot:\d{1,12})$/);
export type WsTopic = z.infer<typeof wsTopicSchema>;
export const fleetTopic = (buildingId: number | null): WsTopic =>
  buildingId === null ? 'fleet:all' : `fleet:${buildingId}`;
export const robotTopic = (robotId: number): WsTopic => `robot:${robotId}`;

export const wsClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('auth'), token: z.string().min(1).max(200) }),
  z.object({ type: z.literal('subscribe'), topic: wsTopicSchema }),
  z.object({ type: z.literal('unsubscribe'), topic: wsTopicSchema }),
  z.object({ type: z.literal('ping') }),
  ...teleopClientMessageSchemas,
]);
export type WsClientMessage = z.infer<typeof wsClientMessageSchema>;

export const wsServerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), operatorId: z.number().int() }),
  /** The robots of a topic as they are now. */
  z.object({ type: z.literal('snapshot'), topic: wsTopicSchema, robots: z.array(fleetRobotSchema) }),
  /** A robot's live state changed (status, battery, activity, issues, floor, link). Never dropped. */
  z.object({ type: z.literal('live'), robotId: z.number().int(), live: robotLiveSchema }),
  /** Latest positions since the last frame, coalesced per robot. */
  z.object({
    type: z.literal('poses'),
    poses: z.array(
      z.object({
        robotId: z.number().int(),
        position: robotPositionSchema,
        /** The robot's own timestamp of this position. */
        at: z.string(),
      }),
    ),
  }),
  /** A robot's map creation or route recording changed (null: no session any more). */
  z.object({ type: z.literal('mapSession'), robotId: z.number().int(), session: mapSessionSchema.nullable() }),
  /** Robots were registered, edited or removed in this topic: take a new snapshot. */
  z.object({ type: z.literal('resync'), topic: wsTopicSchema }),
  z.object({ type: z.literal('pong') }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string(), topic: wsTopicSchema.optional() }),
  ...teleopServerMessageSchemas,
]);
export type WsServerMessage = z.infer<typeof wsServerMessageSchema>;
