import {
  commandOps,
  commandSchema,
  flowOps,
  flowSchema,
  robotFeatureOps,
  robotOps,
  robotSchema,
  robotTeleopSchema,
  type CameraId,
  type Flow,
  type Robot,
  type RobotCapabilities,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 5000 };
const T0 = '2026-01-01T00:00:00.000Z';

const flow = (steps: unknown[]): Flow =>
  flowSchema.parse({
    id: 5,
    organizationId: 1,
    buildingId: 10,
    floorId: 2,
    flowGroupId: null,
    name: 'Patrol',
    description: '',
    displayOrder: 1,
    enabled: true,
    definition: { version: 1, steps },
    createdAt: T0,
    updatedAt: T0,
  });

const robot = (id: number, name: string, model: string): Robot =>
  robotSchema.parse({
    id,
    serialNo: `UGO-${id}`,
    name,
    model,
    version: '',
    hardwareRevision: '',
    organizationId: 1,
    buildingId: 10,
    buildingName: 'Tokyo Office',
    floorId: 2,
    floorName: '2F',
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

/** Capabilities as the server reads them from a factsheet: photos and speech, these cameras. */
const capabilities = (cameras: CameraId[]): RobotCapabilities => ({
  cameras,
  actions: ['takePhoto', 'speak'],
  gimbal: false,
  periscope: null,
  ringLight: false,
  patrolLamp: false,
  thermal: cameras.includes('thermal'),
  recording: false,
  photo: true,
  speech: true,
  callService: false,
  osUpdate: false,
  workPlan: false,
});

const teleop = (r: Robot, cameras: CameraId[]) =>
  reply(robotTeleopSchema, {
    robotId: r.id,
    serialNo: r.serialNo,
    name: r.name,
    buildingId: 10,
    capabilities: capabilities(cameras),
    info: {
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
    },
    controller: null,
  });

const mini = robot(55, 'Lobby guide', 'mini');
const pro = robot(56, 'Night patrol', 'pro');

/** A library command for the pro model only, taking a thermal photo. */
const thermalCheck = commandSchema.parse({
  id: 3,
  organizationId: 1,
  name: 'Thermal check',
  description: '',
  category: 100,
  scope: 0,
  modelsAllowed: ['pro'],
  parameters: [],
  definition: {
    version: 1,
    steps: [{ kind: 'takePhoto', id: 't', camera: 'thermal', resolution: '1080p', saveAsTaskImage: false }],
  },
  status: 1,
  createdAt: T0,
  updatedAt: T0,
});

function routes(steps: unknown[], robots: Robot[]) {
  return mockApi({
    ...signedInRoutes(),
    [on(commandOps.listCommands)]: () => reply(z.array(commandSchema), [thermalCheck]),
    [on(flowOps.getFlow, { id: 5 })]: () => reply(flowSchema, flow(steps)),
    [on(robotOps.listRobots)]: () => reply(z.array(robotSchema), robots),
    [on(robotFeatureOps.getRobotTeleop, { id: 55 })]: () => teleop(mini, ['v1', 'v2']),
    [on(robotFeatureOps.getRobotTeleop, { id: 56 })]: () => teleop(pro, ['v1', 'g1', 'thermal']),
  });
}

/** The labels a select offers. */
const optionsOf = (select: HTMLElement) =>
  [...(select as HTMLSelectElement).options].filter((o) => o.value !== '').map((o) => o.textContent);

describe('flow builder: check for robot', () => {
  it('narrows the camera lists to the chosen robot, keeps a camera it lacks (marked) and shows the capability message at the step', async () => {
    const { calls } = routes(
      [
        { kind: 'takePhoto', id: 'p1', camera: 'thermal', resolution: '1080p', saveAsTaskImage: false },
        { kind: 'wait', id: 'w1', seconds: 10, detectPerson: { camera: 'v1', distanceM: 2 } },
      ],
      [mini, pro],
    );
    const app = renderApp('/flow/5', { session: makeSession(2) });
    const choice = await screen.findByTestId('flow-check-robot', {}, slow);
    // Any robot (the default): the cameras of the building's two robots together.
    await waitFor(() =>
      expect(screen.getByTestId('flow-check-robot-hint')).toHaveTextContent(
        "Any robot: the cameras of the building's 2 robots together are listed (Front, Rear, Gimbal, Thermal).",
      ),
    );
    expect(calls.find((c) => c.path === '/api/robots')?.search.get('filter')).toContain('"buildingId":10');
    await app.user.click(screen.getByTestId('flow-step-select-steps.0'));
    const photo = screen.getByTestId('flow-step-steps.0');
    expect(optionsOf(within(photo).getByTestId('flow-field-camera'))).toEqual(['Front', 'Rear', 'Gimbal', 'Thermal']);
    expect(screen.getByTestId('flow-builder-valid')).toBeInTheDocument();

    // The mini robot: its two cameras; the step's thermal camera stays, marked, and the step says why.
    await app.user.selectOptions(choice, 'Lobby guide (mini)');
    await waitFor(() =>
      expect(screen.getByTestId('flow-step-problems-steps.0')).toHaveTextContent(
        'The robot (mini) cannot do this: the Thermal camera',
      ),
    );
    expect(screen.getByTestId('flow-check-robot-hint')).toHaveTextContent(
      "Camera lists and checks follow Lobby guide's factsheet. Its cameras: Front, Rear.",
    );
    const camera = within(screen.getByTestId('flow-step-steps.0')).getByTestId('flow-field-camera');
    expect(optionsOf(camera)).toEqual(['Front', 'Rear', 'Thermal (not on Lobby guide)']);
    expect(camera).toHaveValue('thermal');
    expect(screen.getByTestId('flow-step-steps.0')).toHaveAttribute('data-invalid', 'true');
    // Still saveable: the summary keeps the robot's steps apart.
    expect(screen.getByTestId('flow-builder-valid')).toBeInTheDocument();
    expect(screen.getByTestId('flow-builder-robot-problems')).toHaveTextContent('Step 1 (Take photo)');

    // Person detection: only the detection cameras the robot has.
    await app.user.click(screen.getByTestId('flow-step-select-steps.1'));
    const wait = screen.getByTestId('flow-step-steps.1');
    expect(optionsOf(within(wait).getByTestId('flow-field-detectCamera'))).toEqual(['Front']);

    // A camera the robot has: the message goes.
    await app.user.click(screen.getByTestId('flow-step-select-steps.0'));
    await app.user.selectOptions(
      within(screen.getByTestId('flow-step-steps.0')).getByTestId('flow-field-camera'),
      'Rear',
    );
    await waitFor(() => expect(screen.getByTestId('flow-step-steps.0')).not.toHaveAttribute('data-invalid'));
    expect(screen.queryByTestId('flow-builder-robot-problems')).toBeNull();

    // The other robot: its own cameras; the rear camera it lacks is marked and checked.
    await app.user.selectOptions(choice, 'Night patrol (pro)');
    await waitFor(() =>
      expect(optionsOf(within(screen.getByTestId('flow-step-steps.0')).getByTestId('flow-field-camera'))).toEqual([
        'Front',
        'Rear (not on Night patrol)',
        'Gimbal',
        'Thermal',
      ]),
    );
    expect(screen.getByTestId('flow-step-problems-steps.0')).toHaveTextContent(
      'The robot (pro) cannot do this: the Rear camera',
    );

    // The choice outlives a visit to the JSON tab.
    await app.user.click(screen.getByTestId('flow-tab-json'));
    await app.user.click(screen.getByTestId('flow-tab-builder'));
    expect(await screen.findByTestId('flow-check-robot')).toHaveValue('56');

    // Back to any robot: no robot check.
    await app.user.selectOptions(screen.getByTestId('flow-check-robot'), 'Any robot');
    await waitFor(() => expect(screen.getByTestId('flow-step-steps.0')).not.toHaveAttribute('data-invalid'));
  }, 60_000);

  it("checks a library command's models and its own steps for the chosen robot", async () => {
    routes([{ kind: 'command', id: 'c1', commandId: 3 }], [mini, pro]);
    const app = renderApp('/flow/5', { session: makeSession(2) });
    const choice = await screen.findByTestId('flow-check-robot', {}, slow);
    await waitFor(() => expect(optionsOf(choice)).toEqual(['Lobby guide (mini)', 'Night patrol (pro)']));
    expect(screen.getByTestId('flow-step-steps.0')).toHaveTextContent('Thermal check');
    await app.user.selectOptions(choice, 'Lobby guide (mini)');
    const problems = await screen.findByTestId('flow-step-problems-steps.0', {}, slow);
    expect(problems).toHaveTextContent('This command cannot be used with the robot model mini');
    expect(problems).toHaveTextContent('The robot (mini) cannot do this: the Thermal camera');
    await app.user.selectOptions(choice, 'Night patrol (pro)');
    await waitFor(() => expect(screen.queryByTestId('flow-step-problems-steps.0')).toBeNull());
  }, 30_000);

  it('lists every camera for any robot when the building has no robot, and says so', async () => {
    routes([{ kind: 'cameraSettings', id: 'c1', camera: 'v3', zoom: 2 }], []);
    const app = renderApp('/flow/5', { session: makeSession(2) });
    await waitFor(
      () =>
        expect(screen.getByTestId('flow-check-robot-hint')).toHaveTextContent(
          'Any robot: this building has no robot, so every camera is listed.',
        ),
      slow,
    );
    expect(optionsOf(screen.getByTestId('flow-check-robot'))).toEqual([]);
    await app.user.click(screen.getByTestId('flow-step-select-steps.0'));
    expect(optionsOf(within(screen.getByTestId('flow-step-steps.0')).getByTestId('flow-field-camera'))).toEqual([
      'Front',
      'Rear',
      'Front wide',
      'Side',
      'Gimbal',
      'Thermal',
    ]);
  }, 30_000);
});
