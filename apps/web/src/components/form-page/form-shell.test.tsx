import { MantineProvider, TextInput } from '@mantine/core';
import { ApiError } from '@portal/contract';
import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { FormShell, LeaveGuardDialog, LockedFields, OptionalNumberInput, useFormKit } from '.';

interface Thing {
  id: number;
  name: string;
  updatedAt: string;
}
interface Values {
  name: string;
}
const valuesOf = (t: Thing): Values => ({ name: t.name });

/** What the "server" holds and answers; each test sets `save` to decide the answer. */
interface Server {
  stored: Thing;
  save: (body: { name: string; updatedAt: string }) => Promise<Thing>;
  sent: { name: string; updatedAt: string }[];
}

function ThingForm({ record, reload, server }: { record: Thing; reload: () => Promise<Thing>; server: Server }) {
  const form = useForm<Values>({ defaultValues: valuesOf(record) });
  const kit = useFormKit(form, {
    fields: ['name'],
    duplicateText: 'That name is taken.',
    record,
    reload,
    toValues: valuesOf,
  });
  const mutation = useMutation({
    mutationFn: (body: { name: string; updatedAt: string }) => {
      server.sent.push(body);
      return server.save(body);
    },
  });
  const onSubmit = form.handleSubmit((v) =>
    mutation.mutate({ name: v.name, updatedAt: kit.base?.updatedAt ?? '' }, kit.saved()),
  );
  return (
    <FormShell kit={kit} onSubmit={onSubmit} mutation={mutation} label="thing" submitTestId="save">
      <TextInput label="Name" error={kit.err('name')} {...form.register('name')} />
    </FormShell>
  );
}

function Page({ server }: { server: Server }) {
  const [record, setRecord] = useState(server.stored);
  const reload = () => {
    const fresh = { ...server.stored };
    setRecord(fresh);
    return Promise.resolve(fresh);
  };
  return (
    <>
      <ThingForm record={record} reload={reload} server={server} />
      <button type="button" onClick={() => setRecord({ ...server.stored })}>
        background refresh
      </button>
      <Link to="/elsewhere">elsewhere</Link>
    </>
  );
}

function setup(stored: Thing = { id: 1, name: 'Alpha', updatedAt: 'v1' }) {
  const server: Server = { stored, save: vi.fn(), sent: [] };
  const router = createMemoryRouter(
    [
      { path: '/thing', element: <Page server={server} /> },
      { path: '/elsewhere', element: <p>elsewhere page</p> },
    ],
    { initialEntries: ['/thing'] },
  );
  const user = userEvent.setup();
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
        <LeaveGuardDialog />
      </QueryClientProvider>
    </MantineProvider>,
  );
  const name = () => screen.getByLabelText('Name') as HTMLInputElement;
  const retype = async (text: string) => {
    await user.clear(name());
    await user.type(name(), text);
  };
  return { server, router, user, name, retype };
}

describe('form kit', () => {
  it('puts a server field error under its field, with no alert', async () => {
    const { server, user, retype } = setup();
    server.save = () =>
      Promise.reject(new ApiError(409, 'DUPLICATE', 'dup', [{ path: 'name', message: 'validation.duplicate' }]));
    await retype('Beta');
    await user.click(screen.getByTestId('save'));
    expect(await screen.findByText('That name is taken.')).toBeInTheDocument();
    expect(screen.queryByTestId('form-error')).not.toBeInTheDocument();
  });

  it('shows a failure no field explains as one alert, and the typed values stay', async () => {
    const { server, user, name, retype } = setup();
    server.save = () => Promise.reject(new ApiError(403, 'FORBIDDEN', 'no'));
    await retype('Beta');
    await user.click(screen.getByTestId('save'));
    expect(await screen.findByTestId('form-error')).toHaveTextContent(/permission|権限/);
    expect(name().value).toBe('Beta');
    // Once the form changes, the alert no longer speaks of it (a corrected wrong password, say).
    await user.type(name(), 'x');
    expect(screen.queryByTestId('form-error')).not.toBeInTheDocument();
    await user.click(screen.getByTestId('save'));
    expect(await screen.findByTestId('form-error')).toBeInTheDocument();
  });

  it('after a save the form counts as unchanged: leaving does not ask', async () => {
    const { server, router, user, retype } = setup();
    server.save = (b) => Promise.resolve({ id: 1, name: b.name, updatedAt: 'v2' });
    await retype('Beta');
    await user.click(screen.getByTestId('save'));
    await waitFor(() => expect(screen.getByTestId('form-cancel')).toBeDisabled());
    await user.click(screen.getByRole('link', { name: 'elsewhere' }));
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('asks before leaving with unsaved changes; Cancel puts back the stored values', async () => {
    const { router, user, name, retype } = setup();
    await retype('Beta');
    await user.click(screen.getByRole('link', { name: 'elsewhere' }));
    expect(await screen.findByTestId('leave-guard-leave')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Stay|留まる/ }));
    expect(router.state.location.pathname).toBe('/thing');
    await user.click(screen.getByTestId('form-cancel'));
    expect(name().value).toBe('Alpha');
  });

  it('a stale save opens the conflict dialog; "keep my values" keeps them and the next save sends the new version', async () => {
    const { server, user, name, retype } = setup();
    server.save = () => Promise.reject(new ApiError(409, 'STALE_UPDATE', 'stale'));
    await retype('Mine');
    server.stored = { id: 1, name: 'Theirs', updatedAt: 'v2' };
    await user.click(screen.getByTestId('save'));
    await user.click(await screen.findByTestId('conflict-keep'));
    await waitFor(() => expect(screen.queryByTestId('conflict-keep')).not.toBeInTheDocument());
    expect(name().value).toBe('Mine');
    server.save = (b) => Promise.resolve({ id: 1, name: b.name, updatedAt: 'v3' });
    await user.click(screen.getByTestId('save'));
    await waitFor(() => expect(server.sent).toHaveLength(2));
    expect(server.sent[0]).toEqual({ name: 'Mine', updatedAt: 'v1' });
    expect(server.sent[1]).toEqual({ name: 'Mine', updatedAt: 'v2' });
  });

  it('a stale save answered with "show the stored version" discards the typed values', async () => {
    const { server, user, name, retype } = setup();
    server.save = () => Promise.reject(new ApiError(409, 'STALE_UPDATE', 'stale'));
    await retype('Mine');
    server.stored = { id: 1, name: 'Theirs', updatedAt: 'v2' };
    await user.click(screen.getByTestId('save'));
    await user.click(await screen.findByTestId('conflict-reload'));
    await waitFor(() => expect(name().value).toBe('Theirs'));
    expect(screen.getByTestId('form-cancel')).toBeDisabled();
  });

  it('a background refresh never moves the version under typed values, but is taken while nothing is typed', async () => {
    const { server, user, name, retype } = setup();
    server.stored = { id: 1, name: 'Theirs', updatedAt: 'v2' };
    await user.click(screen.getByRole('button', { name: 'background refresh' }));
    await waitFor(() => expect(name().value).toBe('Theirs'));

    await retype('Mine');
    server.stored = { id: 1, name: 'Third', updatedAt: 'v3' };
    await user.click(screen.getByRole('button', { name: 'background refresh' }));
    server.save = () => Promise.reject(new ApiError(409, 'STALE_UPDATE', 'stale'));
    await user.click(screen.getByTestId('save'));
    await screen.findByTestId('conflict-keep');
    expect(name().value).toBe('Mine');
    expect(server.sent[0]).toEqual({ name: 'Mine', updatedAt: 'v2' });
  });
});

/** A form with the shell's optional parts: its own translator, a start action, a way back, locking. */
function OptionsForm({ readOnly, save }: { readOnly: boolean; save: () => Promise<unknown> }) {
  const form = useForm<Values>({ defaultValues: { name: '' } });
  const kit = useFormKit(form, {
    fields: ['name'],
    translate: (m) => (m === undefined ? undefined : `own:${m}`),
  });
  const mutation = useMutation({ mutationFn: save });
  const onSubmit = form.handleSubmit(() => mutation.mutate(undefined, kit.saved()));
  return (
    <FormShell
      kit={kit}
      onSubmit={onSubmit}
      mutation={mutation}
      label="options"
      submitTestId="save"
      readOnly={readOnly}
      cancelTo="/elsewhere"
      cancelLabel="Back to list"
      startActions={<button type="button">Delete</button>}
      actions={<button type="button">More</button>}
    >
      <LockedFields locked={readOnly}>
        <TextInput label="Name" error={kit.err('name')} {...form.register('name')} />
      </LockedFields>
    </FormShell>
  );
}

function setupOptions(readOnly: boolean, save: () => Promise<unknown> = () => Promise.resolve({})) {
  const router = createMemoryRouter(
    [
      { path: '/thing', element: <OptionsForm readOnly={readOnly} save={save} /> },
      { path: '/elsewhere', element: <p>elsewhere page</p> },
    ],
    { initialEntries: ['/thing'] },
  );
  const user = userEvent.setup();
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { router, user };
}

describe('form shell options', () => {
  it("translates field messages with the form's own translator", async () => {
    const { user } = setupOptions(false, () =>
      Promise.reject(new ApiError(400, 'VALIDATION_FAILED', 'bad', [{ path: 'name', message: 'poseValidation.x' }])),
    );
    await user.click(screen.getByTestId('save'));
    expect(await screen.findByText('own:poseValidation.x')).toBeInTheDocument();
  });

  it('shows the start actions, the actions and a named Cancel that goes back', async () => {
    const { router, user } = setupOptions(false);
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'More' })).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Back to list' }));
    expect(router.state.location.pathname).toBe('/elsewhere');
  });

  it('read-only: the fields are locked, Save and the actions are gone, the way back stays', () => {
    setupOptions(true);
    expect(screen.getByLabelText('Name')).toBeDisabled();
    expect(screen.queryByTestId('save')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'More' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back to list' })).toBeEnabled();
  });
});

function NumberForm({ onValue }: { onValue: (v: number | null) => void }) {
  const form = useForm<{ x: number | null }>({ defaultValues: { x: 1.5 } });
  return (
    <>
      <Controller
        control={form.control}
        name="x"
        render={({ field }) => (
          <OptionalNumberInput
            label="X"
            value={field.value}
            onChange={(v) => {
              field.onChange(v);
              onValue(v);
            }}
          />
        )}
      />
      <button type="button" onClick={() => form.reset({ x: 2 })}>
        reset to 2
      </button>
      <button type="button" onClick={() => form.reset({ x: null })}>
        reset to none
      </button>
    </>
  );
}

describe('OptionalNumberInput', () => {
  it('keeps what was typed, gives null for empty and NaN for text, and shows a value reset from outside', async () => {
    const values: (number | null)[] = [];
    const user = userEvent.setup();
    render(
      <MantineProvider env="test">
        <NumberForm onValue={(v) => values.push(v)} />
      </MantineProvider>,
    );
    const x = () => screen.getByLabelText('X') as HTMLInputElement;
    expect(x().value).toBe('1.5');
    await user.clear(x());
    expect(values.at(-1)).toBeNull();
    await user.type(x(), '3.50');
    expect(x().value).toBe('3.50');
    expect(values.at(-1)).toBe(3.5);
    await user.clear(x());
    await user.type(x(), 'abc');
    expect(x().value).toBe('abc');
    expect(values.at(-1)).toBeNaN();

    await user.click(screen.getByRole('button', { name: 'reset to 2' }));
    expect(x().value).toBe('2');
    await user.click(screen.getByRole('button', { name: 'reset to none' }));
    expect(x().value).toBe('');
  });
});

describe('inline form shell', () => {
  it('puts the fields, Save and the actions in one row, without Cancel', () => {
    function Inline() {
      const form = useForm<Values>({ defaultValues: { name: '' } });
      const kit = useFormKit(form, { fields: ['name'] });
      const mutation = useMutation({ mutationFn: () => Promise.resolve({}) });
      return (
        <FormShell
          kit={kit}
          onSubmit={form.handleSubmit(() => mutation.mutate(undefined, kit.saved()))}
          mutation={mutation}
          label="add"
          submitLabel="Add"
          inline
          actions={<button type="button">Fill in mine</button>}
        >
          <TextInput label="Name" {...form.register('name')} />
        </FormShell>
      );
    }
    const router = createMemoryRouter([{ path: '/', element: <Inline /> }]);
    render(
      <MantineProvider env="test">
        <QueryClientProvider client={new QueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    const row = screen.getByLabelText('Name').closest('.mantine-Group-root');
    expect(row).toContainElement(screen.getByRole('button', { name: 'Add' }));
    expect(row).toContainElement(screen.getByRole('button', { name: 'Fill in mine' }));
    expect(screen.queryByTestId('form-cancel')).not.toBeInTheDocument();
  });
});

describe('FormShell creating or editing', () => {
  function CreateOrEdit({ record }: { record?: Thing }) {
    const form = useForm<Values>({ defaultValues: record ? valuesOf(record) : { name: '' } });
    const kit = useFormKit(form, { fields: ['name'], record, toValues: valuesOf });
    const mutation = useMutation({ mutationFn: () => Promise.resolve(null) });
    return (
      <FormShell
        kit={kit}
        onSubmit={form.handleSubmit(() => undefined)}
        mutation={mutation}
        label="thing"
        createLabel="Register"
        createCancelTo="/elsewhere"
      >
        <TextInput label="Name" {...form.register('name')} />
      </FormShell>
    );
  }
  const renderAt = (record?: Thing) => {
    const router = createMemoryRouter(
      [
        { path: '/thing', element: <CreateOrEdit record={record} /> },
        { path: '/elsewhere', element: <p>elsewhere page</p> },
      ],
      { initialEntries: ['/thing'] },
    );
    render(
      <MantineProvider>
        <QueryClientProvider client={new QueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>,
    );
  };

  it('while creating: the create label, and Cancel goes where the form says', async () => {
    renderAt();
    expect(screen.getByRole('button', { name: 'Register' })).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('form-cancel'));
    expect(await screen.findByText('elsewhere page')).toBeInTheDocument();
  });

  it('on an edit: Save, and Cancel puts back the stored values instead of leaving', async () => {
    renderAt({ id: 1, name: 'Alpha', updatedAt: 'v1' });
    expect(screen.queryByRole('button', { name: 'Register' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(screen.getByTestId('form-cancel')).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Name'), 'x');
    await userEvent.click(screen.getByTestId('form-cancel'));
    expect(screen.getByLabelText('Name')).toHaveValue('Alpha');
    expect(screen.queryByText('elsewhere page')).toBeNull();
  });
});
