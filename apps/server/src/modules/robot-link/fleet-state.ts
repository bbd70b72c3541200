import {
  floorIdOfMap,
  LOW_BATTERY_PERCENT,
  robotStatusLabel,
  type BatteryStateLabel,
  type OrderLabel,
  type OrderResultStatus,
  type RobotActivity,
  type RobotIssue,
  type RobotLive,
  type RobotPosition,
  type RobotStatusCodeValue,
  type RobotTeleopInfo,
  type VdaFactsheet,
  type VdaState,
  type VideoMode,
} from '@portal/contract';

/** The registry facts of one robot, as the link mirrors them (registry-repo.ts reads them). */
export interface RobotFacts {
  id: number;
  organizationId: number;
  buildingId: number;
  buildingName: string;
  floorId: number;
  groupId: number | null;
  groupName: string | null;
  serialNo: string;
  name: string;
  model: string;
  manufacturer: string;
  status: RobotStatusCodeValue;
  /** The registered video setting (robot settings): teleoperation starts with it. */
  videoMode: VideoMode;
}

/** What the link knows of one robot: its registry facts and what it last said. */
export interface RobotEntry extends RobotFacts {
  online: boolean;
  everSeen: boolean;
  /** Epoch ms of the last message (any topic). */
  lastSeen: number;
  /** Online but silent beyond its state interval (intake.ts silenceCheck). */
  notReporting: boolean;
  /** The last order this server sent the robot and what became of it (intake.ts trackOrder). */
  sentOrder: SentOrderTrack | null;
  protocolVersion: string | null;
  state: VdaState | null;
  /** The last factsheet (capabilities), kept across reconnects. */
  factsheet: VdaFactsheet | null;
  /** Teleoperation facts from the last state's `information` (null when the robot reports none). */
  teleop: RobotTeleopInfo | null;
  position: RobotPosition | null;
  /** The serialized significant part of the last live state sent, to tell a change from a repeat. */
  liveKey: string;
  headerIds: { order: number; instantActions: number };
}

/** An order the portal sent, from send to acceptance, rejection or completion. */
export interface SentOrderTrack {
  orderId: string;
  /** Epoch ms. */
  sentAt: number;
  status: OrderResultStatus;
  error: { type: string; description: string | null } | null;
}

/** How long an order the portal sent counts as "busy" while the robot has not answered it. */
export const ORDER_ANSWER_MS = 10_000;

/** The robot holds an unfinished order: its state names one with nodes or edges still to go. */
export const holdsOrder = (state: VdaState | null): boolean =>
  !!state && state.orderId !== '' && (state.nodeStates.length > 0 || state.edgeStates.length > 0);

/**
 * The robot may not be given a new order: it holds an unfinished one, drives, or has not answered
 * the order the portal just sent (for ORDER_ANSWER_MS).
 */
export function isBusy(e: Pick<RobotEntry, 'state' | 'sentOrder'>, now: number): boolean {
  if (holdsOrder(e.state) || e.state?.driving) return true;
  const sent = e.sentOrder;
  return !!sent && sent.status === 'sent' && now - sent.sentAt < ORDER_ANSWER_MS;
}

/** Battery error types a robot may report (documented in docs/robot-protocol.md). */
const BATTERY_ERRORS: Record<string, BatteryStateLabel> = {
  batteryManagementError: 'bmError',
  batteryError: 'error',
  batteryProtect: 'protect',
  batteryLowVoltage: 'lowVoltage',
};

export function issuesOf(state: VdaState | null): RobotIssue[] {
  if (!state) return [];
  const issues: RobotIssue[] = state.errors.map((e) => ({
    code: e.errorType,
    level: e.errorLevel,
    description: e.errorDescription ?? null,
  }));
  // Robots that signal an emergency stop only in safetyState still show the message.
  if (state.safetyState.eStop !== 'NONE' && !issues.some((i) => i.code === 'emergencyStop')) {
    issues.unshift({ code: 'emergencyStop', level: 'FATAL', description: null });
  }
  if (state.batteryState.batteryCharge < LOW_BATTERY_PERCENT && !issues.some((i) => i.code === 'lowBattery')) {
    issues.push({ code: 'lowBattery', level: 'WARNING', description: null });
  }
  return issues;
}

function batteryStateOf(state: VdaState): BatteryStateLabel {
  for (const e of state.errors) {
    const label = BATTERY_ERRORS[e.errorType];
    if (label) return label;
  }
  const b = state.batteryState;
  if (b.charging) return b.batteryCharge >= 100 ? 'fullyCharged' : 'charging';
  return 'active';
}

function activityOf(state: VdaState, issues: RobotIssue[]): RobotActivity {
  if (state.safetyState.eStop !== 'NONE' || issues.some((i) => i.code === 'emergencyStop')) return 'emergencyStop';
  if (issues.some((i) => i.level === 'FATAL')) return 'error';
  if (state.paused) return 'paused';
  if (state.driving) return 'driving';
  if (holdsOrder(state)) {
    // Standing still on an unfinished order: waiting when something holds it (a flow code such as
    // F0007 obstacle, a protective field, the end of its released route); otherwise it is between
    // two edges, and stays "driving" (no flicker at each node).
    const held =
      state.safetyState.fieldViolation || state.newBaseRequest === true || issues.some((i) => /^F\d{4}$/.test(i.code));
    return held ? 'waiting' : 'driving';
  }
  if (state.batteryState.charging) return 'charging';
  return 'idle';
}

export function positionOf(p: { x: number; y: number; theta: number; mapId: string }): RobotPosition {
  return { x: p.x, y: p.y, theta: p.theta, mapId: p.mapId, floorId: floorIdOfMap(p.mapId) };
}

/** Order labels kept at most (the oldest is forgotten first). */
const ORDER_LABELS_MAX = 2_000;
const labels = new Map<string, OrderLabel>();

/**
 * What the orders this server sent are (orderId → label), in memory: the live state shows the label
 * instead of the order's id. An order sent by another server instance, or before a restart, or by
 * the robot itself has none (the screens say "order from the robot").
 */
export const orderLabels = {
  remember(orderId: string, label: OrderLabel): void {
    labels.delete(orderId);
    labels.set(orderId, label);
    if (labels.size > ORDER_LABELS_MAX) labels.delete(labels.keys().next().value!);
  },
  of(orderId: string | null): OrderLabel | null {
    return orderId === null ? null : (labels.get(orderId) ?? null);
  },
};

/** The live view of a robot, as the API and the WebSocket show it. */
export function liveOf(e: RobotEntry): RobotLive {
  const s = e.online ? e.state : null;
  const issues = issuesOf(s);
  return {
    robotId: e.id,
    online: e.online,
    everSeen: e.everSeen,
    statusLabel: robotStatusLabel(e.status, { online: e.online, everSeen: e.everSeen, issues }),
    battery: e.state ? Math.round(e.state.batteryState.batteryCharge) : null,
    batteryState: s ? batteryStateOf(s) : null,
    activity: s ? activityOf(s, issues) : null,
    orderId: s && s.orderId !== '' ? s.orderId : null,
    orderLabel: s && s.orderId !== '' ? orderLabels.of(s.orderId) : null,
    lastOrder: e.sentOrder
      ? {
          orderId: e.sentOrder.orderId,
          label: orderLabels.of(e.sentOrder.orderId),
          status: e.sentOrder.status,
          error: e.sentOrder.error,
          sentAt: new Date(e.sentOrder.sentAt).toISOString(),
        }
      : null,
    floorId: e.position?.floorId ?? e.floorId,
    position: e.position,
    issues,
    lastCommunicationAt: e.everSeen ? new Date(e.lastSeen).toISOString() : null,
    notReporting: e.online && e.notReporting,
    protocolVersion: e.protocolVersion,
    teleop: s ? (e.teleop ?? null) : null,
  };
}

/** The part of the live state whose change is an event (not the position or the clock). */
export function significantKey(l: RobotLive): string {
  return JSON.stringify([
    l.online,
    l.statusLabel,
    l.battery,
    l.batteryState,
    l.activity,
    l.orderId,
    l.floorId,
    l.issues,
    l.teleop ?? null,
    l.notReporting ?? false,
    l.lastOrder ? [l.lastOrder.orderId, l.lastOrder.status, l.lastOrder.error] : null,
  ]);
}
