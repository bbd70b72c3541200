import { MantineProvider } from '@mantine/core';
import { scheduleOps, scheduleReferenceSchema } from '@portal/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadSection } from '@/lib/i18n';
import { mockApi, on, reply } from '@/testing/mock-api';
import { ReferencePanel } from './reference-panel';

const ref = {
  camera: 'v1' as const,
  url: '/api/files/0123456789abcdef0123456789abcdef?exp=1&sig=x',
  width: 1280,
  height: 720,
  takenAt: '2026-11-24T00:00:00.000Z',
  robotId: 5,
  flowId: 3,
  pose: { x: 3, y: 1, theta: 0, mapId: 'floor-1' },
};

function renderPanel() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider env="test">
        <ReferencePanel scheduleId={7} />
      </MantineProvider>
    </QueryClientProvider>,
  );
}

describe('schedule reference panel', () => {
  beforeEach(() => loadSection('schedules'));

  it('says the start position is not checked without images, and takes them on request', async () => {
    const { calls } = mockApi({
      [on(scheduleOps.listScheduleReferences, { id: 7 })]: () => reply(z.array(scheduleReferenceSchema), []),
      [on(scheduleOps.takeScheduleReferences, { id: 7 })]: () => reply(z.array(scheduleReferenceSchema), [ref]),
    });
    renderPanel();
    expect(await screen.findByText('No reference images: the start position is not checked.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Take reference images' }));
    const img = await screen.findByAltText('Reference image of camera v1');
    expect(img).toHaveAttribute('src', ref.url);
    await waitFor(() => expect(screen.queryByText(/No reference images/)).toBeNull());
    expect(calls.filter((c) => c.method === 'POST' && c.path === '/api/schedules/7/reference')).toHaveLength(1);
  }, 30_000);
});
