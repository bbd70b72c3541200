import {
  floorDetailSchema,
  floorMapSchema,
  floorOps,
  mapOps,
  mapSessionOps,
  mapSessionSchema,
  navigationOrderSchema,
  type FleetRobot,
  type RobotLive,
  type SentOrder,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { FakeRealtime } from '@/testing/fake-realtime';
import { renderApp } from '@/testing/render-app';
import { testDocument, testFloor, testFloorMap } from '../test-fixtures';
import { trialProgress } from './trial-run';

// Konva needs a real canvas: the drawing is stubbed.
vi.mock('../canvas/map-canvas', async () => {
  const { useEffect } = await import('react');
  return {
    MapCanvas: ({ onReady }: { onReady?: () => void }) => {
      useEffect(() => onReady?.(), [onReady]);
      return <div data-testid="map-canvas" />;
    },
  };
});

/** Issue 11 item 10: the trial run says what the robot made of the order, refusals with the reason. */
const slow = { timeout: 5000 };
let realtime: FakeRealtime;

const live: RobotLive = {
  robotId: 7,
  online: true,
  everSeen: true,
  statusLabel: 'available',
  battery: 80,
  batteryState: 'active',
  activity: 'idle',
  orderId: null,
  floorId: 5,
  position: { x: 1, y: 2, theta: 0, mapId: 'floor-5', floorId: 5 },
  issues: [],
  lastCommunicationAt: '2026-01-01T00:00:00.000Z',
  protocolVersion: '2.0.0',
};
const robot: FleetRobot = {
  id: 7,
  serialNo: 'SN-7',
  name: 'Runner',
  model: 'pro',
  organizationId: 1,
  buildingId: 10,
  buildingName: 'Tower',
  groupId: null,
  groupName: null,
  status: 1,
  live,
};
const order = (status: SentOrder['status'], over: Partial<SentOrder> = {}): SentOrder => ({
  orderId: 'trial-1',
  label: { kind: 'trialRun', name: 'Loop' },
  status,
  error: null,
  sentAt: '2026-01-10T03:00:00.000Z',
  ...over,
});

beforeEach(() => {
  realtime = new FakeRealtime();
});

async function startTrialRun() {
  const { calls } = mockApi({
    ...signedInRoutes(),
    [on(mapOps.getFloorMap, { id: 5 })]: () =>
      reply(
        floorMapSchema,
        testFloorMap({
          document: { ...testDocument, routes: [{ id: 1, name: 'Loop', waypointIds: [1, 2], recorded: null }] },
        }),
      ),
    [on(floorOps.getFloor, { id: 5 })]: () => reply(floorDetailSchema, testFloor),
    [on(mapSessionOps.getMapSession, { id: 7 })]: () => reply(mapSessionSchema.nullable(), null),
    [on(mapOps.trialRunRoute, { id: 7 })]: () =>
      reply(navigationOrderSchema, { orderId: 'trial-1', waypointIds: [1, 2] }, 202),
  });
  const app = renderApp('/editor/floor/5', { session: makeSession(2), realtime });
  await screen.findByTestId('editor-toolbar', undefined, slow);
  await waitFor(() => expect(realtime.subscribed('fleet:10')).toBe(true));
  realtime.snapshot('fleet:10', [robot]);
  const panel = screen.getByTestId('trial-run');
  const [robotSelect, routeSelect] = within(panel).getAllByRole('textbox');
  await app.user.click(robotSelect!);
  await app.user.click(await screen.findByRole('option', { name: 'Runner' }));
  await app.user.click(routeSelect!);
  await app.user.click(await screen.findByRole('option', { name: 'Loop' }));
  await app.user.click(within(panel).getByRole('button'));
  await waitFor(() => expect(calls.some((c) => c.path === '/api/robots/7/trial-run')).toBe(true));
  return within(panel);
}

const progress = () => screen.getByTestId('trial-progress');

describe('trial run progress', () => {
  it('follows the order from sent to accepted to the robot’s refusal with its reason', async () => {
    const panel = await startTrialRun();
    expect(await panel.findByTestId('trial-progress')).toHaveAttribute('data-status', 'sent');
    expect(progress()).toHaveTextContent('Runner, route "Loop"');
    expect(progress()).toHaveTextContent('Sent, waiting for the robot to answer');

    realtime.live({ ...live, activity: 'driving', orderId: 'trial-1', lastOrder: order('accepted') });
    expect(progress()).toHaveAttribute('data-status', 'accepted');
    expect(progress()).toHaveTextContent('Accepted by the robot');

    realtime.live({ ...live, lastOrder: order('rejected', { error: { type: 'noRouteError', description: null } }) });
    expect(progress()).toHaveAttribute('data-status', 'rejected');
    expect(progress()).toHaveTextContent(
      'Refused by the robot: the route does not start where the robot stands, or it has no way there',
    );
  }, 20_000);

  it('says when the order finished, and words an unknown refusal with the robot’s own error, in Japanese', async () => {
    await i18n.changeLanguage('ja');
    await startTrialRun();
    realtime.live({ ...live, lastOrder: order('finished') });
    expect(progress()).toHaveTextContent('完了またはキャンセル');
    realtime.live({
      ...live,
      lastOrder: order('rejected', { error: { type: 'batteryLowError', description: 'charge first' } }),
    });
    expect(progress()).toHaveTextContent('ロボットが拒否しました：batteryLowError: charge first');
  }, 20_000);
});

describe('trialProgress', () => {
  it('is the robot’s last order while it is this one, else sent or replaced', () => {
    expect(trialProgress({ orderId: 'a' }, null)).toBe('sent');
    expect(trialProgress({ orderId: 'a' }, order('accepted', { orderId: 'a' }))).toBe('accepted');
    expect(trialProgress({ orderId: 'a' }, order('sent', { orderId: 'b' }))).toBe('replaced');
  });
});
