import {
  robotFeatureOps,
  thermalPresetSaveResultSchema,
  thermalPresetSchema,
  type ThermalPreset,
} from '@portal/contract';
import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AppProvider } from '@/app/provider';
import { i18n } from '@/lib/i18n';
import { teleopEn } from '@/locales/en/teleop';
import { mockApi, on, reply, replyError } from '@/testing/mock-api';
import type { useRobotActions } from '../hooks/use-robot-action';
import { showNotification } from '@/lib/notify';
import { ThermalPresets } from './thermal-presets';

// The toasts' host belongs to the app layout, not rendered here: the messages are read where they are sent.
vi.mock('@/lib/notify', () => ({ showNotification: vi.fn(), useNotificationsRequested: () => false }));
const notify = vi.mocked(showNotification);

const slow = { timeout: 10_000 };
const preset = (over: Partial<ThermalPreset> = {}): ThermalPreset =>
  thermalPresetSchema.parse({
    id: 1,
    robotId: 7,
    name: 'Boiler',
    colorMap: 'ir',
    rangeMin: 30,
    rangeMax: 90,
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  });

function renderPanel() {
  const actions = { run: vi.fn(() => Promise.resolve()) } as unknown as ReturnType<typeof useRobotActions>;
  const router = createMemoryRouter(
    [{ path: '/', element: <ThermalPresets robotId={7} colorMap="mono" actions={actions} enabled /> }],
    { initialEntries: ['/'] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <AppProvider queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { user: userEvent.setup(), actions };
}

/** The thermal preset panel of the operator screen, on the form kit. */
describe('thermal presets', () => {
  // The operator screen's texts load with its route; here the panel is rendered alone.
  beforeEach(() => {
    i18n.addResourceBundle('en', 'translation', teleopEn, true, true);
  });

  it('checks the fields with the contract, saves with the camera’s colour map, says so and empties the name', async () => {
    const { calls } = mockApi({
      [on(robotFeatureOps.listThermalPresets)]: () => reply(z.array(thermalPresetSchema), [preset()]),
      [on(robotFeatureOps.saveThermalPreset)]: (call) =>
        reply(
          thermalPresetSaveResultSchema,
          { preset: preset({ id: 2, ...(call.body as object) }), overwritten: false, deleted: ['Old one'] },
          201,
        ),
    });
    const { user } = renderPanel();
    expect(await screen.findByText('Boiler', {}, slow)).toBeInTheDocument();
    const name = screen.getByTestId('thermal-preset-name');
    await user.clear(screen.getByTestId('thermal-preset-max'));
    await user.type(screen.getByTestId('thermal-preset-max'), '10');
    await user.click(screen.getByTestId('thermal-preset-save'));
    // A name is required, and then the range must run upwards: nothing is sent.
    expect(await screen.findByText('Required')).toBeInTheDocument();
    await user.type(name, 'Pipes');
    await user.click(screen.getByTestId('thermal-preset-save'));
    await waitFor(() => expect(screen.getByTestId('thermal-preset-max')).toHaveAttribute('aria-invalid', 'true'));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(screen.getByTestId('thermal-preset-max'));
    await user.type(screen.getByTestId('thermal-preset-max'), '60');
    await user.click(screen.getByTestId('thermal-preset-save'));
    await waitFor(() =>
      expect(notify.mock.calls.map(([n]) => n.message)).toEqual([
        'Preset “Pipes” saved',
        'Only 5 presets are kept: “Old one” was deleted',
      ]),
    );
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Pipes',
      colorMap: 'mono',
      rangeMin: 20,
      rangeMax: 60,
    });
    await waitFor(() => expect(name).toHaveValue(''));
  });

  it('shows the server’s refusal under its field', async () => {
    mockApi({
      [on(robotFeatureOps.listThermalPresets)]: () => reply(z.array(thermalPresetSchema), []),
      [on(robotFeatureOps.saveThermalPreset)]: () =>
        replyError('VALIDATION_FAILED', [{ path: 'name', message: 'validation.max40' }]),
    });
    const { user } = renderPanel();
    await user.type(await screen.findByTestId('thermal-preset-name', {}, slow), 'Tank');
    await user.click(screen.getByTestId('thermal-preset-save'));
    expect(await screen.findByText('Enter at most 40 characters', {}, slow)).toBeInTheDocument();
  });
});
