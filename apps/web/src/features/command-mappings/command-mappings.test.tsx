import {
  buildingListSchema,
  buildingOps,
  commandMappingOps,
  commandMappingSchema,
  type CommandMapping,
  type CommandMappingInput,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commandMappingsEn } from '@/locales/en/command-mappings';
import { commandMappingsJa } from '@/locales/ja/command-mappings';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 15_000 };
const en = commandMappingsEn.commandMappings;

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const mapping = (id: number, over: Partial<CommandMapping> = {}): CommandMapping =>
  commandMappingSchema.parse({
    id,
    organizationId: 1,
    buildingId: 10,
    buildingName: 'Demo Tower',
    name: `Mapping ${id}`,
    mode: 10,
    memo: '',
    revision: 3,
    status: 1,
    definition: {
      version: 1,
      entries: [
        {
          label: 'Greet',
          screen: true,
          key: 'KeyG',
          gamepadButton: 0,
          command: { kind: 'action', action: { type: 'speak', text: 'Hello', language: 'en' } },
        },
      ],
    },
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  });

const routes = () => ({
  ...signedInRoutes(),
  [on(buildingOps.listBuildings)]: () =>
    reply(buildingListSchema, [
      { id: 10, name: 'Demo Tower' },
      { id: 11, name: 'Annex' },
    ]),
});

describe('command mapping list', () => {
  it('lists mappings with mode, controls and status, and sends the filters and sort of the URL (ja)', async () => {
    const { calls } = mockApi({
      ...routes(),
      [on(commandMappingOps.listCommandMappings)]: () =>
        reply(z.array(commandMappingSchema), [
          mapping(1, { name: 'Front desk' }),
          mapping(2, { name: 'Common set', mode: 110, status: 0 }),
        ]),
    });
    await i18n.changeLanguage('ja');
    renderApp('/command-mapping/list?building=10&mode=110&status=0&sort=-updatedAt', { session: makeSession(2) });
    const table = await screen.findByTestId('command-mapping-table', {}, slow);
    expect(await within(table).findByText('Front desk', {}, slow)).toBeInTheDocument();
    expect(within(table).getByText('共通 110（モード 10）')).toBeInTheDocument();
    expect(within(table).getAllByText('Greet (G, ◯0)')).toHaveLength(2);
    expect(within(table).getByText(commandMappingsJa.commandMappings.statuses['0'])).toBeInTheDocument();
    expect(screen.getByTestId('command-mapping-create')).toBeInTheDocument();
    const list = calls.find((c) => c.method === 'GET' && c.path.startsWith('/api/command-mappings'))!;
    const filter = JSON.parse(list.search.get('filter')!) as { where: unknown; order: unknown };
    expect(filter.where).toEqual({ and: [{ buildingId: 10 }, { mode: 110 }, { status: 0 }] });
    expect(filter.order).toBe('updatedAt DESC');
  }, 30_000);

  it('tells a general operator to contact the organization administrator, and offers no create', async () => {
    mockApi({
      ...routes(),
      [on(commandMappingOps.listCommandMappings)]: () => reply(z.array(commandMappingSchema), [mapping(1)]),
    });
    renderApp('/command-mapping/list', { session: makeSession(0) });
    expect(await screen.findByTestId('command-mapping-read-only', {}, slow)).toHaveTextContent(en.readOnly);
    expect(screen.queryByTestId('command-mapping-create')).not.toBeInTheDocument();
  }, 30_000);
});

describe('command mapping form', () => {
  it('builds the definition in the table, checks it with the contract and posts the mapping', async () => {
    const { calls } = mockApi({
      ...routes(),
      [on(commandMappingOps.createCommandMapping)]: (c) =>
        reply(commandMappingSchema, { ...mapping(9), ...(c.body as CommandMappingInput) }, 201),
      [on(commandMappingOps.getCommandMapping, { id: 9 })]: () => reply(commandMappingSchema, mapping(9)),
    });
    const app = renderApp('/command-mapping/create', { session: makeSession(2, { buildingId: null }) });
    await screen.findByTestId('command-mapping-form', {}, slow);

    // Nothing filled in: name, building and the row's label are required; nothing is sent.
    await app.user.click(screen.getByTestId('command-mapping-save'));
    await waitFor(() => expect(screen.getAllByText('Required').length).toBeGreaterThanOrEqual(3), slow);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await app.user.type(screen.getByTestId('command-mapping-name'), 'Reception');
    await app.user.selectOptions(screen.getByTestId('command-mapping-building'), '10');
    await app.user.selectOptions(screen.getByTestId('command-mapping-mode'), '11');
    await app.user.type(screen.getByTestId('cm-row-0-label'), 'Greet');
    await app.user.type(screen.getByTestId('cm-row-0-text'), 'Welcome');
    await app.user.selectOptions(screen.getByTestId('cm-row-0-key'), 'KeyG');
    // A second row on the same key: the contract's rule names it.
    await app.user.click(screen.getByTestId('cm-add-row'));
    await app.user.type(screen.getByTestId('cm-row-1-label'), 'Photo');
    await app.user.selectOptions(screen.getByTestId('cm-row-1-command'), 'takePhoto');
    await app.user.selectOptions(screen.getByTestId('cm-row-1-camera'), 'g1');
    await app.user.selectOptions(screen.getByTestId('cm-row-1-key'), 'KeyG');
    await app.user.selectOptions(screen.getByTestId('cm-row-1-gamepad'), '3');
    await app.user.click(screen.getByTestId('command-mapping-save'));
    expect(
      await screen.findByText(commandMappingsEn.commandMappingValidation.duplicateKey, {}, slow),
    ).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await app.user.selectOptions(screen.getByTestId('cm-row-1-key'), 'KeyP');
    // The JSON view shows what is saved.
    await app.user.click(screen.getByText(en.editor.json));
    expect(screen.getByTestId('cm-json')).toHaveTextContent('"camera": "g1"');
    await app.user.click(screen.getByText(en.editor.table));

    await app.user.click(screen.getByTestId('command-mapping-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true), slow);
    const body = calls.find((c) => c.method === 'POST')!.body as CommandMappingInput;
    expect(body).toEqual({
      name: 'Reception',
      buildingId: 10,
      mode: 11,
      memo: '',
      status: 1,
      definition: {
        version: 1,
        entries: [
          {
            label: 'Greet',
            screen: true,
            key: 'KeyG',
            gamepadButton: null,
            command: { kind: 'action', action: { type: 'speak', text: 'Welcome', language: 'ja' } },
          },
          {
            label: 'Photo',
            screen: true,
            key: 'KeyP',
            gamepadButton: 3,
            command: { kind: 'action', action: { type: 'takePhoto', camera: 'g1' } },
          },
        ],
      },
    });
    await waitFor(() => expect(app.location()).toBe('/command-mapping/9'), slow);
  }, 60_000);

  it('shows "mode must be unused" from the server under the mode, and is read-only for area managers', async () => {
    mockApi({
      ...routes(),
      [on(commandMappingOps.getCommandMapping, { id: 5 })]: () => reply(commandMappingSchema, mapping(5)),
      [on(commandMappingOps.updateCommandMapping, { id: 5 })]: () =>
        replyError('VALIDATION_FAILED', [{ path: 'mode', message: 'commandMappingValidation.modeInUse' }]),
    });
    const app = renderApp('/command-mapping/5', { session: makeSession(2) });
    const name = await screen.findByTestId('command-mapping-name', {}, slow);
    expect(screen.getByTestId('command-mapping-revision')).toHaveTextContent('Revision 3');
    await app.user.type(name, ' A');
    await app.user.click(screen.getByTestId('command-mapping-save'));
    expect(await screen.findByText(commandMappingsEn.commandMappingValidation.modeInUse, {}, slow)).toBeInTheDocument();
    app.unmount();

    renderApp('/command-mapping/5', { session: makeSession(1) });
    expect(await screen.findByTestId('command-mapping-heading', {}, slow)).toHaveTextContent('Mapping 5');
    expect(screen.getByTestId('command-mapping-read-only')).toHaveTextContent(en.readOnly);
    expect(screen.queryByTestId('command-mapping-save')).not.toBeInTheDocument();
    expect(screen.getByTestId('command-mapping-name')).toBeDisabled();
  }, 30_000);
});
