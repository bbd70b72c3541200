import {
  robotOps,
  robotSchema,
  workPlanOps,
  workPlanRunOps,
  workPlanRunSchema,
  workPlanSchema,
  type WorkPlanRun,
} from '@portal/contract';
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppProvider } from '@/app/provider';
import { i18n, loadSection } from '@/lib/i18n';
import { workPlansEn } from '@/locales/en/work-plans';
import { mockApi, on, reply } from '@/testing/mock-api';
import { WorkPlanAction } from './components/work-plan-run';

const slow = { timeout: 15_000 };
const at = '2026-01-01T00:00:00.000Z';

const definition = {
  version: 1 as const,
  steps: [
    {
      id: 'go',
      title: 'Go to the hall',
      type: 'move' as const,
      main: { kind: 'moveToWaypoint' as const, waypointId: 3 },
      auxiliary: [],
      before: { pose: null },
      after: { waitSeconds: 0 },
    },
    {
      id: 'press',
      title: 'Press the call button',
      type: 'pressRight' as const,
      main: { kind: 'pressButton' as const, target: 'call' },
      auxiliary: [],
      before: { pose: null },
      after: { waitSeconds: 5 },
    },
  ],
};

const plan = workPlanSchema.parse({
  id: 4,
  organizationId: 1,
  buildingId: 10,
  buildingName: 'Demo Tower',
  floorId: 20,
  floorName: '1F',
  name: 'Lift to 3F',
  description: '',
  icon: 'elevator',
  type: 0,
  status: 1,
  definition,
  templateId: null,
  createdAt: at,
  updatedAt: at,
});

const robot = robotSchema.parse({
  id: 7,
  serialNo: 'UGO-7',
  name: 'ugo',
  model: 'pro',
  version: '',
  hardwareRevision: '',
  organizationId: 1,
  buildingId: 10,
  buildingName: 'Demo Tower',
  floorId: 20,
  floorName: '1F',
  groupId: null,
  groupName: null,
  status: 1,
  longTermRecordingAutoStart: false,
  videoMode: 'high',
  notes: '',
  mqttUsername: 'robot-UGO-7',
  manufacturer: 'ugo',
  lastCommunicationAt: null,
  createdAt: at,
  updatedAt: at,
});

beforeEach(async () => {
  await i18n.changeLanguage('en');
  await loadSection('workPlans');
});

describe('work plan on the operator screen', () => {
  it('starts the only plan of the floor without a chooser, checks the confirmed steps and closes', async () => {
    let run: WorkPlanRun | null = null;
    const { calls } = mockApi({
      [on(robotOps.getRobot, { id: 7 })]: () => reply(robotSchema, robot),
      [on(workPlanOps.listWorkPlans)]: () => reply(z.array(workPlanSchema), [plan]),
      [on(workPlanRunOps.listWorkPlanRuns)]: () => reply(z.array(workPlanRunSchema), run ? [run] : []),
      [on(workPlanRunOps.startWorkPlanRun)]: () => {
        run = workPlanRunSchema.parse({
          id: 1,
          workPlanId: 4,
          workPlanName: 'Lift to 3F',
          robotId: 7,
          flowRunId: null,
          status: 'open',
          currentStep: 0,
          doneSteps: [],
          definition,
          startedAt: at,
          closedAt: null,
          updatedAt: at,
        });
        return reply(workPlanRunSchema, run, 201);
      },
      [on(workPlanRunOps.confirmWorkPlanStep, { id: 1 })]: (c) => {
        const stepId = (c.body as { stepId: string }).stepId;
        run = { ...run!, doneSteps: [...run!.doneSteps, stepId], currentStep: run!.currentStep + 1 };
        return reply(workPlanRunSchema, run);
      },
      [on(workPlanRunOps.closeWorkPlanRun, { id: 1 })]: () => {
        run = { ...run!, status: 'closed' };
        const closed = run;
        run = null;
        return reply(workPlanRunSchema, closed);
      },
    });
    const user = userEvent.setup();
    render(
      <AppProvider queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })} env="test">
        <WorkPlanAction
          robotId={7}
          buildingId={10}
          enabled
          renderPress={(arm) => <div data-testid="press-slot">{arm}</div>}
        />
      </AppProvider>,
    );
    const action = await screen.findByTestId('teleop-workplan', {}, slow);
    // Clicked at once: the only plan starts as soon as the run and the floor's plans are known.
    await user.click(action);
    const panel = await screen.findByTestId('wp-run-panel', {}, slow);
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/api/work-plan-runs')).toHaveLength(1);
    expect(screen.queryByTestId('wp-run-chooser')).not.toBeInTheDocument();
    expect(within(panel).getByTestId('wp-run-step-0')).toHaveAttribute('data-done', 'false');
    await user.click(within(panel).getByTestId('wp-run-confirm'));
    await waitFor(() => expect(screen.getByTestId('wp-run-step-0')).toHaveAttribute('data-done', 'true'), slow);
    // The button step shows the depth image press with the step's arm.
    expect(screen.getByTestId('press-slot')).toHaveTextContent('right');
    await user.click(screen.getByTestId('wp-run-confirm'));
    expect(await screen.findByText(workPlansEn.workPlans.run.allDone, {}, slow)).toBeInTheDocument();
    await user.click(screen.getByTestId('wp-run-close'));
    await waitFor(
      () => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/work-plan-runs/1/close')).toBe(true),
      slow,
    );
  }, 30_000);

  it('sends the robot with "Go", shows it moving, then the step checked when it arrives; a flow’s plan says the flow is paused', async () => {
    const base = workPlanRunSchema.parse({
      id: 2,
      workPlanId: 4,
      workPlanName: 'Lift to 3F',
      robotId: 7,
      flowRunId: 31,
      status: 'open',
      currentStep: 0,
      doneSteps: [],
      definition,
      startedAt: at,
      closedAt: null,
      updatedAt: at,
      move: null,
    });
    let run: WorkPlanRun = base;
    let reads = 0;
    const { calls } = mockApi({
      [on(robotOps.getRobot, { id: 7 })]: () => reply(robotSchema, robot),
      [on(workPlanOps.listWorkPlans)]: () => reply(z.array(workPlanSchema), [plan]),
      [on(workPlanRunOps.listWorkPlanRuns)]: () => {
        // The robot arrives on the second read after the move was sent.
        if (run.move?.status === 'moving' && ++reads >= 2)
          run = { ...run, move: { ...run.move, status: 'arrived' }, doneSteps: ['go'], currentStep: 1 };
        return reply(z.array(workPlanRunSchema), [run]);
      },
      [on(workPlanRunOps.moveWorkPlanStep, { id: 2 })]: () => {
        run = {
          ...run,
          move: { stepId: 'go', orderId: 'wp.2.go.abc', status: 'moving', errorCode: null, message: null },
        };
        return reply(workPlanRunSchema, run, 202);
      },
    });
    const user = userEvent.setup();
    render(
      <AppProvider queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })} env="test">
        <WorkPlanAction robotId={7} buildingId={10} enabled />
      </AppProvider>,
    );
    await user.click(await screen.findByTestId('teleop-workplan', {}, slow));
    const panel = await screen.findByTestId('wp-run-panel', {}, slow);
    expect(within(panel).getByTestId('wp-run-flow')).toHaveTextContent(workPlansEn.workPlans.run.flowPaused);
    await user.click(within(panel).getByTestId('wp-run-go'));
    expect(await screen.findByTestId('wp-run-moving', {}, slow)).toHaveTextContent(workPlansEn.workPlans.run.moving);
    expect(screen.getByTestId('wp-run-step-0')).toHaveAttribute('data-move', 'moving');
    expect(screen.getByTestId('wp-run-go')).toBeDisabled();
    expect(
      calls.filter((c) => c.method === 'POST' && c.path === '/api/work-plan-runs/2/move').map((c) => c.body),
    ).toEqual([{ stepId: 'go' }]);
    // Checked by the server when the robot arrived: the panel shows it without a confirm.
    await waitFor(() => expect(screen.getByTestId('wp-run-step-0')).toHaveAttribute('data-done', 'true'), slow);
    expect(screen.queryByTestId('wp-run-moving')).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/work-plan-runs/2/steps')).toBe(false);
  }, 30_000);
});
