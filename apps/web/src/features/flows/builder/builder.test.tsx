import {
  buildingOps,
  checkItemOps,
  checkItemSchema,
  commandOps,
  commandSchema,
  flowOps,
  flowSchema,
  floorMapSchema,
  mapOps,
  speechTextSchema,
  type Flow,
} from '@portal/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flowsEn } from '@/locales/en/flows';
import { flowsJa } from '@/locales/ja/flows';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { loopReturns, moveTargets } from './path-preview';
import { moveStep, nudgeStep, parseDefinitionText, type Step } from './tree';

const slow = { timeout: 5000 };

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
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });

const map = (floorId: number, waypoints: Array<[number, string, number, number]>) =>
  floorMapSchema.parse({
    floorId,
    buildingId: 10,
    revision: 1,
    savedAt: null,
    savedBy: null,
    image: null,
    document: {
      waypoints: waypoints.map(([id, name, x, y]) => ({ id, name, x, y, theta: 0, type: 1 })),
      edges: [{ id: 1, from: waypoints[0]![0], to: waypoints[1]![0], oneWay: false, speed: 'normal', path: null }],
      routes: [{ id: 7, name: 'Lobby loop', waypointIds: waypoints.map((w) => w[0]), recorded: null }],
      noGoAreas: [],
      partialMaps: [],
    },
  });

const checkItem = (id: number, name: string, floorId: number) => ({
  id,
  organizationId: 1,
  buildingId: 10,
  buildingName: 'HQ',
  floorId,
  floorName: `F${floorId}`,
  name,
  type: 'meter' as const,
  status: 1 as const,
  meterType: 'analog' as const,
  readingService: 'builtin' as const,
  qrCodeNumber: `Q${id}`,
  taskId: '',
  deviceId: '',
  alerting: false,
  thresholdRuleId: null,
  x: 1,
  y: 2,
  z: 1.2,
  direction: 0,
  markerType: 'qr' as const,
  areaDetectionMarker: false,
  definition: '{}',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

function routes(steps: unknown[] = []) {
  return mockApi({
    ...signedInRoutes(),
    [on(flowOps.getFlow, { id: 5 })]: () => reply(flowSchema, flow(steps)),
    [on(flowOps.updateFlow, { id: 5 })]: (call) =>
      reply(flowSchema, { ...flow([]), ...(call.body as object), updatedAt: '2026-01-02T00:00:00.000Z' }),
    [on(mapOps.getFloorMap, { id: 2 })]: () =>
      reply(
        floorMapSchema,
        map(2, [
          [21, 'Lobby', 0, 0],
          [22, 'Gate', 10, 0],
          [23, 'Café', 10, 8],
        ]),
      ),
    [on(mapOps.getFloorMap, { id: 1 })]: () =>
      reply(
        floorMapSchema,
        map(1, [
          [11, 'Entrance hall', 0, 0],
          [12, 'Desk', 4, 4],
        ]),
      ),
    [on(buildingOps.listSpeechTexts, { id: 10 })]: () =>
      reply(z.array(speechTextSchema), [
        {
          id: 4,
          buildingId: 10,
          language: 'en',
          text: 'Good morning',
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      ]),
    [on(checkItemOps.listCheckItems)]: () =>
      reply(
        z.array(checkItemSchema),
        (
          [
            [41, 'Gauge on floor 1', 1],
            [42, 'Gauge on floor 2', 2],
          ] as const
        ).map(([id, name, floorId]) => checkItem(id, name, floorId)),
      ),
    [on(commandOps.listCommands)]: () =>
      reply(z.array(commandSchema), [
        {
          id: 3,
          organizationId: 1,
          name: 'Night check',
          description: '',
          category: 100,
          scope: 0,
          modelsAllowed: [],
          parameters: [{ name: 'zone', type: 'string', preset: 'A' }],
          definition: { version: 1, steps: [{ kind: 'returnToCharger', id: 'r' }] },
          status: 1,
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      ]),
  });
}

/** The definition as the advanced JSON view holds it (opens the tab, reads, comes back). */
async function jsonOf(app: ReturnType<typeof renderApp>) {
  await app.user.click(screen.getByTestId('flow-tab-json'));
  const value = (screen.getByTestId('flow-definition') as HTMLTextAreaElement).value;
  await app.user.click(screen.getByTestId('flow-tab-builder'));
  return JSON.parse(value) as { version: number; steps: Step[] };
}

describe('flow builder', () => {
  it('adds steps from the palette with defaults from the floor map, nests one in a loop, edits a parameter and saves the JSON', async () => {
    const { calls } = routes();
    const app = renderApp('/flow/5', { session: makeSession(2) });
    const palette = await screen.findByTestId('flow-palette', {}, slow);
    // The palette by category, library commands included.
    expect(within(palette).getByRole('group', { name: 'Movement' })).toBeInTheDocument();
    expect(await within(palette).findByTestId('flow-palette-command-3', {}, slow)).toHaveTextContent('Night check');
    // Wait for the floor's map so the move gets its first waypoint.
    await waitFor(() => expect(screen.getByTestId('flow-preview-floor-2').querySelector('svg')).not.toBeNull());

    await app.user.click(screen.getByRole('button', { name: 'Add Move to waypoint' }));
    await app.user.click(screen.getByRole('button', { name: 'Add Take photo' }));
    await app.user.click(screen.getByRole('button', { name: 'Add Speak' }));
    expect(screen.getByTestId('flow-step-steps.0')).toHaveTextContent('Move to waypoint');
    expect(screen.getByTestId('flow-step-steps.0')).toHaveTextContent('Lobby');
    expect(screen.getByTestId('flow-step-steps.2')).toHaveTextContent('Good morning');
    // The preview numbers the move on the floor's map.
    expect(screen.getByTestId('flow-preview-target-1')).toHaveTextContent('1');

    // A loop after the speech, then the photo dragged into it.
    await app.user.click(screen.getByTestId('flow-palette-loop'));
    expect(screen.getByTestId('flow-loop-count-steps.3')).toHaveTextContent('× 2');
    const dataTransfer = { effectAllowed: '', setData: () => undefined };
    fireEvent.dragStart(screen.getByTestId('flow-step-head-steps.1'), { dataTransfer });
    fireEvent.dragOver(screen.getByTestId('flow-drop-steps.3'), { dataTransfer });
    fireEvent.drop(screen.getByTestId('flow-drop-steps.3'), { dataTransfer });
    expect(await screen.findByTestId('flow-step-steps.2.steps.0')).toHaveAttribute('data-kind', 'takePhoto');

    // The loop's count: until cancelled.
    await app.user.click(screen.getByTestId('flow-step-select-steps.2'));
    await app.user.click(within(screen.getByTestId('flow-step-steps.2')).getByTestId('flow-field-forever'));
    expect(screen.getByTestId('flow-loop-count-steps.2')).toHaveTextContent('until cancelled');

    // A parameter: the move's waypoint, picked by name.
    await app.user.click(screen.getByTestId('flow-step-select-steps.0'));
    await app.user.selectOptions(
      within(screen.getByTestId('flow-step-steps.0')).getByTestId('flow-field-waypointId'),
      'Café',
    );
    expect(screen.getByTestId('flow-step-steps.0')).toHaveTextContent('Café');

    const def = await jsonOf(app);
    expect(def.steps).toEqual([
      { kind: 'moveToWaypoint', id: 'moveToWaypoint-1', waypointId: 23 },
      { kind: 'speak', id: 'speak-1', speechTextId: 4 },
      {
        kind: 'loop',
        id: 'loop-1',
        count: null,
        steps: [{ kind: 'takePhoto', id: 'takePhoto-1', camera: 'v1', resolution: '1080p', saveAsTaskImage: false }],
      },
    ]);
    expect(screen.getByTestId('flow-builder-valid')).toBeInTheDocument();

    await app.user.click(screen.getByTestId('flow-save'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT' && c.path === '/api/flows/5')?.body).toMatchObject({
        definition: def,
      }),
    );
  }, 60_000);

  it('shows a validation message at its step with a summary, and follows edits of the JSON view', async () => {
    routes([
      { kind: 'returnToCharger', id: 'r1' },
      { kind: 'taskEvent', id: 'e1', level: 5, message: 'Door open' },
    ]);
    const app = renderApp('/flow/5', { session: makeSession(2) });
    const bad = await screen.findByTestId('flow-step-steps.1', {}, slow);
    expect(bad).toHaveAttribute('data-invalid', 'true');
    expect(within(bad).getByTestId('flow-step-problems-steps.1')).toHaveTextContent(
      'Only allowed between task start and task complete',
    );
    expect(screen.getByTestId('flow-builder-problems')).toHaveTextContent('Step 2 (Task event notification)');
    expect(screen.getByTestId('flow-step-steps.0')).not.toHaveAttribute('data-invalid');

    // A task start first (the first step selected: it goes after it) and the task complete at the end.
    await app.user.click(screen.getByTestId('flow-step-select-steps.0'));
    await app.user.click(screen.getByTestId('flow-palette-taskStart'));
    await app.user.click(screen.getByTestId('flow-step-up-steps.1'));
    await waitFor(() => expect(screen.getByTestId('flow-step-steps.0')).toHaveAttribute('data-kind', 'taskStart'));
    // The event is inside the task now; the task is not completed yet.
    expect(screen.getByTestId('flow-step-steps.2')).not.toHaveAttribute('data-invalid');
    expect(screen.getByTestId('flow-step-problems-steps.0')).toHaveTextContent('This task is never completed');
    await app.user.click(screen.getByTestId('flow-step-select-steps.2'));
    await app.user.click(screen.getByTestId('flow-palette-taskComplete'));
    expect(await screen.findByTestId('flow-builder-valid')).toBeInTheDocument();
    // The steps of the task are shown inside it.
    expect(screen.getByTestId('flow-step-steps.1')).toHaveAttribute('data-in-task', 'true');
    expect(screen.getByTestId('flow-step-steps.2')).toHaveAttribute('data-in-task', 'true');
    expect(screen.getByTestId('flow-step-steps.3')).not.toHaveAttribute('data-in-task');

    // A field's own message, at the step and in the field.
    await app.user.click(screen.getByTestId('flow-step-select-steps.2'));
    const message = within(screen.getByTestId('flow-step-steps.2')).getByTestId('flow-field-message');
    await app.user.clear(message);
    expect(screen.getByTestId('flow-step-problems-steps.2')).toHaveTextContent('Required');
    expect(screen.getByTestId('flow-builder-problems')).toHaveTextContent('Step 3 (Task event notification): Required');

    // The JSON view edited: the blocks follow.
    await app.user.click(screen.getByTestId('flow-tab-json'));
    fireEvent.change(screen.getByTestId('flow-definition'), {
      target: {
        value: JSON.stringify({
          version: 1,
          steps: [
            { kind: 'wait', id: 'w', seconds: 5 },
            { kind: 'loop', id: 'l', count: 3, steps: [] },
          ],
        }),
      },
    });
    await app.user.click(screen.getByTestId('flow-tab-builder'));
    expect(screen.getByTestId('flow-step-steps.0')).toHaveTextContent('Wait');
    expect(screen.getByTestId('flow-loop-count-steps.1')).toHaveTextContent('× 3');
    expect(screen.getByTestId('flow-step-problems-steps.1')).toHaveTextContent('A loop needs at least one step');

    // JSON that is not a definition: the builder says so and keeps nothing stale.
    await app.user.click(screen.getByTestId('flow-tab-json'));
    fireEvent.change(screen.getByTestId('flow-definition'), { target: { value: '{"version":1,' } });
    await app.user.click(screen.getByTestId('flow-tab-builder'));
    expect(screen.getByTestId('flow-builder-not-blocks')).toBeInTheDocument();
  }, 60_000);

  it('duplicates with fresh ids, deletes, picks another floor and its waypoint, and a waypoint on the preview', async () => {
    routes([{ kind: 'moveToWaypoint', id: 'm1', waypointId: 21 }]);
    const app = renderApp('/flow/5', { session: makeSession(2) });
    await screen.findByTestId('flow-step-steps.0', {}, slow);
    await app.user.click(screen.getByRole('button', { name: 'Duplicate step 1' }));
    expect(screen.getByTestId('flow-step-steps.1')).toHaveAttribute('data-step-id', 'moveToWaypoint-1');
    // The copy is selected: a waypoint clicked on the preview goes into it.
    await waitFor(() => expect(screen.getByTestId('flow-preview-waypoint-22')).toHaveAttribute('role', 'button'));
    fireEvent.click(screen.getByTestId('flow-preview-waypoint-22'));
    expect(screen.getByTestId('flow-step-steps.1')).toHaveTextContent('Gate');
    expect(screen.getByTestId('flow-preview-target-2')).toBeInTheDocument();

    await app.user.click(screen.getByTestId('flow-palette-moveToFloor'));
    const ride = within(screen.getByTestId('flow-step-steps.2'));
    // Another floor of the building (not the one the robot is on), then a waypoint of that floor's map.
    expect(ride.getByTestId('flow-field-floorId')).toHaveValue('1');
    expect(within(ride.getByTestId('flow-field-floorId')).queryByText('Office')).toBeNull();
    await waitFor(() =>
      expect(within(ride.getByTestId('flow-field-waypointId')).getByText('Desk')).toBeInTheDocument(),
    );
    await app.user.selectOptions(ride.getByTestId('flow-field-waypointId'), 'Desk');
    expect(screen.getByTestId('flow-step-steps.2')).toHaveTextContent('Entrance / Desk');
    // The second floor's part of the path in its own panel.
    expect(await screen.findByTestId('flow-preview-floor-1')).toHaveTextContent('Entrance');

    await app.user.click(screen.getByRole('button', { name: 'Delete step 1' }));
    const def = await jsonOf(app);
    expect(def.steps.map((s) => s.id)).toEqual(['moveToWaypoint-1', 'moveToFloor-1']);
    expect(def.steps[1]).toMatchObject({ floorId: 1, waypointId: 12 });
  }, 60_000);
});

describe('flow builder by drag and drop and keyboard', () => {
  it('drags a palette entry into a loop and a step out of it, and keeps the focus on a moved step', async () => {
    routes([
      { kind: 'wait', id: 'w1', seconds: 3 },
      { kind: 'loop', id: 'l1', count: 2, steps: [{ kind: 'face', id: 'f1', expression: 'smile' }] },
    ]);
    const app = renderApp('/flow/5', { session: makeSession(2) });
    await screen.findByTestId('flow-step-steps.1', {}, slow);
    const dataTransfer = { effectAllowed: '', setData: () => undefined };
    const drag = (from: HTMLElement, to: HTMLElement) => {
      fireEvent.dragStart(from, { dataTransfer });
      fireEvent.dragOver(to, { dataTransfer });
      fireEvent.drop(to, { dataTransfer });
    };

    // A palette entry dropped on the loop's zone goes to the loop's end.
    drag(screen.getByTestId('flow-palette-lights'), screen.getByTestId('flow-drop-steps.1'));
    expect(await screen.findByTestId('flow-step-steps.1.steps.1')).toHaveAttribute('data-kind', 'lights');
    expect(screen.getByTestId('flow-step-steps.1.steps.1')).toHaveAttribute('data-step-id', 'lights-1');
    // A step dragged out of the loop to the end zone.
    drag(screen.getByTestId('flow-step-head-steps.1.steps.0'), screen.getByTestId('flow-drop-end'));
    expect(await screen.findByTestId('flow-step-steps.2')).toHaveAttribute('data-kind', 'face');
    expect(screen.getByTestId('flow-step-steps.1.steps.0')).toHaveAttribute('data-kind', 'lights');

    // The buttons: up steps into the loop met on the way; the focus stays on the moved step's button.
    await app.user.click(screen.getByTestId('flow-step-up-steps.2'));
    expect(await screen.findByTestId('flow-step-steps.1.steps.1')).toHaveAttribute('data-kind', 'face');
    await waitFor(() => expect(screen.getByTestId('flow-step-up-steps.1.steps.1')).toHaveFocus());
    expect(screen.getByTestId('flow-builder-announcement')).toHaveTextContent('Step moved: now step 2.2');
    await app.user.keyboard('{Enter}');
    expect(await screen.findByTestId('flow-step-steps.1.steps.0')).toHaveAttribute('data-kind', 'face');
    await waitFor(() => expect(screen.getByTestId('flow-step-up-steps.1.steps.0')).toHaveFocus());
    // A click on the selected step closes it: the palette adds at the end again.
    await app.user.click(screen.getByTestId('flow-step-select-steps.1.steps.0'));
    expect(screen.queryByTestId('flow-step-fields')).toBeNull();
    await app.user.click(screen.getByTestId('flow-palette-wait'));
    expect(screen.getByTestId('flow-step-steps.2')).toHaveAttribute('data-kind', 'wait');

    const def = await jsonOf(app);
    expect(def.steps).toEqual([
      { kind: 'wait', id: 'w1', seconds: 3 },
      {
        kind: 'loop',
        id: 'l1',
        count: 2,
        steps: [
          { kind: 'face', id: 'f1', expression: 'smile' },
          { kind: 'lights', id: 'lights-1', ringLight: true },
        ],
      },
      { kind: 'wait', id: 'wait-1', seconds: 10 },
    ]);
  }, 60_000);
});

describe('flow builder parameter forms', () => {
  it('takes a negative angle typed key by key, a retry policy and a person detection', async () => {
    routes([]);
    const app = renderApp('/flow/5', { session: makeSession(2) });
    await app.user.click(await screen.findByTestId('flow-palette-pose', {}, slow));
    const pose = within(screen.getByTestId('flow-step-steps.0'));
    await app.user.clear(pose.getByTestId('flow-field-pan'));
    await app.user.type(pose.getByTestId('flow-field-pan'), '-30');
    expect(pose.getByTestId('flow-field-pan')).toHaveValue('-30');
    await app.user.selectOptions(pose.getByTestId('flow-field-onError'), 'retry');
    await app.user.clear(pose.getByTestId('flow-field-retries'));
    await app.user.type(pose.getByTestId('flow-field-retries'), '4');

    await app.user.click(screen.getByTestId('flow-palette-wait'));
    const wait = within(screen.getByTestId('flow-step-steps.1'));
    await app.user.click(wait.getByTestId('flow-field-detectPerson'));
    await app.user.clear(wait.getByTestId('flow-field-distance'));
    await app.user.type(wait.getByTestId('flow-field-distance'), '7');
    // Out of the detection range: the message at the field and the step.
    expect(screen.getByTestId('flow-step-problems-steps.1')).toHaveTextContent(
      'The detection distance must be between 0.5 and 5 m',
    );

    const def = await jsonOf(app);
    expect(def.steps).toEqual([
      {
        kind: 'pose',
        id: 'pose-1',
        target: 'gimbal',
        pan: -30,
        tilt: 0,
        onError: { policy: 'retry', retries: 4 },
      },
      { kind: 'wait', id: 'wait-1', seconds: 10, detectPerson: { camera: 'v1', distanceM: 7 } },
    ]);
  }, 60_000);
});

describe('flow builder meter check', () => {
  it("adds a meter check with a check item of the flow's floor and a camera", async () => {
    routes([]);
    const app = renderApp('/flow/5', { session: makeSession(2) });
    await app.user.click(await screen.findByTestId('flow-palette-meterCheck', {}, slow));
    const step = within(screen.getByTestId('flow-step-steps.0'));
    // The flow is on floor 2: its item is offered (and chosen), the other floor's is not.
    const select = step.getByTestId('flow-field-checkItemId') as HTMLSelectElement;
    await waitFor(() => expect(select).toHaveValue('42'));
    const labels = [...select.options].map((o) => o.textContent);
    expect(labels).toContain('Gauge on floor 2');
    expect(labels).not.toContain('Gauge on floor 1');
    // The default camera, the front one, is shown as chosen (the step omits it).
    expect(step.getByTestId('flow-field-camera')).toHaveValue('v1');
    await app.user.selectOptions(step.getByTestId('flow-field-camera'), 'g1');
    const def = await jsonOf(app);
    expect(def.steps).toEqual([{ kind: 'meterCheck', id: 'meterCheck-1', checkItemId: 42, camera: 'g1' }]);
  }, 60_000);

  it("draws a meter check's drive to its check item in the path preview, in English and Japanese", async () => {
    routes([{ kind: 'meterCheck', id: 'm', checkItemId: 42 }]);
    const app = renderApp('/flow/5', { session: makeSession(2) });
    const floor = await screen.findByTestId('flow-preview-floor-2', {}, slow);
    // The only step is the meter check: a numbered target at the item's place with its name, no "no moves".
    const target = await within(floor).findByTestId('flow-preview-target-1', {}, slow);
    expect(target).toHaveTextContent('1');
    expect(target).toHaveTextContent('Gauge on floor 2');
    expect(target.querySelector('title')).toHaveTextContent('Meter check: Gauge on floor 2');
    expect(floor).not.toHaveTextContent(flowsEn.flowEditor.builder.preview.noMoves);
    // Drawn at the item's x, y (1, 2) on the floor's sketch (map x 0..10, y 0..8: px(1), py(2)).
    const pad = 10 * 0.08;
    const circle = target.querySelector('circle')!;
    expect(Number(circle.getAttribute('cx'))).toBeCloseTo(1 + pad);
    expect(Number(circle.getAttribute('cy'))).toBeCloseTo(8 - 2 + pad);

    app.unmount();

    await i18n.changeLanguage('ja');
    try {
      renderApp('/flow/5', { session: makeSession(2) });
      const ja = await screen.findByTestId('flow-preview-floor-2', {}, slow);
      const jaTarget = await within(ja).findByTestId('flow-preview-target-1', {}, slow);
      expect(jaTarget.querySelector('title')).toHaveTextContent(
        flowsJa.flowEditor.builder.preview.checkItem.replace('{{name}}', 'Gauge on floor 2'),
      );
      expect(jaTarget).toHaveTextContent('Gauge on floor 2');
      expect(ja).not.toHaveTextContent(flowsJa.flowEditor.builder.preview.noMoves);
    } finally {
      await i18n.changeLanguage('en');
    }
  }, 60_000);
});

describe('builder tree moves', () => {
  const steps = parseDefinitionText(
    JSON.stringify({
      version: 1,
      steps: [
        { kind: 'wait', id: 'a', seconds: 1 },
        { kind: 'loop', id: 'l', count: 2, steps: [{ kind: 'wait', id: 'b', seconds: 1 }] },
        { kind: 'wait', id: 'c', seconds: 1 },
      ],
    }),
  )!;
  const ids = (s: Step[]): unknown => s.map((x) => (x.kind === 'loop' ? [x.id, ids(x.steps as Step[])] : x.id));

  it('moves into a loop, out of it, and refuses a loop into itself', () => {
    expect(ids(moveStep(steps, [0], { parent: [1], index: 1 })!.steps)).toEqual([['l', ['b', 'a']], 'c']);
    expect(ids(moveStep(steps, [1, 0], { parent: [], index: 3 })!.steps)).toEqual(['a', ['l', []], 'c', 'b']);
    expect(moveStep(steps, [1], { parent: [1], index: 0 })).toBeNull();
  });

  it('the buttons step into a loop met on the way and out at its ends', () => {
    expect(ids(nudgeStep(steps, [2], -1)!.steps)).toEqual(['a', ['l', ['b', 'c']]]);
    expect(ids(nudgeStep(steps, [0], 1)!.steps)).toEqual([['l', ['a', 'b']], 'c']);
    expect(ids(nudgeStep(steps, [1, 0], -1)!.steps)).toEqual(['a', 'b', ['l', []], 'c']);
    expect(ids(nudgeStep(steps, [1, 0], 1)!.steps)).toEqual(['a', ['l', []], 'b', 'c']);
    expect(nudgeStep(steps, [0], -1)).toBeNull();
  });
});

describe('path preview', () => {
  it('numbers the moves in order across floors and joins a loop back to its start', () => {
    const steps = parseDefinitionText(
      JSON.stringify({
        version: 1,
        steps: [
          { kind: 'moveToWaypoint', id: 'a', waypointId: 21 },
          {
            kind: 'loop',
            id: 'l',
            count: 2,
            steps: [
              { kind: 'followRoute', id: 'r', routeId: 7 },
              { kind: 'moveToWaypoint', id: 'b', waypointId: 23 },
            ],
          },
          { kind: 'moveToFloor', id: 'f', floorId: 1, waypointId: 12 },
          { kind: 'moveToWaypoint', id: 'c', waypointId: 11 },
        ],
      }),
    )!;
    const maps = new Map([
      [
        2,
        map(2, [
          [21, 'Lobby', 0, 0],
          [22, 'Gate', 10, 0],
          [23, 'Café', 10, 8],
        ]),
      ],
      [
        1,
        map(1, [
          [11, 'Entrance hall', 0, 0],
          [12, 'Desk', 4, 4],
        ]),
      ],
    ]);
    const targets = moveTargets(steps, 2, maps);
    expect(targets.map((x) => [x.number, x.floorId, x.waypointIds])).toEqual([
      [1, 2, [21]],
      [2, 2, [21, 22, 23]],
      [3, 2, [23]],
      [4, 1, [12]],
      [5, 1, [11]],
    ]);
    expect(loopReturns(steps, targets).map((x) => [x.loopKey, x.from.number, x.to.number])).toEqual([
      ['steps.1', 3, 2],
    ]);
  });
  it("takes a meter check's drive to its check item on the robot's floor, not one of another floor", () => {
    const steps = parseDefinitionText(
      JSON.stringify({
        version: 1,
        steps: [
          { kind: 'meterCheck', id: 'm', checkItemId: 42 },
          { kind: 'meterCheck', id: 'n', checkItemId: 41 },
          { kind: 'moveToWaypoint', id: 'a', waypointId: 21 },
        ],
      }),
    )!;
    const items = [
      checkItemSchema.parse({ ...checkItem(42, 'Gauge on floor 2', 2), x: 3.5, y: -1, direction: 1.57 }),
      checkItemSchema.parse(checkItem(41, 'Gauge on floor 1', 1)),
    ];
    const targets = moveTargets(steps, 2, new Map(), items);
    expect(targets.map((x) => [x.number, x.floorId, x.waypointIds, x.checkItem?.name])).toEqual([
      [1, 2, [], 'Gauge on floor 2'],
      [2, 2, [21], undefined],
    ]);
    expect(targets[0]!.checkItem).toMatchObject({ x: 3.5, y: -1, direction: 1.57 });
  });
});
