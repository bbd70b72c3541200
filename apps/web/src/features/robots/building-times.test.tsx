import {
  buildingOps,
  buildingSchema,
  robotOps,
  robotSchema,
  robotSettingChangeSchema,
  type Robot,
} from '@portal/contract';
import { screen, within } from '@testing-library/react';
import i18n from 'i18next';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, type Routes } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

/**
 * A building's events are shown in the building's zone, in both languages, with the zone stated
 * (the test machine's own zone is another one).
 */
const slow = { timeout: 10_000 };
const changedAt = '2026-03-31T16:05:00.000Z';

const robot = (over: Partial<Robot> = {}): Robot =>
  robotSchema.parse({
    id: 55,
    serialNo: 'UGO-NY',
    name: 'Lobby guide',
    model: 'mini',
    version: '',
    hardwareRevision: '',
    organizationId: 1,
    buildingId: 10,
    buildingName: 'Manhattan Office',
    floorId: 1,
    floorName: 'Entrance',
    groupId: null,
    groupName: null,
    status: 1,
    longTermRecordingAutoStart: false,
    videoMode: 'high',
    notes: '',
    mqttUsername: 'robot-UGO-NY',
    manufacturer: 'ugo',
    lastCommunicationAt: changedAt,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  });

const building = (timeZone: string) =>
  buildingSchema.parse({
    id: 10,
    name: 'Manhattan Office',
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
    createdAt: changedAt,
    updatedAt: changedAt,
  });

const routes = (timeZone: string): Routes => ({
  ...signedInRoutes(),
  [on(buildingOps.getBuilding)]: () => reply(buildingSchema, building(timeZone)),
  [on(robotOps.getRobot)]: () => reply(robotSchema, robot()),
  [on(robotOps.listRobotSettingHistory)]: () => {
    const r = reply(z.array(robotSettingChangeSchema), [
      {
        id: 1,
        robotId: 55,
        field: 'name',
        oldValue: 'Old',
        newValue: 'Lobby guide',
        operatorId: 2,
        operatorName: 'Taro',
        changedAt,
      },
    ]);
    r.headers.set('X-Total-Count', '1');
    return r;
  },
  [on(robotOps.listRobots)]: () => {
    const r = reply(z.array(robotSchema), [robot()]);
    r.headers.set('X-Total-Count', '1');
    return r;
  },
});

describe('times of a building’s events', { timeout: 30_000 }, () => {
  it('the settings history is in the robot’s building’s zone, stated under the title, in English and Japanese', async () => {
    mockApi(routes('America/New_York'));
    renderApp('/robot/55/setting-history', { session: makeSession(2) });
    const table = await screen.findByTestId('history-table', {}, slow);
    expect(await within(table).findByText('Mar 31, 2026, 12:05 PM EDT')).toBeInTheDocument();
    expect(screen.getByTestId('time-zone-note')).toHaveTextContent(/^Times in America\/New_York \(E[SD]T\)$/);

    await i18n.changeLanguage('ja');
    // Japanese no longer means Tokyo time: the same zone, in Japanese.
    expect(await within(table).findByText(/^2026\/03\/31 12:05 /)).toBeInTheDocument();
    expect(screen.getByTestId('time-zone-note')).toHaveTextContent(/America\/New_York/);
  });

  it('a Tokyo building shows Tokyo time to English screens too', async () => {
    mockApi(routes('Asia/Tokyo'));
    renderApp('/robot/list', { session: makeSession(2) });
    expect(await screen.findByText('Apr 1, 2026, 1:05 AM GMT+9', {}, slow)).toBeInTheDocument();
  });
});
