import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, Link, RouterProvider, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { allowLeave, useLeaveGuard } from '@/lib/use-leave-guard';
import { LeaveGuardDialog } from './leave-guard-dialog';

function Editor({ label = 'name' }: { label?: string }) {
  const [text, setText] = useState('');
  const navigate = useNavigate();
  useLeaveGuard(text !== '');
  return (
    <>
      <input aria-label={label} value={text} onChange={(e) => setText(e.target.value)} />
      <Link to="/other">other</Link>
      <Link to="/edit?tab=2">tab</Link>
      <button
        type="button"
        onClick={() => {
          allowLeave();
          void navigate('/other');
        }}
      >
        saved
      </button>
    </>
  );
}

function setup(start = '/edit') {
  const router = createMemoryRouter(
    [
      { path: '/edit', element: <Editor /> },
      {
        path: '/two',
        element: (
          <>
            <Editor label="first" />
            <Editor label="second" />
          </>
        ),
      },
      { path: '/other', element: <p>other page</p> },
    ],
    { initialEntries: [start] },
  );
  const user = userEvent.setup();
  render(
    <MantineProvider env="test">
      <RouterProvider router={router} />
      <LeaveGuardDialog />
    </MantineProvider>,
  );
  const location = () => router.state.location.pathname + router.state.location.search;
  return { router, user, location };
}

describe('useLeaveGuard', () => {
  it('leaves at once while nothing changed', async () => {
    const { user, location } = setup();
    await user.click(screen.getByRole('link', { name: 'other' }));
    expect(location()).toBe('/other');
  });

  it('asks before leaving with changes: stay keeps the page, leave goes', async () => {
    const { user, location } = setup();
    await user.type(screen.getByLabelText('name'), 'x');
    await user.click(screen.getByRole('link', { name: 'other' }));
    expect(await screen.findByText('Leave without saving?')).toBeInTheDocument();
    expect(location()).toBe('/edit');

    await user.click(screen.getByRole('button', { name: 'Stay on this page' }));
    expect(screen.queryByText('Leave without saving?')).not.toBeInTheDocument();
    expect(location()).toBe('/edit');
    expect(screen.getByLabelText('name')).toHaveValue('x');

    await user.click(screen.getByRole('link', { name: 'other' }));
    await user.click(await screen.findByTestId('leave-guard-leave'));
    expect(await screen.findByText('other page')).toBeInTheDocument();
    expect(location()).toBe('/other');
  });

  it('with two forms on the page, asks when either has changes (not only the last guard registered)', async () => {
    const { user, location } = setup('/two');
    await user.type(screen.getByLabelText('first'), 'x');
    await user.click(screen.getAllByRole('link', { name: 'other' })[0]!);
    expect(await screen.findByText('Leave without saving?')).toBeInTheDocument();
    expect(location()).toBe('/two');
  });

  it('does not ask for a new query string on the same page, nor after allowLeave', async () => {
    const { user, location } = setup();
    await user.type(screen.getByLabelText('name'), 'x');
    await user.click(screen.getByRole('link', { name: 'tab' }));
    expect(location()).toBe('/edit?tab=2');
    await user.click(screen.getByRole('button', { name: 'saved' }));
    expect(await screen.findByText('other page')).toBeInTheDocument();
    expect(screen.queryByText('Leave without saving?')).not.toBeInTheDocument();
  });

  it('asks the browser before closing the tab while there are changes', async () => {
    const { user } = setup();
    const unload = () => {
      const event = new Event('beforeunload', { cancelable: true });
      act(() => {
        fireEvent(window, event);
      });
      return event.defaultPrevented;
    };
    expect(unload()).toBe(false);
    await user.type(screen.getByLabelText('name'), 'x');
    expect(unload()).toBe(true);
  });
});
