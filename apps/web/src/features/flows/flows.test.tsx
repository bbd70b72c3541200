import { flowOps, flowSchema, type Flow } from '@portal/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flowsEn } from '@/locales/en/flows';
import { flowsJa } from '@/locales/ja/flows';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 5000 };

const flow = (id: number, name: string, over: Partial<Flow> = {}): Flow =>
  flowSchema.parse({
    id,
    organizationId: 1,
    buildingId: 10,
    floorId: 2,
    flowGroupId: null,
    name,
    description: '',
    displayOrder: id,
    enabled: true,
    definition: { version: 1, steps: [{ kind: 'returnToCharger', id: 's1' }] },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  });

const listRoutes = (flows: Flow[]) => ({
  ...signedInRoutes(),
  [on(flowOps.listFlows)]: () => reply(z.array(flowSchema), flows),
});

describe('flow settings list', () => {
  it("lists the flows of the user's building and first floor, switches one off and reorders by the buttons", async () => {
    const flows = [flow(1, 'Morning'), flow(2, 'Night')];
    const { calls } = mockApi({
      ...listRoutes(flows),
      [on(flowOps.setFlowEnabled)]: () => reply(flowSchema, { ...flows[0]!, enabled: false }),
      [on(flowOps.reorderFlows)]: () => reply(z.array(flowSchema), [flows[1]!, flows[0]!]),
    });
    const app = renderApp('/flow/settings', { session: makeSession(2) });
    const row = await screen.findByTestId('flow-row-1', {}, slow);
    // One step, no flow group: the count alone, in the singular.
    expect(within(row).getByText('1 step')).toBeInTheDocument();
    const list = calls.find((c) => c.path === '/api/flows')!;
    expect(JSON.parse(list.search.get('filter') ?? '{}')).toEqual(
      expect.objectContaining({ where: { and: [{ buildingId: 10 }, { floorId: 2 }] } }),
    );

    await app.user.click(screen.getByTestId('flow-enabled-1'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT' && c.path === '/api/flows/1/enabled')?.body).toEqual({
        enabled: false,
      }),
    );

    await app.user.click(screen.getByTestId('flow-down-1'));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT' && c.path === '/api/flows/order')?.body).toEqual({
        buildingId: 10,
        floorId: 2,
        ids: [2, 1],
      }),
    );
  }, 30_000);

  it('reorders by drag and drop', async () => {
    const flows = [flow(1, 'Morning'), flow(2, 'Night'), flow(3, 'Evening')];
    const { calls } = mockApi({
      ...listRoutes(flows),
      [on(flowOps.reorderFlows)]: () => reply(z.array(flowSchema), [flows[2]!, flows[0]!, flows[1]!]),
    });
    renderApp('/flow/settings', { session: makeSession(2) });
    const from = await screen.findByTestId('flow-row-3', {}, slow);
    const to = screen.getByTestId('flow-row-1');
    const dataTransfer = { effectAllowed: '', setData: () => undefined };
    fireEvent.dragStart(from, { dataTransfer });
    fireEvent.dragOver(to, { dataTransfer });
    fireEvent.drop(to, { dataTransfer });
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT' && c.path === '/api/flows/order')?.body).toEqual({
        buildingId: 10,
        floorId: 2,
        ids: [3, 1, 2],
      }),
    );
  }, 30_000);

  it("turns read-only with the notice to ask the administrator when the server refuses a restricted operator's change", async () => {
    mockApi({
      ...listRoutes([flow(1, 'Morning'), flow(2, 'Night')]),
      [on(flowOps.setFlowEnabled)]: () => replyError('FLOW_EDIT_RESTRICTED'),
    });
    const app = renderApp('/flow/settings', { session: makeSession(0) });
    await screen.findByTestId('flow-row-1', {}, slow);
    await app.user.click(screen.getByTestId('flow-enabled-1'));
    expect(await screen.findByTestId('flow-read-only')).toHaveTextContent('Ask your organization administrator');
    expect(screen.queryByTestId('flow-create')).not.toBeInTheDocument();
    expect(screen.queryByTestId('flow-up-2')).not.toBeInTheDocument();
    expect(screen.getByTestId('flow-enabled-1')).toBeDisabled();
    expect(screen.getByTestId('flow-enabled-1')).toBeChecked();
  }, 30_000);
});

describe('flow form', () => {
  it('lists the definition problems at their steps as the user types, and an outline of valid steps', async () => {
    mockApi({ ...signedInRoutes(), [on(flowOps.getFlow)]: () => reply(flowSchema, flow(5, 'Patrol')) });
    const app = renderApp('/flow/5', { session: makeSession(2) });
    await app.user.click(await screen.findByTestId('flow-tab-json', {}, slow));
    const text = await screen.findByTestId('flow-definition', {}, slow);
    expect(screen.getByTestId('flow-outline-steps.0')).toHaveTextContent('Return to charger');
    await app.user.clear(text);
    fireEvent.change(text, {
      target: {
        value: JSON.stringify({
          version: 1,
          steps: [
            { kind: 'taskEvent', id: 'e', level: 0, message: 'hi' },
            { kind: 'wait', id: 'w', seconds: 5, detectPerson: { camera: 'v1', distanceM: 9 } },
          ],
        }),
      },
    });
    const problems = await screen.findByTestId('flow-definition-problems');
    expect(problems).toHaveTextContent('steps.0');
    expect(problems).toHaveTextContent('Only allowed between task start and task complete');
    expect(problems).toHaveTextContent('The detection distance must be between 0.5 and 5 m');

    fireEvent.change(text, {
      target: {
        value: JSON.stringify({
          version: 1,
          steps: [{ kind: 'loop', id: 'l', count: 2, steps: [{ kind: 'moveToWaypoint', id: 'm', waypointId: 3 }] }],
        }),
      },
    });
    expect(await screen.findByTestId('flow-definition-valid')).toBeInTheDocument();
    expect(screen.getByTestId('flow-outline-steps.0')).toHaveTextContent('Loop × 2');
    expect(screen.getByTestId('flow-outline-steps.0.steps.0')).toHaveTextContent('Move to waypoint #3');
  }, 30_000);

  it("shows the server's step errors with their path, and sends the version with a save", async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(flowOps.getFlow)]: () => reply(flowSchema, flow(5, 'Patrol')),
      [on(flowOps.updateFlow)]: () =>
        replyError('VALIDATION_FAILED', [
          { path: 'definition.steps.0.waypointId', message: 'flowValidation.notOnFloor' },
        ]),
    });
    const app = renderApp('/flow/5', { session: makeSession(2) });
    const name = await screen.findByTestId('flow-name', {}, slow);
    await app.user.type(name, ' 2');
    await app.user.click(screen.getByTestId('flow-save'));
    // At the step in the builder, and with its path in the advanced JSON view.
    expect(await screen.findByTestId('flow-step-problems-steps.0')).toHaveTextContent('Not on the map of the floor');
    await app.user.click(screen.getByTestId('flow-tab-json'));
    const server = await screen.findByTestId('flow-definition-server');
    expect(within(server).getByText('steps.0.waypointId')).toBeInTheDocument();
    expect(server).toHaveTextContent('Not on the map of the floor the robot is on at this step');
    const put = calls.find((c) => c.method === 'PUT' && c.path === '/api/flows/5');
    expect(put?.body).toEqual(
      expect.objectContaining({ name: 'Patrol 2', updatedAt: '2026-01-01T00:00:00.000Z', buildingId: 10, floorId: 2 }),
    );
    expect(put?.body).not.toHaveProperty('enabled');
  }, 30_000);

  it('sets the report type of the runs in the definition (patrol, the default, left out)', async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(flowOps.getFlow)]: () => reply(flowSchema, flow(5, 'Patrol')),
      [on(flowOps.updateFlow)]: () => reply(flowSchema, flow(5, 'Patrol')),
    });
    const app = renderApp('/flow/5', { session: makeSession(2) });
    const select = await screen.findByTestId('flow-form-report-type', {}, slow);
    expect(select).toHaveValue('0');
    await app.user.selectOptions(select, '1');
    expect(select).toHaveValue('1');
    await app.user.click(screen.getByTestId('flow-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path === '/api/flows/5')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT' && c.path === '/api/flows/5')!;
    expect((put.body as { definition: unknown }).definition).toEqual({
      version: 1,
      steps: [{ kind: 'returnToCharger', id: 's1' }],
      reportType: 1,
    });
    await app.user.selectOptions(select, '0');
    expect(select).toHaveValue('0');
  }, 30_000);

  it('a stale save opens the conflict dialog; "show the stored version" replaces the typed values', async () => {
    let stored = flow(5, 'Patrol');
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(flowOps.getFlow, { id: 5 })]: () => reply(flowSchema, stored),
      [on(flowOps.updateFlow, { id: 5 })]: () => replyError('STALE_UPDATE'),
    });
    const app = renderApp('/flow/5', { session: makeSession(2) });
    const name = await screen.findByTestId('flow-name', {}, slow);
    await app.user.clear(name);
    await app.user.type(name, 'Mine');
    stored = flow(5, 'Theirs', { updatedAt: '2026-01-02T00:00:00.000Z' });
    await app.user.click(screen.getByTestId('flow-save'));
    await app.user.click(await screen.findByTestId('conflict-reload', {}, slow));
    await waitFor(() => expect(screen.getByTestId('flow-name')).toHaveValue('Theirs'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      name: 'Mine',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
  }, 30_000);

  it('deletes after confirmation and goes back to the list', async () => {
    const { calls } = mockApi({
      ...listRoutes([]),
      [on(flowOps.getFlow, { id: 5 })]: () => reply(flowSchema, flow(5, 'Patrol')),
      [on(flowOps.deleteFlow, { id: 5 })]: () => new Response(null, { status: 204 }),
    });
    const app = renderApp('/flow/5', { session: makeSession(2) });
    await app.user.click(await screen.findByTestId('flow-delete', {}, slow));
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await app.user.click(await screen.findByTestId('confirm-button'));
    await waitFor(() => expect(app.location()).toBe('/flow/settings'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/flows/5']);
  }, 30_000);

  it('has every editor text in ja and en', () => {
    const keysOf = (o: object, p = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === 'string' ? [p + k] : keysOf(v as object, `${p}${k}.`)));
    expect(keysOf(flowsJa.flowEditor)).toEqual(keysOf(flowsEn.flowEditor));
  });
});
