import {
  BUILTIN_WORK_PLAN_TEMPLATES,
  buildingListSchema,
  buildingOps,
  floorListSchema,
  floorMapSchema,
  floorOps,
  mapOps,
  workPlanOps,
  workPlanSchema,
  workPlanTemplateSchema,
  type WorkPlan,
  type WorkPlanInput,
  type WorkPlanTemplate,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { workPlansEn } from '@/locales/en/work-plans';
import { workPlansJa } from '@/locales/ja/work-plans';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 15_000 };
const at = '2026-01-01T00:00:00.000Z';

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const templates: WorkPlanTemplate[] = BUILTIN_WORK_PLAN_TEMPLATES.map((b, i) =>
  workPlanTemplateSchema.parse({
    id: i + 1,
    organizationId: null,
    builtinKey: b.key,
    name: b.name,
    description: b.description,
    type: b.type,
    definition: b.definition,
    createdAt: at,
    updatedAt: at,
  }),
);

const plan = (id: number, over: Partial<WorkPlan> = {}): WorkPlan =>
  workPlanSchema.parse({
    id,
    organizationId: 1,
    buildingId: 10,
    buildingName: 'Demo Tower',
    floorId: 20,
    floorName: '1F',
    name: `Lift ${id}`,
    description: '',
    icon: 'elevator',
    type: 0,
    status: 1,
    definition: {
      version: 1,
      steps: [
        {
          id: 'press',
          title: 'Press the call button',
          type: 'pressRight',
          main: { kind: 'pressButton', target: 'call' },
          auxiliary: [],
          before: { pose: null },
          after: { waitSeconds: 5 },
        },
      ],
    },
    templateId: 1,
    createdAt: at,
    updatedAt: at,
    ...over,
  });

const routes = () => ({
  ...signedInRoutes(),
  [on(buildingOps.listBuildings)]: () => reply(buildingListSchema, [{ id: 10, name: 'Demo Tower' }]),
  [on(floorOps.listFloors, { id: 10 })]: () =>
    reply(floorListSchema, [
      { id: 21, name: '2F', index: 2 },
      { id: 20, name: '1F', index: 1 },
    ]),
  [on(mapOps.getFloorMap)]: () =>
    reply(floorMapSchema, {
      floorId: 20,
      buildingId: 10,
      revision: 1,
      savedAt: null,
      savedBy: null,
      image: null,
      document: {
        waypoints: [
          { id: 3, name: 'Elevator hall', x: 0, y: 0, theta: 0, type: 1 },
          { id: 4, name: 'Lobby', x: 4, y: 0, theta: 0, type: 1 },
        ],
        edges: [],
        routes: [],
        noGoAreas: [],
        partialMaps: [],
      },
    }),
  [on(workPlanOps.listWorkPlanTemplates)]: () => reply(z.array(workPlanTemplateSchema), templates),
  [on(workPlanOps.listWorkPlans)]: () => reply(z.array(workPlanSchema), [plan(5), plan(6, { status: 0 })]),
  [on(workPlanOps.getWorkPlan, { id: 5 })]: () => reply(workPlanSchema, plan(5)),
});

describe('work plan settings', () => {
  it('lists the work plans and the shipped templates in the reader’s language', async () => {
    mockApi(routes());
    const app = renderApp('/workplan/settings', { session: makeSession(2) });
    expect(await screen.findByTestId('wp-link-5', {}, slow)).toHaveTextContent('Lift 5');
    expect(screen.getByTestId('wp-create')).toBeInTheDocument();
    expect(screen.queryByTestId('wp-read-only')).not.toBeInTheDocument();
    await app.user.click(screen.getByTestId('wp-tab-templates'));
    expect(await screen.findByTestId('wp-template-link-1', {}, slow)).toHaveTextContent(
      workPlansEn.workPlans.builtin.elevatorRide.name,
    );
    expect(app.location()).toContain('tab=templates');
    app.unmount();

    await i18n.changeLanguage('ja');
    renderApp('/workplan/settings?tab=templates', { session: makeSession(2) });
    expect(await screen.findByTestId('wp-template-link-2', {}, slow)).toHaveTextContent(
      workPlansJa.workPlans.builtin.doorPass.name,
    );
  }, 30_000);

  it('tells non-administrators to ask their organization administrator, and offers no changes', async () => {
    mockApi(routes());
    renderApp('/workplan/settings', { session: makeSession(1) });
    expect(await screen.findByTestId('wp-read-only', {}, slow)).toHaveTextContent(workPlansEn.workPlans.readOnly);
    expect(screen.queryByTestId('wp-create')).not.toBeInTheDocument();
  }, 30_000);
});

describe('work plan form', () => {
  it('starts from a template, asks for the open waypoint, and posts the plan', async () => {
    const { calls } = mockApi({
      ...routes(),
      [on(workPlanOps.createWorkPlan)]: (c) =>
        reply(
          workPlanSchema,
          { ...plan(9), ...(c.body as WorkPlanInput), buildingName: 'Demo Tower', floorName: '1F' },
          201,
        ),
      [on(workPlanOps.getWorkPlan, { id: 9 })]: () => reply(workPlanSchema, plan(9)),
    });
    const app = renderApp('/workplan/create?template=1', { session: makeSession(2, { buildingId: 10 }) });
    const name = await screen.findByTestId('wp-name', {}, slow);
    expect(name).toHaveValue(workPlansEn.workPlans.builtin.elevatorRide.name);
    expect(screen.getByTestId('wp-step-1-title')).toHaveValue(workPlansEn.workPlans.builtinSteps.pressCall);
    await waitFor(() => expect(within(screen.getByTestId('wp-floor')).getByText('1F')).toBeInTheDocument(), slow);
    await app.user.selectOptions(screen.getByTestId('wp-floor'), '20');
    await app.user.click(screen.getByTestId('wp-save'));
    expect(await screen.findAllByText(workPlansEn.workPlanValidation.waypointRequired, {}, slow)).not.toHaveLength(0);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await waitFor(
      () => expect(within(screen.getByTestId('wp-step-0-waypoint')).getByText('Elevator hall')).toBeInTheDocument(),
      slow,
    );
    await app.user.selectOptions(screen.getByTestId('wp-step-0-waypoint'), '3');
    await app.user.click(screen.getByTestId('wp-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true), slow);
    const body = calls.find((c) => c.method === 'POST')!.body as WorkPlanInput;
    expect(body).toMatchObject({ buildingId: 10, floorId: 20, type: 0, templateId: 1, status: 1 });
    expect(body.definition.steps[0]!.main).toEqual({ kind: 'moveToWaypoint', waypointId: 3 });
    expect(body.definition.steps[1]).toMatchObject({
      type: 'pressRight',
      main: { kind: 'pressButton', target: 'call' },
    });
    await waitFor(() => expect(app.location()).toBe('/workplan/9'), slow);
  }, 60_000);

  it('builds steps from scratch: a manual check with a speech action', async () => {
    const { calls } = mockApi({
      ...routes(),
      [on(workPlanOps.createWorkPlan)]: (c) => reply(workPlanSchema, { ...plan(9), ...(c.body as WorkPlanInput) }, 201),
      [on(workPlanOps.getWorkPlan, { id: 9 })]: () => reply(workPlanSchema, plan(9)),
    });
    const app = renderApp('/workplan/create', { session: makeSession(2, { buildingId: 10 }) });
    await app.user.type(await screen.findByTestId('wp-name', {}, slow), 'Check the valve');
    await waitFor(() => expect(within(screen.getByTestId('wp-floor')).getByText('2F')).toBeInTheDocument(), slow);
    await app.user.selectOptions(screen.getByTestId('wp-floor'), '21');
    await app.user.selectOptions(screen.getByTestId('wp-type'), '1');
    await app.user.click(screen.getByTestId('wp-step-add'));
    await app.user.selectOptions(screen.getByTestId('wp-step-0-type'), 'manual');
    await app.user.type(screen.getByTestId('wp-step-0-instruction'), 'Look at the valve');
    await app.user.click(screen.getByTestId('wp-step-0-aux-add'));
    await app.user.click(await screen.findByTestId('wp-step-0-aux-add-speak', {}, slow));
    expect(await screen.findByTestId('wp-step-0-aux-0', {}, slow)).toBeInTheDocument();
    await app.user.type(within(screen.getByTestId('wp-step-0-aux-0')).getByTestId('flow-field-text'), 'Checking');
    await app.user.click(screen.getByTestId('wp-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true), slow);
    const body = calls.find((c) => c.method === 'POST')!.body as WorkPlanInput;
    expect(body).toMatchObject({ name: 'Check the valve', floorId: 21, type: 1, templateId: null });
    expect(body.definition.steps[0]).toMatchObject({
      type: 'manual',
      main: { kind: 'manualCheck', instruction: 'Look at the valve' },
      auxiliary: [{ kind: 'speak', text: 'Checking' }],
    });
  }, 60_000);

  it('shows a work plan read-only to non-administrators', async () => {
    mockApi(routes());
    renderApp('/workplan/5', { session: makeSession(0) });
    expect(await screen.findByTestId('wp-heading', {}, slow)).toHaveTextContent('Lift 5');
    expect(screen.getByTestId('wp-read-only')).toHaveTextContent(workPlansEn.workPlans.readOnly);
    expect(screen.queryByTestId('wp-save')).not.toBeInTheDocument();
    expect(screen.getByTestId('wp-step-0-target')).toHaveValue('call');
  }, 30_000);
});
