import {
  fleetRobotSchema,
  robotSchema,
  robotTeleopSchema,
  type FleetRobot,
  type Robot,
  type RobotCapabilities,
  type RobotTeleop,
  type RobotTeleopInfo,
} from '@portal/contract';

/** Test data of the operator screens, checked against the contract. */
export const idleInfo: RobotTeleopInfo = {
  recording: 'idle',
  call: 'idle',
  networkInterface: 'wlan0',
  ringLight: false,
  patrolLamp: false,
  periscopeHeight: null,
  gimbal: null,
  speaking: false,
  osVersion: '3.2.0',
  updating: false,
};

export const fullCapabilities: RobotCapabilities = {
  cameras: ['v1', 'v2', 'g1', 'thermal'],
  actions: [],
  gimbal: true,
  periscope: { min: 0.8, max: 1.6 },
  ringLight: true,
  patrolLamp: true,
  thermal: true,
  recording: true,
  photo: true,
  speech: true,
  callService: true,
  osUpdate: true,
  workPlan: false,
};

export const teleopRobot = (over: Partial<Robot> = {}): Robot =>
  robotSchema.parse({
    id: 5,
    serialNo: 'UGO-5',
    name: 'Lobby Pro',
    model: 'pro',
    version: '3.2.0',
    hardwareRevision: '2',
    organizationId: 1,
    buildingId: 10,
    buildingName: 'Marunouchi Tower',
    floorId: 2,
    floorName: 'Office',
    groupId: null,
    groupName: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'high',
    notes: '',
    mqttUsername: 'robot-UGO-5',
    manufacturer: 'ugo',
    lastCommunicationAt: '2026-01-01T00:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...over,
  });

export const robotTeleop = (
  over: Partial<RobotTeleop> = {},
  capabilities: Partial<RobotCapabilities> = {},
): RobotTeleop =>
  robotTeleopSchema.parse({
    robotId: 5,
    serialNo: 'UGO-5',
    name: 'Lobby Pro',
    buildingId: 10,
    capabilities: { ...fullCapabilities, ...capabilities },
    info: idleInfo,
    controller: null,
    ...over,
  });

export const fleetRobot = (live: Partial<FleetRobot['live']> = {}): FleetRobot =>
  fleetRobotSchema.parse({
    id: 5,
    serialNo: 'UGO-5',
    name: 'Lobby Pro',
    model: 'pro',
    organizationId: 1,
    buildingId: 10,
    buildingName: 'Marunouchi Tower',
    groupId: null,
    groupName: null,
    status: 1,
    live: {
      robotId: 5,
      online: true,
      everSeen: true,
      statusLabel: 'available',
      battery: 76,
      batteryState: 'active',
      activity: 'idle',
      orderId: null,
      floorId: 2,
      position: null,
      issues: [],
      lastCommunicationAt: '2026-01-01T00:00:00.000Z',
      protocolVersion: '2.0.0',
      teleop: idleInfo,
      ...live,
    },
  });
