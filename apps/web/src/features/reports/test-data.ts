import {
  buildingOps,
  buildingSchema,
  exportJobSchema,
  exportTemplateSchema,
  reportDetailViewSchema,
  reportSchema,
  robotOps,
  robotSchema,
  type ExportJob,
  type ExportTemplate,
  type Report,
  type ReportDetail,
  type ReportDetailView,
} from '@portal/contract';
import { z } from 'zod';
import { signedInRoutes } from '@/testing/fixtures';
import { on, reply, type Routes } from '@/testing/mock-api';

const T0 = '2026-11-24T00:00:00.000Z';

export const report = (id: number, over: Partial<Report> = {}): Report =>
  reportSchema.parse({
    id,
    flowRunId: 100 + id,
    flowId: 3,
    flowName: 'Night patrol',
    type: 0,
    organizationId: 1,
    buildingId: 10,
    buildingName: 'Marunouchi Tower',
    floorId: 1,
    floorName: 'Entrance',
    robotId: 55,
    robotName: 'Lobby guide',
    robotSerial: 'UGO-55',
    caller: 'schedule',
    callerName: 'Nightly',
    scheduleId: 1,
    startedAt: T0,
    endedAt: '2026-11-24T00:12:30.000Z',
    result: 10,
    errorCode: null,
    abnormalCount: 0,
    photoCount: 0,
    detailCount: 3,
    thumbnailUrl: null,
    ...over,
  });

const photo = (n: number) => ({
  url: `/api/files/photo-${n}.png?sig=x`,
  thumbnailUrl: `/api/files/photo-${n}-thumb.png?sig=x`,
  width: 3840,
  height: 2160,
  camera: 'front',
  fileName: `Lobby-guide-20261124-0900${n}-${n}.png`,
});

export const detail = (seq: number, over: Partial<ReportDetail> = {}): ReportDetail => ({
  id: 1000 + seq,
  seq,
  stepId: `s${seq}`,
  kind: 'moveToWaypoint',
  type: 0,
  result: 10,
  startedAt: `2026-11-24T00:0${seq}:00.000Z`,
  endedAt: `2026-11-24T00:0${seq}:30.000Z`,
  errorCode: null,
  message: null,
  values: {},
  photo: null,
  floorId: 1,
  x: seq,
  y: seq,
  ...over,
});

export const reportView = (id: number): ReportDetailView =>
  reportDetailViewSchema.parse({
    ...report(id, { result: 11, abnormalCount: 1, photoCount: 2 }),
    timeZone: 'Asia/Tokyo',
    details: [
      detail(1, { values: { waypointId: 3, waypointName: 'Lobby' } }),
      detail(2, { kind: 'takePhoto', type: 1, photo: photo(1), x: 2, y: 1 }),
      detail(3, { kind: 'moveToWaypoint', result: 9, errorCode: 'RUN_TIMEOUT', message: 'Stuck near the door' }),
      detail(4, { kind: 'takePhoto', type: 1, photo: photo(2), x: 4, y: 3 }),
    ],
    tracks: [
      {
        floorId: 1,
        floorName: 'Entrance',
        points: [
          [0, 0],
          [2, 1],
          [4, 3],
        ],
      },
      {
        floorId: 2,
        floorName: 'Office',
        points: [
          [1, 1],
          [5, 5],
        ],
      },
    ],
  });

export const job = (id: number, over: Partial<ExportJob> = {}): ExportJob =>
  exportJobSchema.parse({
    id,
    organizationId: 1,
    format: 'csv',
    encoding: 'shift-jis',
    templateId: null,
    templateName: null,
    selection: {},
    status: 'done',
    rowsDone: 120,
    rowCount: 120,
    exporterId: 7,
    exporterName: 'Yamada Hanako',
    fileName: `reports-20261124-09${id}.csv`,
    fileSize: 2048,
    error: null,
    createdAt: T0,
    finishedAt: T0,
    expiresAt: '2026-12-24T00:00:00.000Z',
    ...over,
  });

export const template = (id: number, over: Partial<ExportTemplate> = {}): ExportTemplate =>
  exportTemplateSchema.parse({
    id,
    organizationId: 1,
    name: `Monthly ${id}`,
    description: 'For the owner',
    fileName: `monthly-${id}.xlsx`,
    fileSize: 9000,
    rawSheetName: 'RawData',
    sheetNames: ['Summary', 'RawData'],
    createdBy: 7,
    createdByName: 'Yamada Hanako',
    createdAt: T0,
    updatedAt: T0,
    ...over,
  });

/** The signed-in calls plus what the report screens look up (the building's zone, robots). */
export function reportRoutes(): Routes {
  return {
    ...signedInRoutes(),
    [on(buildingOps.getBuilding)]: (c) =>
      reply(
        buildingSchema,
        buildingSchema.parse({
          id: Number(c.path.split('/').at(-1)),
          name: 'Marunouchi Tower',
          prefecture: null,
          city: null,
          address: null,
          postalCode: null,
          latitude: null,
          longitude: null,
          organizationId: 1,
          status: 1,
          ipRestrictionEnabled: false,
          timeZone: 'Asia/Tokyo',
          createdAt: T0,
          updatedAt: T0,
        }),
      ),
    [on(robotOps.listRobots)]: () =>
      reply(
        z.array(robotSchema),
        [55, 56].map((id) =>
          robotSchema.parse({
            id,
            serialNo: `UGO-${id}`,
            name: id === 55 ? 'Lobby guide' : 'Night guard',
            model: 'mini',
            version: '',
            hardwareRevision: '',
            organizationId: 1,
            buildingId: 10,
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
          }),
        ),
      ),
  };
}
