import {
  buildingOps,
  buildingSchema,
  flowOps,
  flowSchema,
  robotOps,
  robotSchema,
  scheduleLogSchema,
  scheduleSchema,
  type Flow,
  type Robot,
  type Schedule,
  type ScheduleLog,
} from '@portal/contract';
import { z } from 'zod';
import { signedInRoutes } from '@/testing/fixtures';
import { on, reply, type Routes } from '@/testing/mock-api';

const T0 = '2026-11-01T00:00:00.000Z';

export const robot = (id: number, name: string, buildingId = 10): Robot =>
  robotSchema.parse({
    id,
    serialNo: `UGO-${id}`,
    name,
    model: 'mini',
    version: '',
    hardwareRevision: '',
    organizationId: 1,
    buildingId,
    buildingName: 'Marunouchi Tower',
    floorId: 1,
    floorName: '1F',
    groupId: null,
    groupName: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'high',
    notes: '',
    mqttUsername: `robot-UGO-${id}`,
    manufacturer: 'ugo',
    lastCommunicationAt: null,
    createdAt: T0,
    updatedAt: T0,
  });

/** A flow; `moves` gives it a move step, else it only speaks. */
export const flow = (id: number, name: string, moves: boolean, buildingId = 10): Flow =>
  flowSchema.parse({
    id,
    organizationId: 1,
    buildingId,
    floorId: 1,
    flowGroupId: null,
    name,
    description: '',
    displayOrder: id,
    enabled: true,
    definition: {
      version: 1,
      steps: moves ? [{ kind: 'returnToCharger', id: 's1' }] : [{ kind: 'wait', id: 's1', seconds: 5 }],
    },
    createdAt: T0,
    updatedAt: T0,
  });

export const building = (id: number, name: string, timeZone = 'Asia/Tokyo') =>
  buildingSchema.parse({
    id,
    name,
    prefecture: null,
    city: null,
    address: null,
    postalCode: null,
    latitude: null,
    longitude: null,
    organizationId: 1,
    status: 1,
    ipRestrictionEnabled: false,
    timeZone,
    createdAt: T0,
    updatedAt: T0,
  });

export const schedule = (id: number, over: Partial<Schedule> = {}): Schedule =>
  scheduleSchema.parse({
    id,
    organizationId: 1,
    buildingId: 10,
    timeZone: 'Asia/Tokyo',
    title: `Entry ${id}`,
    description: '',
    flowId: 3,
    robotId: 55,
    start: '2026-11-24T09:00',
    end: '2026-11-24T10:00',
    repeat: 'none',
    weekdays: [2],
    repeatUntil: null,
    priority: false,
    skipHolidays: false,
    enabled: true,
    exceptions: [],
    nextAt: '2026-11-24T00:00:00.000Z',
    createdAt: T0,
    updatedAt: T0,
    ...over,
  });

export const logLine = (id: number, over: Partial<ScheduleLog> = {}): ScheduleLog =>
  scheduleLogSchema.parse({
    id,
    scheduleId: 1,
    title: 'Night patrol',
    buildingId: 10,
    robotId: 55,
    flowId: 3,
    flowRunId: null,
    dueAt: '2026-11-23T12:00:00.000Z',
    startedAt: null,
    endedAt: null,
    result: 'done',
    reason: null,
    detail: '',
    detailCode: null,
    detailParams: {},
    robotName: null,
    flowName: null,
    robotDeleted: false,
    flowDeleted: false,
    ...over,
  });

/** The signed-in calls plus the names the schedule screens look up. */
export function scheduleRoutes(): Routes {
  return {
    ...signedInRoutes(),
    [on(robotOps.listRobots)]: () => reply(z.array(robotSchema), [robot(55, 'Lobby guide'), robot(56, 'Night guard')]),
    [on(flowOps.listFlows)]: () =>
      reply(z.array(flowSchema), [flow(3, 'Night patrol', true), flow(4, 'Greeting', false)]),
    [on(buildingOps.getBuilding)]: (c) =>
      reply(buildingSchema, building(Number(c.path.split('/').at(-1)), 'Marunouchi Tower')),
  };
}
