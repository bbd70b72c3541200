import { FACTSHEET_CAMERAS_KEY } from '@portal/contract';
import type {
  CameraId,
  KnownRobotModel,
  VdaConnection,
  VdaError,
  VdaFactsheet,
  VdaState,
  VdaVersion,
  ActionState,
  AgvPosition,
} from '@portal/contract';
import { MODEL_SPECS, SIM_INSTANT_ACTIONS, SIM_MAPPING_ACTIONS } from './models.ts';
import type { FeatureAction } from './features.ts';

/**
 * Pure builders of the messages a simulated robot publishes. They follow the official JSON schemas
 * of both versions (2.0.0 and 2.1.0); apps/robot-sim/test/schemas.test.ts checks them.
 */
export interface Header {
  headerId: number;
  timestamp: string;
  version: VdaVersion;
  manufacturer: string;
  serialNumber: string;
}

/** ISO-8601 in UTC with 'Z', as the standard asks. */
export const isoNow = (): string => new Date().toISOString();

export type ConnectionState = VdaConnection['connectionState'];

export const connectionMessage = (h: Header, connectionState: ConnectionState): VdaConnection => ({
  ...h,
  connectionState,
});

export function factsheetMessage(
  h: Header,
  model: KnownRobotModel,
  orderActions: readonly string[],
  features: { actions: readonly FeatureAction[]; cameras: readonly CameraId[] } = { actions: [], cameras: [] },
): VdaFactsheet {
  const m = MODEL_SPECS[model];
  // No `blockingTypes`: the official 2.1.0 schema puts its enum on the array itself, so no value passes.
  const instant = SIM_INSTANT_ACTIONS.map((actionType) => ({ actionType, actionScopes: ['INSTANT' as const] }));
  const mapping = SIM_MAPPING_ACTIONS.map((a) => ({
    ...a,
    actionParameters: a.actionParameters.map((p) => ({ ...p })),
    actionScopes: ['INSTANT' as const],
  }));
  const nodeEdge = orderActions.map((actionType) => ({ actionType, actionScopes: ['NODE' as const, 'EDGE' as const] }));
  const custom = features.actions.map((a) => ({
    ...a,
    actionParameters: a.actionParameters.map((p) => ({ ...p })),
    actionScopes: [...a.actionScopes],
  }));
  return {
    ...h,
    typeSpecification: {
      seriesName: m.seriesName,
      seriesDescription: m.seriesDescription,
      agvKinematic: 'DIFF',
      agvClass: 'CARRIER',
      maxLoadMass: 0,
      localizationTypes: ['NATURAL'],
      navigationTypes: ['AUTONOMOUS'],
    },
    physicalParameters: {
      speedMin: m.speedMin,
      speedMax: m.speedMax,
      accelerationMax: m.accelerationMax,
      decelerationMax: m.decelerationMax,
      heightMin: m.heightMin,
      heightMax: m.heightMax,
      width: m.width,
      length: m.length,
    },
    protocolLimits: {
      maxStringLens: {},
      maxArrayLens: {},
      timing: { minOrderInterval: 0.1, minStateInterval: 0.05, defaultStateInterval: 5, visualizationInterval: 0.2 },
    },
    protocolFeatures: {
      optionalParameters: [],
      agvActions: [...instant, ...mapping, ...custom, ...nodeEdge],
    },
    agvGeometry: {},
    loadSpecification: {},
    // Extension (docs/robot-protocol.md section 6): the robot's cameras.
    [FACTSHEET_CAMERAS_KEY]: [...features.cameras],
  };
}

/** What the state message reports; `stateMessage` adds the header and the version quirks. */
export interface StateBody {
  orderId: string;
  orderUpdateId: number;
  zoneSetId?: string | undefined;
  lastNodeId: string;
  lastNodeSequenceId: number;
  driving: boolean;
  paused: boolean;
  newBaseRequest: boolean;
  nodeStates: VdaState['nodeStates'];
  edgeStates: VdaState['edgeStates'];
  agvPosition: AgvPosition;
  vx: number;
  omega: number;
  actionStates: ActionState[];
  batteryCharge: number;
  charging: boolean;
  errors: VdaError[];
  eStop: boolean;
  fieldViolation: boolean;
  information?: VdaState['information'];
  operatingMode?: VdaState['operatingMode'];
}

export function stateMessage(h: Header, b: StateBody): VdaState {
  const msg: VdaState = {
    ...h,
    orderId: b.orderId,
    orderUpdateId: b.orderUpdateId,
    lastNodeId: b.lastNodeId,
    lastNodeSequenceId: b.lastNodeSequenceId,
    driving: b.driving,
    paused: b.paused,
    newBaseRequest: b.newBaseRequest,
    operatingMode: b.operatingMode ?? 'AUTOMATIC',
    nodeStates: b.nodeStates,
    edgeStates: b.edgeStates,
    agvPosition: b.agvPosition,
    velocity: { vx: b.vx, vy: 0, omega: b.omega },
    actionStates: b.actionStates,
    batteryState: { batteryCharge: b.batteryCharge, charging: b.charging },
    errors: b.errors,
    safetyState: { eStop: b.eStop ? 'MANUAL' : 'NONE', fieldViolation: b.fieldViolation },
  };
  if (b.zoneSetId !== undefined) msg.zoneSetId = b.zoneSetId;
  if (b.information !== undefined) msg.information = b.information;
  return msg;
}

/** A node state as reported; 2.0 requires `theta` in a reported nodePosition, so it is left out without one. */
export function nodeStateOf(
  version: VdaVersion,
  n: {
    nodeId: string;
    sequenceId: number;
    released: boolean;
    nodeDescription?: string | undefined;
    nodePosition?: { x: number; y: number; theta?: number | undefined; mapId: string } | undefined;
  },
): VdaState['nodeStates'][number] {
  const s: VdaState['nodeStates'][number] = { nodeId: n.nodeId, sequenceId: n.sequenceId, released: n.released };
  if (n.nodeDescription !== undefined) s.nodeDescription = n.nodeDescription;
  const p = n.nodePosition;
  if (p && (p.theta !== undefined || version !== '2.0.0')) {
    s.nodePosition = { x: p.x, y: p.y, mapId: p.mapId };
    if (p.theta !== undefined) s.nodePosition.theta = p.theta;
  }
  return s;
}

/** The constant part of every header of one robot, as JSON, for the hot path. */
export const headerTailJson = (version: VdaVersion, manufacturer: string, serialNumber: string): string =>
  `"version":${JSON.stringify(version)},"manufacturer":${JSON.stringify(manufacturer)},"serialNumber":${JSON.stringify(serialNumber)}`;

/**
 * The visualization message as JSON text, built without intermediate objects: a fleet of 1,000
 * robots sends 5,000 of these a second. `mapIdJson` is the JSON-encoded map id.
 */
export function visualizationJson(
  headerId: number,
  timestamp: string,
  headerTail: string,
  x: number,
  y: number,
  theta: number,
  mapIdJson: string,
  vx: number,
  omega: number,
): string {
  return (
    `{"headerId":${headerId},"timestamp":"${timestamp}",${headerTail},` +
    `"agvPosition":{"x":${x},"y":${y},"theta":${theta},"mapId":${mapIdJson},"positionInitialized":true},` +
    `"velocity":{"vx":${vx},"vy":0,"omega":${omega}}}`
  );
}
