import {
  buildingOps,
  groupOpsByKind,
  buildingListSchema,
  buildingLinksSchema,
  buildingSchema,
  groupSchema,
  ipRestrictionSchema,
  speechTextSchema,
  type BuildingLinks,
  type IpRestriction,
} from '@portal/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { json, mockApi, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { at, makeBuilding, makeGroup } from './test-data';

/** The first visit loads the lazy route's modules. */
const slow = { timeout: 5000 };

const listRoute = () => {
  const response = buildingListSchema.parse([makeBuilding(), makeBuilding({ id: 11, name: 'Shinjuku Annex' })]);
  return () => new Response(JSON.stringify(response), { status: 200, headers: { 'X-Total-Count': '45' } });
};

describe('building list', { timeout: 20_000 }, () => {
  it('sends the filter of the URL state (page, sort, search) and shows the rows', async () => {
    const api = mockApi({ ...signedInRoutes(), [on(buildingOps.listBuildings)]: listRoute() });
    renderApp('/building/list?page=2&sort=name&q=Tower', { session: makeSession(2) });

    expect(await screen.findByText('Shinjuku Annex', {}, slow)).toBeInTheDocument();
    const pageCall = api.calls.find((c) => c.path === '/api/buildings' && c.search.get('filter')?.includes('skip'));
    expect(JSON.parse(pageCall?.search.get('filter') ?? '{}')).toEqual({
      where: { name: { like: '%Tower%' } },
      order: 'name ASC',
      limit: 20,
      skip: 20,
    });
    expect(screen.getByTestId('building-create')).toBeInTheDocument();
    expect(screen.getByText('45 buildings')).toBeInTheDocument();
  });

  it('hides "add building" from operators who cannot change buildings', async () => {
    mockApi({ ...signedInRoutes(), [on(buildingOps.listBuildings)]: listRoute() });
    renderApp('/building/list', { session: makeSession(1) });
    expect(await screen.findByText('Shinjuku Annex', {}, slow)).toBeInTheDocument();
    expect(screen.queryByTestId('building-create')).toBeNull();
  });
});

const restriction = (over: Partial<IpRestriction>): IpRestriction => ({
  enabled: false,
  rules: [],
  clientIp: '192.0.2.5',
  clientIpAllowed: false,
  ...over,
});

function buildingRoutes(ip: IpRestriction) {
  return {
    ...signedInRoutes(),
    [on(buildingOps.getBuilding)]: () => reply(buildingSchema, makeBuilding()),
    [on(buildingOps.getIpRestriction)]: () => reply(ipRestrictionSchema, ip),
  };
}

describe('IP restriction', { timeout: 20_000 }, () => {
  it('refuses to turn the switch on with an empty list, without calling the server', async () => {
    const api = mockApi(buildingRoutes(restriction({})));
    const app = renderApp('/building/10?tab=security', { session: makeSession(2) });

    const toggle = await screen.findByRole('switch', { name: /Restrict access by IP address/ }, slow);
    await app.user.click(toggle);
    expect(await screen.findByTestId('ip-empty-refused')).toHaveTextContent('Add at least one allowed address');
    expect(toggle).not.toBeChecked();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('warns when the own address is not on the list and confirms before enabling', async () => {
    const rules = [
      { id: 1, buildingId: 10, address: '10.0.0.0/8', description: 'Office', createdAt: '2026-01-01T00:00:00.000Z' },
    ];
    // The server's state: the restriction refetched after the switch is the one just saved.
    let current = restriction({ rules });
    const api = mockApi({
      ...buildingRoutes(current),
      [on(buildingOps.getIpRestriction)]: () => reply(ipRestrictionSchema, current),
      [on(buildingOps.setIpRestriction)]: () => {
        current = restriction({ rules, enabled: true });
        return reply(ipRestrictionSchema, current);
      },
    });
    const app = renderApp('/building/10?tab=security', { session: makeSession(2) });

    expect(await screen.findByTestId('ip-lockout-warning', {}, slow)).toHaveTextContent(
      'Your current address 192.0.2.5 is not on the list: you would lock yourself out of this building.',
    );
    await app.user.click(screen.getByRole('switch', { name: /Restrict access by IP address/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('ip-confirm-warning')).toHaveTextContent('192.0.2.5');
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);

    await app.user.click(within(dialog).getByTestId('confirm-button'));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ enabled: true }));
    expect(await screen.findByTestId('ip-lockout-warning')).toHaveTextContent('you will lock yourself out');
  });

  it('checks the address format in the browser', async () => {
    const api = mockApi(buildingRoutes(restriction({})));
    const app = renderApp('/building/10?tab=security', { session: makeSession(2) });
    await app.user.type(await screen.findByTestId('ip-address', {}, slow), '300.1.2.3');
    await app.user.click(screen.getByTestId('ip-add'));
    expect(await screen.findByText('Enter a valid IP address')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
  });
});

describe('robot groups', { timeout: 20_000 }, () => {
  it('saves the new order when a group is moved with the keyboard buttons', async () => {
    // The server's state: the groups refetched after the move are in the saved order.
    let groups = [makeGroup(1, 'North wing', 1), makeGroup(2, 'South wing', 2), makeGroup(3, 'Lobby', 3)];
    const api = mockApi({
      ...buildingRoutes(restriction({})),
      [on(groupOpsByKind['robot-group'].list)]: () => reply(z.array(groupSchema), groups),
      [on(groupOpsByKind['robot-group'].reorder)]: (call) => {
        const ids = (call.body as { ids: number[] }).ids;
        groups = ids.map((id, i) => ({ ...groups.find((g) => g.id === id)!, sortOrder: i + 1 }));
        return reply(z.array(groupSchema), groups);
      },
    });
    const app = renderApp('/building/10?tab=robotGroups', { session: makeSession(2) });

    await app.user.click(await screen.findByRole('button', { name: 'Move Lobby up' }, slow));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ ids: [1, 3, 2] }));
    await waitFor(() =>
      expect(screen.getAllByTestId('robot-group-item').map((li) => li.textContent)).toEqual([
        expect.stringContaining('North wing'),
        expect.stringContaining('Lobby'),
        expect.stringContaining('South wing'),
      ]),
    );
    expect(screen.getByRole('button', { name: 'Move North wing up' })).toBeDisabled();
  });
});

describe('building form', { timeout: 20_000 }, () => {
  it('keeps the typed values in a stale save and shows the stored version on request', async () => {
    let version = 1;
    mockApi({
      ...buildingRoutes(restriction({})),
      [on(buildingOps.getBuilding)]: () =>
        reply(
          buildingSchema,
          makeBuilding(
            version > 1 ? { name: 'Renamed elsewhere', latitude: 35.5, updatedAt: '2026-02-01T00:00:00.000Z' } : {},
          ),
        ),
      [on(buildingOps.updateBuilding)]: () => replyError('STALE_UPDATE'),
    });
    const app = renderApp('/building/10', { session: makeSession(2) });

    const name = await screen.findByRole('textbox', { name: /Building name/ }, slow);
    await app.user.clear(name);
    await app.user.type(name, 'My new name');
    await app.user.clear(screen.getByRole('textbox', { name: /Latitude/ }));
    await app.user.type(screen.getByRole('textbox', { name: /Latitude/ }), '35.1');
    await app.user.click(screen.getByTestId('building-save'));

    expect(await screen.findByTestId('conflict-dialog')).toHaveTextContent('Someone else saved this record meanwhile');
    expect(screen.getByRole('textbox', { name: /Building name/ })).toHaveValue('My new name');

    version = 2;
    await app.user.click(screen.getByTestId('conflict-reload'));
    await waitFor(
      () => expect(screen.getByRole('textbox', { name: /Building name/ })).toHaveValue('Renamed elsewhere'),
      slow,
    );
    // The decimal fields follow the stored version too.
    expect(screen.getByRole('textbox', { name: /Latitude/ })).toHaveValue('35.5');
    expect(screen.queryByTestId('conflict-reload')).toBeNull();
  });

  it('shows the fields locked and no save to operators who cannot change buildings', async () => {
    mockApi(buildingRoutes(restriction({})));
    renderApp('/building/10', { session: makeSession(1) });
    expect(await screen.findByRole('textbox', { name: /Building name/ }, slow)).toBeDisabled();
    expect(screen.queryByTestId('building-save')).toBeNull();
    expect(screen.queryByTestId('building-delete')).toBeNull();
  });

  it('names what still uses a building it cannot delete', async () => {
    mockApi({
      ...buildingRoutes(restriction({})),
      [on(buildingOps.deleteBuilding)]: () =>
        json(409, {
          error: {
            statusCode: 409,
            code: 'IN_USE',
            message: 'in use',
            details: [{ path: 'operators', message: 'validation.inUse', code: '3' }],
          },
        }),
    });
    const app = renderApp('/building/10', { session: makeSession(2) });
    await app.user.click(await screen.findByTestId('building-delete', {}, slow));
    await app.user.click(within(await screen.findByRole('dialog')).getByTestId('confirm-button'));
    expect(await screen.findByTestId('building-delete-error')).toHaveTextContent('3 operator(s)');
  });
});

describe('system links', { timeout: 20_000 }, () => {
  it('clearing a stored secret is a change of the form: Cancel puts it back, Save sends it empty', async () => {
    let links: BuildingLinks = {
      tSpiderUrl: 'https://t-spider.example/',
      hakaruAiLoginId: 'hakaru',
      hakaruAiPassword: '••••word',
      lilzToken: '••••oken',
      kanriroidToken: null,
      updatedAt: '2026-01-05T09:00:00.000Z',
    };
    const api = mockApi({
      ...buildingRoutes(restriction({})),
      [on(buildingOps.getBuildingLinks)]: () => reply(buildingLinksSchema, links),
      [on(buildingOps.updateBuildingLinks)]: () => {
        links = { ...links, lilzToken: null, updatedAt: '2026-01-06T09:00:00.000Z' };
        return reply(buildingLinksSchema, links);
      },
    });
    const app = renderApp('/building/10?tab=links', { session: makeSession(2) });
    const clear = await screen.findByTestId('clear-lilzToken', {}, { timeout: 10_000 });
    expect(screen.getByTestId('form-cancel')).toBeDisabled();
    await app.user.click(clear);
    expect(screen.getByTestId('link-lilzToken')).toBeDisabled();
    await app.user.click(screen.getByTestId('form-cancel'));
    expect(screen.getByTestId('link-lilzToken')).toBeEnabled();

    await app.user.click(screen.getByTestId('clear-lilzToken'));
    await app.user.click(screen.getByTestId('links-save'));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({
        tSpiderUrl: 'https://t-spider.example/',
        hakaruAiLoginId: 'hakaru',
        lilzToken: '',
      }),
    );
    // The saved links are the form's new start: nothing left to clear, no change pending.
    await waitFor(() => expect(screen.queryByTestId('clear-lilzToken')).toBeNull());
    expect(screen.getByTestId('form-cancel')).toBeDisabled();
  });
});

describe('speech texts', { timeout: 20_000 }, () => {
  it('adds a text, and an edit based on an old version opens the conflict dialog and keeps what was typed', async () => {
    const stored = { id: 3, buildingId: 10, language: 'ja' as const, text: 'こんにちは', createdAt: at, updatedAt: at };
    let texts = [stored];
    const api = mockApi({
      ...buildingRoutes(restriction({})),
      [on(buildingOps.listSpeechTexts)]: () => reply(z.array(speechTextSchema), texts),
      [on(buildingOps.createSpeechText)]: () =>
        reply(speechTextSchema, { ...stored, id: 4, language: 'en', text: 'Hello' }, 201),
      [on(buildingOps.updateSpeechText)]: () => {
        texts = [{ ...stored, text: 'Changed elsewhere', updatedAt: '2026-01-06T09:00:00.000Z' }];
        return replyError('STALE_UPDATE');
      },
    });
    const app = renderApp('/building/10?tab=speechTexts', { session: makeSession(2) });
    const newText = await screen.findByRole('form', { name: 'New speech text' }, { timeout: 10_000 });
    await app.user.selectOptions(within(newText).getByRole('combobox', { name: /Language/ }), 'en');
    await app.user.type(within(newText).getByRole('textbox', { name: /Text/ }), 'Hello');
    await app.user.click(within(newText).getByRole('button', { name: 'Add' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'POST')?.body).toEqual({ language: 'en', text: 'Hello' }),
    );
    await waitFor(() => expect(within(newText).getByRole('textbox', { name: /Text/ })).toHaveValue(''));

    await app.user.click(screen.getByRole('button', { name: 'Edit speech text こんにちは' }));
    const row = screen.getByRole('form', { name: 'Edit speech text こんにちは' });
    const text = within(row).getByRole('textbox', { name: /Text/ });
    await app.user.clear(text);
    await app.user.type(text, 'おはよう');
    await app.user.click(within(row).getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByTestId('conflict-keep')).toHaveLength(1);
    expect(api.calls.find((c) => c.method === 'PATCH')?.body).toEqual({
      language: 'ja',
      text: 'おはよう',
      updatedAt: at,
    });
    await app.user.click(screen.getByTestId('conflict-keep'));
    await waitFor(() => expect(screen.queryByTestId('conflict-keep')).toBeNull());
    expect(within(row).getByRole('textbox', { name: /Text/ })).toHaveValue('おはよう');
  });
});
