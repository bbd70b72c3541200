import {
  commandMappingOps,
  robotActionResultSchema,
  robotCommandMappingSchema,
  robotFeatureOps,
  robotOps,
  robotSchema,
  robotTeleopSchema,
  type RobotCommandMapping,
} from '@portal/contract';
import { act, screen, waitFor } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { FakeRealtime } from '@/testing/fake-realtime';
import { mockApi, on, reply, type Routes } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { robotTeleop, teleopRobot } from './testing/fixtures';
import { FakePeer } from './testing/fakes';

const slow = { timeout: 10_000 };
let realtime: FakeRealtime;

beforeEach(() => {
  realtime = new FakeRealtime();
  FakePeer.all = [];
  vi.stubGlobal('RTCPeerConnection', FakePeer);
});
afterEach(async () => {
  await i18n.changeLanguage('en');
});

const mapped = (mode: number): RobotCommandMapping =>
  robotCommandMappingSchema.parse({
    robotId: 5,
    buildingId: 10,
    mode,
    mappings: [{ id: 3, name: 'Reception', mode }],
    entries:
      mode === 10
        ? [
            {
              label: 'Greet',
              screen: true,
              key: 'KeyG',
              gamepadButton: null,
              command: { kind: 'action', action: { type: 'speak', text: 'Welcome', language: 'en' } },
            },
            {
              label: 'Hold',
              screen: false,
              key: 'KeyH',
              gamepadButton: 3,
              command: { kind: 'order', command: 'pause' },
            },
          ]
        : [],
  });

const routes = (extra: Routes = {}): Routes => ({
  ...signedInRoutes(),
  [on(robotFeatureOps.getRobotBySerial, { serialNo: 'UGO-5' })]: () => reply(robotSchema, teleopRobot()),
  [on(robotFeatureOps.getRobotTeleop)]: () => reply(robotTeleopSchema, robotTeleop()),
  [on(commandMappingOps.getRobotCommandMapping, { id: 5 })]: (c) =>
    reply(robotCommandMappingSchema, mapped(Number(c.search.get('mode')))),
  [on(robotFeatureOps.sendRobotAction)]: () => reply(robotActionResultSchema, { actionId: 'a-1' }, 202),
  [on(robotOps.sendRobotCommand)]: () => reply(robotOps.sendRobotCommand.responses[202], { ok: true }, 202),
  ...extra,
});

describe('mapped commands on the basic controller', () => {
  it("offers the building's mapped commands of the mode and runs them by button and by key, with feedback", async () => {
    const { calls } = mockApi(routes());
    const app = renderApp('/app/basic/UGO-5', { session: makeSession(0), realtime });
    await waitFor(() => expect(realtime.isActive()).toBe(true), slow);
    await waitFor(() => expect(realtime.ofType('teleop.join')).toHaveLength(1), slow);
    realtime.receive({
      type: 'teleop.joined',
      robotId: 5,
      sessionId: 'sess-1',
      role: 'controller',
      controller: { operatorId: 7, name: 'Hanako Yamada' },
      iceServers: [],
    });
    await waitFor(() => expect(FakePeer.all).toHaveLength(1));
    act(() => {
      FakePeer.all[0]!.setState('connected');
      FakePeer.all[0]!.channel('control').open();
    });

    const greet = await screen.findByTestId('mapped-Greet', {}, slow);
    await waitFor(() => expect(greet).toBeEnabled(), slow);
    // A row without an on-screen button is named with its key and controller button.
    expect(screen.getByTestId('mapped-commands')).toHaveTextContent('Hold — Key H — Controller button 3');
    const asked = calls.find((c) => c.path === '/api/robots/5/command-mapping')!;
    expect(asked.search.get('mode')).toBe('10');

    await app.user.click(greet);
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toEqual([
        ['/api/robots/5/actions', { type: 'speak', text: 'Welcome', language: 'en' }],
      ]),
    );
    expect(await screen.findByTestId('mapped-last')).toHaveTextContent('“Greet” sent to the robot.');

    // The mapped key runs its row (the order command pauses the patrol).
    await app.user.keyboard('h');
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body])).toContainEqual([
        '/api/robots/5/commands',
        { command: 'pause' },
      ]),
    );
    await waitFor(() => expect(screen.getByTestId('mapped-last')).toHaveTextContent('“Hold” sent to the robot.'));

    // Another mode: its own mapping (none here).
    await app.user.click(screen.getByText('11'));
    expect(await screen.findByTestId('mapped-none', {}, slow)).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/robots/5/command-mapping' && c.search.get('mode') === '11')).toBe(true);
  }, 30_000);
});
