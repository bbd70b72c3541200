import { commandOps, commandSchema, commandUsageSchema, type Command } from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commandsEn } from '@/locales/en/commands';
import { commandsJa } from '@/locales/ja/commands';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 5000 };

const command = (id: number, name: string, over: Partial<Command> = {}): Command =>
  commandSchema.parse({
    id,
    organizationId: 1,
    name,
    description: '',
    category: 100,
    scope: 0,
    modelsAllowed: ['temi'],
    parameters: [],
    definition: { version: 1, steps: [{ kind: 'returnToCharger', id: 's1' }] },
    status: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  });

const filterOf = (search: URLSearchParams) => JSON.parse(search.get('filter') ?? '{}') as { where?: unknown };

describe('command list', () => {
  it('shows the library and sends the category, scope and name filters to the server', async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(commandOps.listCommands)]: () => reply(z.array(commandSchema), [command(3, 'Night patrol')]),
    });
    const app = renderApp('/command/list', { session: makeSession(2) });
    const row = await screen.findByTestId('command-row-3', {}, slow);
    expect(row).toHaveTextContent('Night patrol');
    expect(row).toHaveTextContent('Security');
    expect(row).toHaveTextContent('Publish');
    expect(row).toHaveTextContent('temi');
    expect(screen.getByTestId('command-create')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Night patrol' })).toHaveAttribute('href', '/command/3');

    await app.user.selectOptions(screen.getByTestId('command-list-category'), '200');
    await app.user.selectOptions(screen.getByTestId('command-list-scope'), '1');
    await app.user.type(screen.getByTestId('command-list-search'), 'night{Enter}');
    await waitFor(() =>
      expect(filterOf(calls.filter((c) => c.method === 'GET' && c.path === '/api/commands').at(-1)!.search)).toEqual(
        expect.objectContaining({
          where: { and: [{ name: { like: '%night%' } }, { category: 200 }, { scope: 1 }] },
        }),
      ),
    );
    expect(app.location()).toContain('category=200');
  }, 30_000);

  it('sends general operators to the read-only view with the notice to ask their administrator', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(commandOps.listCommands)]: () => reply(z.array(commandSchema), [command(3, 'Night patrol')]),
    });
    const app = renderApp('/command/list', { session: makeSession(0) });
    expect(await screen.findByTestId('command-read-only', {}, slow)).toHaveTextContent(commandsEn.commands.readOnly);
    expect(app.location()).toBe('/command/list/read-only');
    expect(await screen.findByTestId('command-row-3', {}, slow)).toBeInTheDocument();
    expect(screen.queryByTestId('command-create')).not.toBeInTheDocument();
  }, 20_000);
  it('shows area managers the list without create, with the notice', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(commandOps.listCommands)]: () => reply(z.array(commandSchema), [command(3, 'Night patrol')]),
    });
    const app = renderApp('/command/list', { session: makeSession(1) });
    expect(await screen.findByTestId('command-row-3', {}, slow)).toBeInTheDocument();
    expect(app.location()).toBe('/command/list');
    expect(screen.getByTestId('command-read-only')).toHaveTextContent(commandsEn.commands.readOnly);
    expect(screen.queryByTestId('command-create')).not.toBeInTheDocument();
  }, 20_000);
});

describe('command form', () => {
  it('checks the definition live, puts the server errors on the fields and creates the command', async () => {
    let answer: 'invalid' | 'ok' = 'invalid';
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(commandOps.createCommand)]: (c) =>
        answer === 'invalid'
          ? replyError('VALIDATION_FAILED', [{ path: 'scope', message: 'flowValidation.scopeSystemOnly' }])
          : reply(commandSchema, { ...command(9, 'Wave'), ...(c.body as object) }, 201),
      [on(commandOps.getCommand, { id: 9 })]: () => reply(commandSchema, command(9, 'Greet')),
    });
    const app = renderApp('/command/create', { session: makeSession(2) });
    await screen.findByTestId('command-form', {}, slow);
    // Organization administrators are not offered the alpha and development scopes.
    expect(within(screen.getByTestId('command-scope')).queryByText('Alpha')).not.toBeInTheDocument();
    expect(screen.getByTestId('command-definition-valid')).toBeInTheDocument();

    const definition = screen.getByTestId('command-definition');
    await app.user.clear(definition);
    await app.user.type(definition, '{{');
    expect(await screen.findByTestId('command-definition-problems')).toHaveTextContent('Not valid JSON');
    await app.user.clear(definition);
    await app.user.paste(
      JSON.stringify({
        version: 1,
        steps: [{ kind: 'wait', id: 'w', seconds: 5, detectPerson: { camera: 'v1', distanceM: 9 } }],
      }),
    );
    expect(await screen.findByTestId('command-definition-problems')).toHaveTextContent(
      'The detection distance must be between 0.5 and 5 m',
    );
    // No name and a bad definition: nothing is sent.
    await app.user.click(screen.getByTestId('command-save'));
    expect(await screen.findByText('Required')).toBeInTheDocument();
    expect(screen.getByText(commandsEn.commands.json.fix)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await app.user.clear(definition);
    await app.user.paste(JSON.stringify({ version: 1, steps: [{ kind: 'returnToCharger', id: 's1' }] }));
    await app.user.type(screen.getByTestId('command-name'), 'Greet');
    await app.user.selectOptions(screen.getByTestId('command-category'), '400');
    await app.user.click(screen.getByTestId('command-param-add'));
    await app.user.type(screen.getByTestId('command-param-0-name'), 'volume');
    await app.user.selectOptions(screen.getByTestId('command-param-0-type'), 'number');
    await app.user.type(screen.getByTestId('command-param-0-preset'), '40');
    await app.user.click(screen.getByTestId('command-save'));
    // The server's reason goes under its field.
    expect(await screen.findByText('Only system administrators can use this scope', {}, slow)).toBeInTheDocument();

    answer = 'ok';
    await app.user.click(screen.getByTestId('command-save'));
    await waitFor(() => expect(app.location()).toBe('/command/9'));
    expect(calls.filter((c) => c.method === 'POST').at(-1)!.body).toMatchObject({
      name: 'Greet',
      category: 400,
      scope: 1,
      status: 1,
      parameters: [{ name: 'volume', type: 'number', preset: 40 }],
      definition: { version: 1, steps: [{ kind: 'returnToCharger', id: 's1' }] },
    });
  }, 60_000);

  it('offers system administrators the alpha and development scopes and a system command', async () => {
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(commandOps.createCommand)]: (c) =>
        reply(commandSchema, { ...command(9, 'Beta'), ...(c.body as object), organizationId: null }, 201),
      [on(commandOps.getCommand, { id: 9 })]: () => reply(commandSchema, command(9, 'Beta', { organizationId: null })),
    });
    const app = renderApp('/command/create', { session: makeSession(9) });
    await app.user.type(await screen.findByTestId('command-name', {}, slow), 'Beta');
    await app.user.selectOptions(screen.getByTestId('command-scope'), '3');
    await app.user.click(screen.getByTestId('command-system'));
    await app.user.click(screen.getByTestId('command-save'));
    await waitFor(() => expect(app.location()).toBe('/command/9'));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({
      name: 'Beta',
      scope: 3,
      organizationId: null,
    });
    expect(calls.find((c) => c.method === 'POST')!.body).not.toHaveProperty('systemCommand');
  }, 30_000);

  it('shows the flows using a command when its delete is refused, and the usage page links to them', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(commandOps.getCommand, { id: 5 })]: () => reply(commandSchema, command(5, 'Bow')),
      [on(commandOps.deleteCommand, { id: 5 })]: () =>
        replyError('IN_USE', [{ path: 'flows.12', message: 'Lobby patrol', code: 'flowValidation.inUse' }]),
      [on(commandOps.getCommandUsage, { id: 5 })]: () =>
        reply(z.array(commandUsageSchema), [
          { id: 12, name: 'Lobby patrol', buildingId: 1, buildingName: 'HQ', floorId: 2 },
        ]),
    });
    const app = renderApp('/command/5', { session: makeSession(2) });
    expect(await screen.findByTestId('command-definition', {}, slow)).toHaveValue(
      JSON.stringify({ version: 1, steps: [{ kind: 'returnToCharger', id: 's1' }] }, null, 2),
    );
    await app.user.click(screen.getByTestId('command-delete'));
    const dialog = await screen.findByRole('dialog', {}, slow);
    await app.user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    const error = await screen.findByTestId('command-delete-error', {}, slow);
    expect(within(error).getByRole('link', { name: 'Lobby patrol' })).toHaveAttribute('href', '/flow/12');

    await app.user.click(within(error).getByTestId('command-usage-link'));
    const link = await screen.findByTestId('usage-flow-12', {}, slow);
    expect(link).toHaveAttribute('href', '/flow/12');
    expect(screen.getByTestId('usage-table')).toHaveTextContent('HQ');
    expect(await screen.findByTestId('usage-title')).toHaveTextContent('Flows using "Bow"');
  }, 30_000);

  it('a stale save opens the conflict dialog; "show the stored version" replaces the typed values', async () => {
    let stored = command(5, 'Bow');
    const { calls } = mockApi({
      ...signedInRoutes(),
      [on(commandOps.getCommand, { id: 5 })]: () => reply(commandSchema, stored),
      [on(commandOps.updateCommand, { id: 5 })]: () => replyError('STALE_UPDATE'),
    });
    const app = renderApp('/command/5', { session: makeSession(2) });
    const name = await screen.findByTestId('command-name', {}, slow);
    await app.user.clear(name);
    await app.user.type(name, 'Mine');
    stored = command(5, 'Wave', { updatedAt: '2026-01-02T00:00:00.000Z' });
    await app.user.click(screen.getByTestId('command-save'));
    await app.user.click(await screen.findByTestId('conflict-reload', {}, slow));
    await waitFor(() => expect(screen.getByTestId('command-name')).toHaveValue('Wave'));
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      name: 'Mine',
      updatedAt: '2026-01-01T00:00:00.000Z',
      definition: { version: 1, steps: [{ kind: 'returnToCharger', id: 's1' }] },
    });
  }, 20_000);

  it('is read-only for area managers and general operators', async () => {
    mockApi({
      ...signedInRoutes(),
      [on(commandOps.getCommand, { id: 5 })]: () => reply(commandSchema, command(5, 'Bow')),
    });
    renderApp('/command/5', { session: makeSession(0) });
    expect(await screen.findByTestId('command-title', {}, slow)).toHaveTextContent('Bow');
    expect(screen.queryByTestId('command-save')).not.toBeInTheDocument();
    expect(screen.queryByTestId('command-delete')).not.toBeInTheDocument();
    expect(screen.getByTestId('command-name')).toBeDisabled();
    expect(screen.getByTestId('command-read-only')).toHaveTextContent(commandsEn.commands.readOnly);
  }, 20_000);
});

describe('commands section texts', () => {
  it('has the §6 notice in both languages', () => {
    expect(commandsJa.commands.readOnly).toContain('組織の管理者');
  });
});
