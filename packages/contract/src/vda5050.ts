import { z } from 'zod';

/**
 * VDA 5050 messages (versions 2.0 and 2.1, JSON over MQTT 3.1.1): the subset the portal and its
 * simulator speak. The official JSON schemas (packages/contract/vda5050/) are the reference; unit tests check
 * every message built here against them. Unknown fields are kept (the standard allows extensions),
 * so a robot of a newer minor version still parses.
 *
 * Topic: `{interfaceName}/v2/{manufacturer}/{serialNumber}/{topic}`.
 */
export const VDA_INTERFACE_NAME = 'uagv';
export const VDA_MAJOR = 'v2';
export const VDA_VERSIONS = ['2.0.0', '2.1.0'] as const;
export type VdaVersion = (typeof VDA_VERSIONS)[number];
export const VDA_TOPICS = ['order', 'instantActions', 'state', 'visualization', 'connection', 'factsheet'] as const;
export type VdaTopic = (typeof VDA_TOPICS)[number];
/** Topics a robot publishes (the portal subscribes to them) and topics it subscribes to. */
export const ROBOT_PUBLISHES: readonly VdaTopic[] = ['state', 'visualization', 'connection', 'factsheet'];
export const ROBOT_SUBSCRIBES: readonly VdaTopic[] = ['order', 'instantActions'];

/** `uagv/v2/{manufacturer}/{serialNumber}/{topic}` */
export const vdaTopic = (manufacturer: string, serialNumber: string, topic: VdaTopic): string =>
  `${VDA_INTERFACE_NAME}/${VDA_MAJOR}/${manufacturer}/${serialNumber}/${topic}`;

/** Splits a topic into its parts, or null when it is not a VDA 5050 robot topic. */
export function parseVdaTopic(topic: string): { manufacturer: string; serialNumber: string; topic: VdaTopic } | null {
  const parts = topic.split('/');
  if (parts.length !== 5 || parts[0] !== VDA_INTERFACE_NAME || parts[1] !== VDA_MAJOR) return null;
  const [, , manufacturer, serialNumber, name] = parts as [string, string, string, string, string];
  if (!manufacturer || !serialNumber || !(VDA_TOPICS as readonly string[]).includes(name)) return null;
  return { manufacturer, serialNumber, topic: name as VdaTopic };
}

const header = {
  headerId: z.number().int().min(0),
  timestamp: z.string().min(1),
  version: z.string().regex(/^2\.\d+\.\d+$/),
  manufacturer: z.string().min(1),
  serialNumber: z.string().min(1),
};

const finite = z.number().refine(Number.isFinite);

export const actionParameterSchema = z.looseObject({
  key: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.unknown()), z.record(z.string(), z.unknown())]),
});
export const blockingTypeSchema = z.enum(['NONE', 'SOFT', 'HARD']);
export const actionSchema = z.looseObject({
  actionType: z.string().min(1),
  actionId: z.string().min(1),
  actionDescription: z.string().optional(),
  blockingType: blockingTypeSchema,
  actionParameters: z.array(actionParameterSchema).optional(),
});
export type VdaAction = z.infer<typeof actionSchema>;

export const nodePositionSchema = z.looseObject({
  x: finite,
  y: finite,
  theta: finite.optional(),
  allowedDeviationXY: z.number().min(0).optional(),
  allowedDeviationTheta: z.number().min(0).optional(),
  mapId: z.string(),
  mapDescription: z.string().optional(),
});

export const orderNodeSchema = z.looseObject({
  nodeId: z.string().min(1),
  sequenceId: z.number().int().min(0),
  nodeDescription: z.string().optional(),
  released: z.boolean(),
  nodePosition: nodePositionSchema.optional(),
  actions: z.array(actionSchema),
});
export type OrderNode = z.infer<typeof orderNodeSchema>;

export const orderEdgeSchema = z.looseObject({
  edgeId: z.string().min(1),
  sequenceId: z.number().int().min(0),
  edgeDescription: z.string().optional(),
  released: z.boolean(),
  startNodeId: z.string().min(1),
  endNodeId: z.string().min(1),
  maxSpeed: z.number().min(0).optional(),
  orientation: z.number().optional(),
  actions: z.array(actionSchema),
});
export type OrderEdge = z.infer<typeof orderEdgeSchema>;

export const orderSchema = z.looseObject({
  ...header,
  orderId: z.string().min(1),
  orderUpdateId: z.number().int().min(0),
  zoneSetId: z.string().optional(),
  nodes: z.array(orderNodeSchema).min(1),
  edges: z.array(orderEdgeSchema),
});
export type VdaOrder = z.infer<typeof orderSchema>;

/**
 * 2.1 names the field `actionType`; the official 2.0 instantActions schema names it `actionName`.
 * The portal sends both in 2.0 so a robot that follows either reading understands it.
 */
export const instantActionSchema = actionSchema.extend({ actionName: z.string().optional() });
export const instantActionsSchema = z.looseObject({
  ...header,
  actions: z.array(instantActionSchema),
});
export type VdaInstantActions = z.infer<typeof instantActionsSchema>;

export const agvPositionSchema = z.looseObject({
  x: finite,
  y: finite,
  theta: finite,
  mapId: z.string(),
  mapDescription: z.string().optional(),
  positionInitialized: z.boolean(),
  localizationScore: z.number().min(0).max(1).optional(),
  deviationRange: z.number().optional(),
});
export type AgvPosition = z.infer<typeof agvPositionSchema>;

export const velocitySchema = z.looseObject({ vx: finite.optional(), vy: finite.optional(), omega: finite.optional() });

export const actionStatusSchema = z.enum(['WAITING', 'INITIALIZING', 'RUNNING', 'PAUSED', 'FINISHED', 'FAILED']);
export type ActionStatus = z.infer<typeof actionStatusSchema>;
export const errorLevelSchema = z.enum(['WARNING', 'FATAL']);
export const eStopSchema = z.enum(['AUTOACK', 'MANUAL', 'REMOTE', 'NONE']);
export const operatingModeSchema = z.enum(['AUTOMATIC', 'SEMIAUTOMATIC', 'MANUAL', 'SERVICE', 'TEACHIN']);

const reference = z.looseObject({ referenceKey: z.string(), referenceValue: z.string() });
export const vdaErrorSchema = z.looseObject({
  errorType: z.string(),
  errorReferences: z.array(reference).optional(),
  errorDescription: z.string().optional(),
  errorLevel: errorLevelSchema,
});
export type VdaError = z.infer<typeof vdaErrorSchema>;
export const vdaInfoSchema = z.looseObject({
  infoType: z.string(),
  infoReferences: z.array(z.looseObject({ referenceKey: z.string(), referenceValue: z.string() })).optional(),
  infoDescription: z.string().optional(),
  infoLevel: z.enum(['INFO', 'DEBUG']),
});

export const batteryStateSchema = z.looseObject({
  batteryCharge: finite,
  batteryVoltage: finite.optional(),
  batteryHealth: z.number().min(0).max(100).optional(),
  charging: z.boolean(),
  reach: z.number().min(0).optional(),
});

export const nodeStateSchema = z.looseObject({
  nodeId: z.string(),
  sequenceId: z.number().int(),
  nodeDescription: z.string().optional(),
  nodePosition: nodePositionSchema.optional(),
  released: z.boolean(),
});
export const edgeStateSchema = z.looseObject({
  edgeId: z.string(),
  sequenceId: z.number().int(),
  edgeDescription: z.string().optional(),
  released: z.boolean(),
});
export const actionStateSchema = z.looseObject({
  actionId: z.string(),
  actionType: z.string().optional(),
  actionDescription: z.string().optional(),
  actionStatus: actionStatusSchema,
  resultDescription: z.string().optional(),
});
export type ActionState = z.infer<typeof actionStateSchema>;

export const stateSchema = z.looseObject({
  ...header,
  maps: z
    .array(z.looseObject({ mapId: z.string(), mapVersion: z.string(), mapStatus: z.enum(['ENABLED', 'DISABLED']) }))
    .optional(),
  orderId: z.string(),
  orderUpdateId: z.number().int().min(0),
  zoneSetId: z.string().optional(),
  lastNodeId: z.string(),
  lastNodeSequenceId: z.number().int().min(0),
  driving: z.boolean(),
  paused: z.boolean().optional(),
  newBaseRequest: z.boolean().optional(),
  distanceSinceLastNode: z.number().optional(),
  operatingMode: operatingModeSchema,
  nodeStates: z.array(nodeStateSchema),
  edgeStates: z.array(edgeStateSchema),
  agvPosition: agvPositionSchema.optional(),
  velocity: velocitySchema.optional(),
  loads: z.array(z.looseObject({})).optional(),
  actionStates: z.array(actionStateSchema),
  batteryState: batteryStateSchema,
  errors: z.array(vdaErrorSchema),
  information: z.array(vdaInfoSchema).optional(),
  safetyState: z.looseObject({ eStop: eStopSchema, fieldViolation: z.boolean() }),
});
export type VdaState = z.infer<typeof stateSchema>;

export const visualizationSchema = z.looseObject({
  ...header,
  agvPosition: agvPositionSchema.optional(),
  velocity: velocitySchema.optional(),
});
export type VdaVisualization = z.infer<typeof visualizationSchema>;

export const connectionStateSchema = z.enum(['ONLINE', 'OFFLINE', 'CONNECTIONBROKEN']);
export const connectionSchema = z.looseObject({ ...header, connectionState: connectionStateSchema });
export type VdaConnection = z.infer<typeof connectionSchema>;

/** The part of the factsheet the portal reads (model and capabilities); the rest passes through. */
export const factsheetSchema = z.looseObject({
  ...header,
  typeSpecification: z.looseObject({
    seriesName: z.string(),
    seriesDescription: z.string().optional(),
    agvKinematic: z.string(),
    agvClass: z.string(),
    maxLoadMass: z.number(),
    localizationTypes: z.array(z.string()),
    navigationTypes: z.array(z.string()),
  }),
  physicalParameters: z.looseObject({
    speedMin: z.number(),
    speedMax: z.number(),
    accelerationMax: z.number(),
    decelerationMax: z.number(),
    heightMin: z.number().optional(),
    heightMax: z.number(),
    width: z.number(),
    length: z.number(),
  }),
  protocolLimits: z.looseObject({}),
  protocolFeatures: z.looseObject({
    optionalParameters: z.array(z.looseObject({})),
    agvActions: z.array(
      z.looseObject({
        actionType: z.string(),
        actionDescription: z.string().optional(),
        actionScopes: z.array(z.enum(['INSTANT', 'NODE', 'EDGE'])),
      }),
    ),
  }),
  agvGeometry: z.looseObject({}),
  loadSpecification: z.looseObject({}),
  localizationParameters: z.looseObject({}).optional(),
});
export type VdaFactsheet = z.infer<typeof factsheetSchema>;

export const vdaSchemas = {
  order: orderSchema,
  instantActions: instantActionsSchema,
  state: stateSchema,
  visualization: visualizationSchema,
  connection: connectionSchema,
  factsheet: factsheetSchema,
} as const;

/**
 * Instant actions the portal sends. The standard ones (startPause, stopPause, cancelOrder,
 * factsheetRequest, stateRequest) plus the portal's custom ones, documented in docs/robot-protocol.md.
 */
export const STANDARD_INSTANT_ACTIONS = [
  'startPause',
  'stopPause',
  'cancelOrder',
  'factsheetRequest',
  'stateRequest',
] as const;

/**
 * Error types the portal understands in `state.errors[].errorType`. The spec's robot messages
 * (section 8) and flow codes (F0001..F0007, D0001) travel as error types.
 */
export const RobotErrorType = {
  emergencyStop: 'emergencyStop',
  hardwareError: 'hardwareError',
  lowBattery: 'lowBattery',
  motorTemperatureHigh: 'motorTemperatureHigh',
  obstacleOnRoute: 'F0007',
} as const;
