import { z } from 'zod';

/**
 * Map creation by a robot and route recording (issue 5). A robot builds a floor map while it is
 * driven ("start mapping"): it publishes its occupancy grid on the custom topic `mapping`; the portal
 * shows it growing and, on "save", stores it as the floor's map image. Route recording: the portal
 * samples the robot's positions at the route point interval while it is driven, and saves them as
 * a recorded route. docs/robot-protocol.md describes the robot side.
 */

/** Custom instant actions the portal sends for mapping (parameters in docs/robot-protocol.md). */
export const MappingAction = {
  start: 'startMapping',
  pause: 'pauseMapping',
  resume: 'resumeMapping',
  stop: 'stopMapping',
} as const;

/** Custom robot → portal topic: `uagv/v2/{manufacturer}/{serialNumber}/mapping`. */
export const MAPPING_TOPIC = 'mapping';

/** Occupancy cell values (one byte per cell, row 0 at the bottom, as the map frame's y grows up). */
export const OCCUPANCY = { free: 0, occupied: 100, unknown: 255 } as const;

export const MAPPING_STATES = ['RECORDING', 'PAUSED', 'FINISHED', 'CANCELLED'] as const;
export const mappingStateSchema = z.enum(MAPPING_STATES);
export type MappingState = z.infer<typeof mappingStateSchema>;

/**
 * The robot's `mapping` message: its occupancy grid so far (at most every 2 s while mapping, and
 * once when it stops). `cells`: base64 of width × height bytes.
 */
export const mappingMessageSchema = z.looseObject({
  headerId: z.number().int().min(0),
  timestamp: z.string().min(1),
  version: z.string(),
  manufacturer: z.string().min(1),
  serialNumber: z.string().min(1),
  /** The `mapId` of the startMapping action (`floor-{floorId}`). */
  mapId: z.string().min(1),
  state: mappingStateSchema,
  resolution: z.number().positive().max(1),
  originX: z.number(),
  originY: z.number(),
  width: z.number().int().min(1).max(4000),
  height: z.number().int().min(1).max(4000),
  cells: z.string(),
});
export type MappingMessage = z.infer<typeof mappingMessageSchema>;

/** Default grid resolution a robot is asked to map at (metres per cell). */
export const MAPPING_RESOLUTION = 0.05;

// ---------------------------------------------------------------- portal API and WebSocket

export const MAP_SESSION_KINDS = ['mapping', 'recording'] as const;
/** The editor's states of spec section 4 for a session: recording, paused, resumed, saved. */
export const MAP_SESSION_STATES = ['recording', 'paused', 'resumed', 'saved', 'cancelled'] as const;
export type MapSessionState = (typeof MAP_SESSION_STATES)[number];

/** What the portal knows of a robot's mapping or route recording (GET, and WebSocket `mapSession`). */
export const mapSessionSchema = z.object({
  robotId: z.number().int(),
  floorId: z.number().int(),
  kind: z.enum(MAP_SESSION_KINDS),
  state: z.enum(MAP_SESSION_STATES),
  startedAt: z.string(),
  /** Mapping: the grid so far as a PNG data URL with its frame; null until the robot sent one. */
  map: z
    .object({
      image: z.string(),
      width: z.number().int(),
      height: z.number().int(),
      resolution: z.number(),
      originX: z.number(),
      originY: z.number(),
    })
    .nullable(),
  /** Recording: the sampled points so far (metres). */
  points: z.array(z.object({ x: z.number(), y: z.number() })),
  pointInterval: z.number().nullable(),
});
export type MapSession = z.infer<typeof mapSessionSchema>;

/** POST /robots/{id}/mapping: start mapping the floor. */
export const startMappingBodySchema = z.object({ floorId: z.number().int() });
/** POST /robots/{id}/route-recording: start recording a route on the floor. */
export const startRecordingBodySchema = z.object({
  floorId: z.number().int(),
  pointInterval: z.number().min(0.1, 'validation.range').max(5, 'validation.range'),
});
/** POST /robots/{id}/{mapping|route-recording}/{pause|resume} take no body. Stop: */
export const stopMappingBodySchema = z.object({ save: z.boolean() });
export const stopRecordingBodySchema = z.object({
  save: z.boolean(),
  /** The route's name when saved (required then). */
  name: z.string().trim().max(40, 'validation.max40').default(''),
});
