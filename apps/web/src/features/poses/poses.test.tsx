import {
  buildingListSchema,
  buildingOps,
  homeArms,
  poseDefOps,
  poseDefSchema,
  poseNetworkOps,
  poseNetworkSchema,
  type PoseDef,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { posesEn } from '@/locales/en/poses';
import { posesJa } from '@/locales/ja/poses';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 5000 };

const pose = (id: number, name: string, over: Partial<PoseDef> = {}): PoseDef =>
  poseDefSchema.parse({
    id,
    organizationId: 1,
    buildingId: null,
    buildingName: null,
    name,
    armModel: 100,
    armType: 1,
    arms: homeArms(100, 1),
    periscopeMm: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  });

describe('pose form', () => {
  it('shows each joint with its limits, validates ranges and the periscope, and posts the pose', async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(buildingOps.listBuildings)]: () => reply(buildingListSchema, []),
      [on(poseDefOps.createPoseDef)]: (c) => reply(poseDefSchema, { ...pose(9, 'Wave'), ...(c.body as object) }, 201),
      [on(poseDefOps.getPoseDef, { id: 9 })]: () => reply(poseDefSchema, pose(9, 'Wave')),
    });
    const app = renderApp('/pose-def/create', { session: makeSession(2) });
    await screen.findByTestId('pose-form', {}, slow);
    // Model 100: four joints per arm with their ranges.
    expect(screen.getByTestId('pose-joint-0-1-range')).toHaveTextContent('-90° to 180°');
    expect(screen.getByTestId('pose-joint-0-2-range')).toHaveTextContent('0° to 135°');
    expect(screen.queryByTestId('pose-joint-0-4')).not.toBeInTheDocument();
    expect(screen.queryByTestId('pose-periscope')).not.toBeInTheDocument();

    // Dual arm with periscope on model 300: two arms of six joints and the periscope range.
    await app.user.selectOptions(screen.getByTestId('pose-arm-model'), '300');
    await app.user.selectOptions(screen.getByTestId('pose-arm-type'), '22');
    expect(screen.getByTestId('pose-arm-1')).toBeInTheDocument();
    expect(screen.getByTestId('pose-joint-1-5-range')).toHaveTextContent('-180° to 180°');
    expect(screen.getByTestId('pose-periscope-range')).toHaveTextContent('0 to 800 mm');
    expect(screen.getByTestId('pose-drawing-arm-1')).toBeInTheDocument();

    // Out of range values and no name: messages under the fields, nothing sent.
    await app.user.clear(screen.getByTestId('pose-joint-0-2'));
    await app.user.type(screen.getByTestId('pose-joint-0-2'), '170');
    await app.user.clear(screen.getByTestId('pose-periscope'));
    await app.user.type(screen.getByTestId('pose-periscope'), '900');
    await app.user.click(screen.getByTestId('pose-save'));
    await waitFor(() => expect(screen.getAllByText('The value is out of range')).toHaveLength(2));
    expect(screen.getByText('Required')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await app.user.clear(screen.getByTestId('pose-joint-0-2'));
    await app.user.type(screen.getByTestId('pose-joint-0-2'), '90');
    await app.user.clear(screen.getByTestId('pose-periscope'));
    await app.user.type(screen.getByTestId('pose-periscope'), '400');
    await app.user.type(screen.getByTestId('pose-name'), 'Wave');
    await app.user.click(screen.getByTestId('pose-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const body = calls.find((c) => c.method === 'POST')!.body as PoseDef;
    expect(body).toMatchObject({ name: 'Wave', armModel: 300, armType: 22, periscopeMm: 400, buildingId: null });
    expect(body.arms).toHaveLength(2);
    expect(body.arms[0]).toEqual([0, -80, 90, 0, 0, 0]);
    await waitFor(() => expect(app.location()).toBe('/pose-def/9'));
  }, 45_000);

  it('shows the server rule next to the field and is read-only for general operators', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(buildingOps.listBuildings)]: () => reply(buildingListSchema, []),
      [on(poseDefOps.getPoseDef, { id: 5 })]: () => reply(poseDefSchema, pose(5, 'Bow')),
    });
    renderApp('/pose-def/5', { session: makeSession(0) });
    expect(await screen.findByTestId('pose-title', {}, slow)).toHaveTextContent('Bow');
    expect(screen.queryByTestId('pose-save')).not.toBeInTheDocument();
    expect(screen.getByTestId('pose-name')).toBeDisabled();
    expect(screen.getByText(posesEn.poseCommon.readOnly)).toBeInTheDocument();
  }, 20_000);

  it('names the networks when a pose in use cannot be deleted', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(buildingOps.listBuildings)]: () => reply(buildingListSchema, []),
      [on(poseDefOps.getPoseDef, { id: 5 })]: () => reply(poseDefSchema, pose(5, 'Bow')),
      [on(poseDefOps.deletePoseDef, { id: 5 })]: () =>
        replyError('IN_USE', [{ path: 'networks.3', message: 'Greeting', code: 'poseValidation.inUse' }]),
    });
    const app = renderApp('/pose-def/5', { session: makeSession(2) });
    await app.user.click(await screen.findByTestId('pose-delete', {}, slow));
    const dialog = await screen.findByRole('dialog', {}, slow);
    await app.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByTestId('pose-delete-error', {}, slow)).toHaveTextContent(
      'This pose is used by pose networks: Greeting.',
    );
  }, 20_000);

  it('a stale save opens the conflict dialog; "show the stored version" replaces the typed name', async () => {
    let stored = pose(5, 'Bow');
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(buildingOps.listBuildings)]: () => reply(buildingListSchema, []),
      [on(poseDefOps.getPoseDef, { id: 5 })]: () => reply(poseDefSchema, stored),
      [on(poseDefOps.updatePoseDef, { id: 5 })]: () => replyError('STALE_UPDATE'),
    });
    const app = renderApp('/pose-def/5', { session: makeSession(2) });
    const name = await screen.findByTestId('pose-name', {}, slow);
    await app.user.clear(name);
    await app.user.type(name, 'Mine');
    stored = pose(5, 'Wave', { updatedAt: '2026-01-02T00:00:00.000Z' });
    await app.user.click(screen.getByTestId('pose-save'));
    await app.user.click(await screen.findByTestId('conflict-reload', {}, slow));
    await waitFor(() => expect(screen.getByTestId('pose-name')).toHaveValue('Wave'));
    expect(screen.getByTestId('pose-title')).toHaveTextContent('Wave');
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      name: 'Mine',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
  }, 20_000);
});

describe('pose network planner', () => {
  it('draws the graph and plans the fewest steps, or says there is no way', async () => {
    const poses = [pose(1, 'Home'), pose(2, 'Raise'), pose(3, 'Wave'), pose(4, 'Rest')];
    const network = poseNetworkSchema.parse({
      id: 7,
      organizationId: 1,
      buildingId: null,
      buildingName: null,
      name: 'Greeting',
      armModel: 100,
      armType: 1,
      nodes: poses.map((p) => ({ id: p.id, name: p.name })),
      edges: [
        { from: 1, to: 2, bidirectional: true },
        { from: 2, to: 3, bidirectional: false },
      ],
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    mockApi({
      ...signedInRoutes(),
      [on(buildingOps.listBuildings)]: () => reply(buildingListSchema, []),
      [on(poseNetworkOps.getPoseNetwork, { id: 7 })]: () => reply(poseNetworkSchema, network),
      [on(poseDefOps.listPoseDefs)]: () => reply(z.array(poseDefSchema), poses),
    });
    const app = renderApp('/pose-network/7', { session: makeSession(0) });
    expect(await screen.findByTestId('network-title', {}, slow)).toHaveTextContent('Greeting');
    const graph = screen.getByTestId('network-graph');
    expect(within(graph).getAllByTestId(/^network-node-/)).toHaveLength(4);
    expect(within(graph).getByTestId('network-edge-1-2')).toHaveAttribute('marker-start');
    expect(within(graph).getByTestId('network-edge-2-3')).not.toHaveAttribute('marker-start');

    const result = screen.getByTestId('check-result');
    await app.user.selectOptions(screen.getByTestId('check-from'), '1');
    await app.user.selectOptions(screen.getByTestId('check-to'), '3');
    expect(result).toHaveTextContent('2 steps');
    expect(result).toHaveTextContent('Home→Raise→Wave');
    // One way only: no way back from Wave.
    await app.user.selectOptions(screen.getByTestId('check-from'), '3');
    await app.user.selectOptions(screen.getByTestId('check-to'), '1');
    expect(result).toHaveTextContent('No way from the start pose to the goal pose');
    await app.user.selectOptions(screen.getByTestId('check-to'), '4');
    expect(result).toHaveTextContent('No way');
    // The planner works for read-only operators; editing does not.
    expect(screen.queryByTestId('network-save')).not.toBeInTheDocument();
    expect(screen.queryByTestId('edge-add')).not.toBeInTheDocument();
  }, 20_000);

  it('adds transitions, refuses self-loops and duplicates, and saves the graph', async () => {
    const poses = [pose(1, 'Home'), pose(2, 'Raise'), pose(3, 'Wave')];
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(buildingOps.listBuildings)]: () => reply(buildingListSchema, []),
      [on(poseDefOps.listPoseDefs)]: () => reply(z.array(poseDefSchema), poses),
      [on(poseNetworkOps.createPoseNetwork)]: () =>
        replyError('DUPLICATE', [{ path: 'name', message: 'validation.duplicate' }]),
    });
    const app = renderApp('/pose-network/create', { session: makeSession(2) });
    await app.user.click(await screen.findByTestId('network-pose-1', {}, slow));
    await app.user.click(screen.getByTestId('network-pose-2'));
    await app.user.click(screen.getByTestId('network-pose-3'));
    await app.user.selectOptions(screen.getByTestId('edge-from'), '1');
    await app.user.selectOptions(screen.getByTestId('edge-to'), '1');
    expect(screen.getByTestId('edge-add')).toBeDisabled();
    await app.user.selectOptions(screen.getByTestId('edge-to'), '2');
    await app.user.click(screen.getByTestId('edge-add'));
    // The same pair again (either direction) is refused.
    await app.user.selectOptions(screen.getByTestId('edge-from'), '2');
    await app.user.selectOptions(screen.getByTestId('edge-to'), '1');
    expect(screen.getByTestId('edge-add')).toBeDisabled();
    await app.user.selectOptions(screen.getByTestId('edge-to'), '3');
    await app.user.click(screen.getByTestId('edge-both'));
    await app.user.click(screen.getByTestId('edge-add'));
    expect(screen.getAllByTestId(/^edge-row-/)).toHaveLength(2);
    await app.user.selectOptions(screen.getByTestId('check-from'), '3');
    await app.user.selectOptions(screen.getByTestId('check-to'), '1');
    expect(screen.getByTestId('check-result')).toHaveTextContent('No way');

    await app.user.type(screen.getByTestId('network-name'), 'Greeting');
    await app.user.click(screen.getByTestId('network-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      name: 'Greeting',
      nodes: [1, 2, 3],
      edges: [
        { from: 1, to: 2, bidirectional: true },
        { from: 2, to: 3, bidirectional: false },
      ],
    });
    expect(await screen.findByText(posesEn.poseCommon.duplicate, {}, slow)).toBeInTheDocument();
  }, 20_000);
});

describe('poses section texts', () => {
  type Tree = { [key: string]: string | Tree };
  const flatten = (tree: Tree, prefix = ''): string[] =>
    Object.entries(tree).flatMap(([k, v]) =>
      typeof v === 'string' ? [`${prefix}${k}`] : flatten(v, `${prefix}${k}.`),
    );
  it('has the same keys in ja and en', () => {
    expect(flatten(posesJa as Tree).sort()).toEqual(flatten(posesEn as Tree).sort());
  });
});
