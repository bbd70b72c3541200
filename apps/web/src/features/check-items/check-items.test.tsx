import {
  buildingListSchema,
  buildingOps,
  checkItemOps,
  checkItemSchema,
  floorListSchema,
  floorOps,
  mapOps,
  thresholdOps,
  thresholdRuleSchema,
  type CheckItem,
  type CheckItemInput,
} from '@portal/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import i18n from 'i18next';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { z } from 'zod';
import { checkItemsEn } from '@/locales/en/check-items';
import { checkItemsJa } from '@/locales/ja/check-items';
import { makeSession, signedInRoutes } from '@/testing/fixtures';
import { mockApi, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';

const slow = { timeout: 15_000 };

afterEach(async () => {
  await i18n.changeLanguage('en');
});

const item = (id: number, over: Partial<CheckItem> = {}): CheckItem =>
  checkItemSchema.parse({
    id,
    organizationId: 1,
    buildingId: 10,
    buildingName: 'Demo Tower',
    floorId: 20,
    floorName: '1F',
    name: `Gauge ${id}`,
    type: 'meter',
    status: 1,
    meterType: 'analog',
    readingService: 'builtin',
    qrCodeNumber: 'QR-1',
    taskId: '',
    deviceId: '',
    alerting: true,
    thresholdRuleId: 3,
    x: 1,
    y: 2,
    z: 1.2,
    direction: 0,
    markerType: 'qr',
    areaDetectionMarker: false,
    definition: '{}',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...over,
  });

const rule = thresholdRuleSchema.parse({
  id: 3,
  organizationId: 1,
  name: 'Pressure 0.2-0.8 MPa',
  description: '',
  level: 5,
  status: 1,
  conditions: [{ judgment: 'range', target: null, min: 0.2, max: 0.8 }],
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

const routes = () => ({
  ...signedInRoutes(),
  [on(buildingOps.listBuildings)]: () =>
    reply(buildingListSchema, [
      { id: 10, name: 'Demo Tower' },
      { id: 11, name: 'Annex' },
    ]),
  [on(floorOps.listFloors, { id: 10 })]: () =>
    reply(floorListSchema, [
      { id: 21, name: '2F', index: 2 },
      { id: 20, name: '1F', index: 1 },
    ]),
  [on(mapOps.getFloorMap)]: () => replyError('NOT_FOUND'),
  [on(thresholdOps.listThresholdRules)]: () => reply(z.array(thresholdRuleSchema), [rule]),
});

describe('check item form', () => {
  it('checks the fields with the contract, sets the meter settings in their dialog and posts the item', async () => {
    const { calls } = mockApi({
      ...routes(),
      [on(checkItemOps.createCheckItem)]: (c) =>
        reply(checkItemSchema, { ...item(9), ...(c.body as CheckItemInput), floorName: '2F' }, 201),
      [on(checkItemOps.getCheckItem, { id: 9 })]: () => reply(checkItemSchema, item(9)),
    });
    const app = renderApp('/check-item/create', { session: makeSession(2, { buildingId: null }) });
    await screen.findByTestId('check-item-form', {}, slow);
    expect(screen.getByText(checkItemsEn.checkItems.form.chooseFloorFirst)).toBeInTheDocument();

    // Nothing chosen, an alerting item without rule, a definition that is not JSON: messages, nothing sent.
    await app.user.click(screen.getByTestId('check-item-alerting'));
    await app.user.clear(screen.getByTestId('check-item-definition'));
    await app.user.type(screen.getByTestId('check-item-definition'), 'unit=MPa');
    await app.user.click(screen.getByTestId('check-item-save'));
    await waitFor(() => expect(screen.getAllByText('Required').length).toBeGreaterThanOrEqual(3), slow);
    expect(screen.getByText(checkItemsEn.checkItemValidation.thresholdRequired)).toBeInTheDocument();
    expect(screen.getByText(checkItemsEn.checkItemValidation.json)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await app.user.type(screen.getByTestId('check-item-name'), 'Boiler gauge');
    await app.user.selectOptions(screen.getByTestId('check-item-building'), '10');
    await waitFor(() => expect(within(screen.getByTestId('check-item-floor')).getByText('2F')).toBeInTheDocument());
    await app.user.selectOptions(screen.getByTestId('check-item-floor'), '21');
    // A floor without a map: the item is placed on a grid.
    expect(await screen.findByTestId('check-item-no-map', {}, slow)).toBeInTheDocument();
    expect(screen.getByTestId('check-item-map')).toBeInTheDocument();
    await app.user.selectOptions(screen.getByTestId('check-item-threshold-rule'), '3');
    await app.user.clear(screen.getByTestId('check-item-definition'));
    await app.user.type(screen.getByTestId('check-item-definition'), '{{"unit":"MPa"}');
    await app.user.type(screen.getByTestId('check-item-x'), '4.5');
    await app.user.type(screen.getByTestId('check-item-y'), '-2');
    await app.user.clear(screen.getByTestId('check-item-direction'));
    await app.user.type(screen.getByTestId('check-item-direction'), '90');
    expect(screen.getByTestId('check-item-marker')).toBeInTheDocument();

    // hakaru.ai without task ID: named beside the dialog's button after a save.
    await app.user.click(screen.getByTestId('check-item-settings-open'));
    const dialog = await screen.findByRole('dialog', {}, slow);
    await app.user.selectOptions(within(dialog).getByTestId('check-item-reading-service'), 'hakaru');
    await app.user.type(within(dialog).getByTestId('check-item-qr'), 'QR-77');
    await app.user.click(within(dialog).getByTestId('check-item-settings-done'));
    await app.user.click(screen.getByTestId('check-item-save'));
    expect(await screen.findByTestId('check-item-settings-errors', {}, slow)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await app.user.click(screen.getByTestId('check-item-settings-open'));
    const again = await screen.findByRole('dialog', {}, slow);
    expect(within(again).getByText(checkItemsEn.checkItemValidation.taskIdRequired)).toBeInTheDocument();
    await app.user.type(within(again).getByTestId('check-item-task-id'), 'task-1');
    await app.user.click(within(again).getByTestId('check-item-settings-done'));
    expect(screen.getByTestId('check-item-settings-summary')).toHaveTextContent(
      'Analog gauge, hakaru.ai, marker: QR code',
    );

    await app.user.click(screen.getByTestId('check-item-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true), slow);
    const body = calls.find((c) => c.method === 'POST')!.body as CheckItemInput;
    expect(body).toMatchObject({
      name: 'Boiler gauge',
      buildingId: 10,
      floorId: 21,
      type: 'meter',
      status: 2,
      meterType: 'analog',
      readingService: 'hakaru',
      qrCodeNumber: 'QR-77',
      taskId: 'task-1',
      alerting: true,
      thresholdRuleId: 3,
      x: 4.5,
      y: -2,
      z: 0,
      definition: '{"unit":"MPa"}',
    });
    expect(body.direction).toBeCloseTo(Math.PI / 2, 6);
    await waitFor(() => expect(app.location()).toBe('/check-item/9'), slow);
  }, 60_000);

  it('shows the server field error under the field, and is read-only for general operators', async () => {
    mockApi({
      ...routes(),
      [on(checkItemOps.getCheckItem, { id: 5 })]: () => reply(checkItemSchema, item(5)),
      [on(checkItemOps.updateCheckItem, { id: 5 })]: () =>
        replyError('VALIDATION_FAILED', [{ path: 'floorId', message: 'validation.notInBuilding' }]),
    });
    const app = renderApp('/check-item/5', { session: makeSession(2) });
    const name = await screen.findByTestId('check-item-name', {}, slow);
    await app.user.type(name, ' A');
    await app.user.click(screen.getByTestId('check-item-save'));
    expect(await screen.findByText('Choose one that belongs to the selected building', {}, slow)).toBeInTheDocument();
    app.unmount();

    const viewer = renderApp('/check-item/5', { session: makeSession(0) });
    expect(await screen.findByTestId('check-item-heading', {}, slow)).toHaveTextContent('Gauge 5');
    expect(screen.queryByTestId('check-item-save')).not.toBeInTheDocument();
    expect(screen.getByTestId('check-item-name')).toBeDisabled();
    expect(screen.getByTestId('check-item-read-only')).toHaveTextContent(checkItemsEn.checkItems.readOnly);
    // The meter settings open to be read, locked.
    await viewer.user.click(screen.getByTestId('check-item-settings-open'));
    const dialog = await screen.findByRole('dialog', {}, slow);
    expect(within(dialog).getByTestId('check-item-qr')).toHaveValue('QR-1');
    expect(within(dialog).getByTestId('check-item-qr')).toBeDisabled();
  }, 30_000);

  it('places the item with a click on the floor map, points it with a drag, and keeps map and fields in step', async () => {
    // jsdom lays nothing out: the sketch's screen matrix is the identity (client = SVG user units).
    class Point {
      constructor(
        public x = 0,
        public y = 0,
      ) {}
      matrixTransform() {
        return new Point(this.x, this.y);
      }
    }
    vi.stubGlobal('DOMPoint', Point);
    Object.defineProperty(SVGSVGElement.prototype, 'getScreenCTM', {
      configurable: true,
      value: () => ({ inverse: () => ({}) }),
    });
    onTestFinished(() => {
      delete (SVGSVGElement.prototype as { getScreenCTM?: unknown }).getScreenCTM;
    });
    const { calls } = mockApi({
      ...routes(),
      [on(checkItemOps.getCheckItem, { id: 5 })]: () => reply(checkItemSchema, item(5)),
      [on(checkItemOps.updateCheckItem, { id: 5 })]: (c) =>
        reply(checkItemSchema, { ...item(5), ...(c.body as CheckItemInput) }),
    });
    const app = renderApp('/check-item/5', { session: makeSession(2) });
    const map = await screen.findByTestId('check-item-map', {}, slow);
    // No floor map: a grid 10 m around the origin, padded by 8 % of 20 m; map (x, y) is at (x + 11.6, 11.6 - y).
    const at = (x: number, y: number) => ({ clientX: x + 11.6, clientY: 11.6 - y });
    const marker = () => {
      const c = screen.getByTestId('check-item-marker').querySelector('circle')!;
      return [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))];
    };
    // The stored place (1, 2) is drawn.
    expect(marker()[0]).toBeCloseTo(at(1, 2).clientX);
    expect(marker()[1]).toBeCloseTo(at(1, 2).clientY);

    // A click places it: the fields follow, the direction stays.
    fireEvent.pointerDown(map, { ...at(3, 4), buttons: 1, pointerId: 1 });
    fireEvent.pointerUp(map, { ...at(3, 4), pointerId: 1 });
    await waitFor(() => expect(screen.getByTestId('check-item-x')).toHaveValue('3'));
    expect(screen.getByTestId('check-item-y')).toHaveValue('4');
    expect(screen.getByTestId('check-item-direction')).toHaveValue('0');
    expect(marker()[0]).toBeCloseTo(at(3, 4).clientX);
    expect(marker()[1]).toBeCloseTo(at(3, 4).clientY);

    // A press and drag places it and points it along the drag (here up the map: 90°).
    fireEvent.pointerDown(map, { ...at(-2, 1), buttons: 1, pointerId: 2 });
    fireEvent.pointerMove(map, { ...at(-2, 2), buttons: 1, pointerId: 2 });
    fireEvent.pointerUp(map, { ...at(-2, 3), pointerId: 2 });
    await waitFor(() => expect(screen.getByTestId('check-item-direction')).toHaveValue('90'));
    expect(screen.getByTestId('check-item-x')).toHaveValue('-2');
    expect(screen.getByTestId('check-item-y')).toHaveValue('1');
    // A move without a pressed button changes nothing.
    fireEvent.pointerMove(map, { ...at(5, 5), buttons: 0, pointerId: 3 });
    expect(screen.getByTestId('check-item-x')).toHaveValue('-2');

    // Typed values move the marker.
    await app.user.clear(screen.getByTestId('check-item-x'));
    await app.user.type(screen.getByTestId('check-item-x'), '6.5');
    await app.user.clear(screen.getByTestId('check-item-y'));
    await app.user.type(screen.getByTestId('check-item-y'), '-3');
    await waitFor(() => expect(marker()[0]).toBeCloseTo(at(6.5, -3).clientX));
    expect(marker()[1]).toBeCloseTo(at(6.5, -3).clientY);

    await app.user.click(screen.getByTestId('check-item-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' || c.method === 'PATCH')).toBe(true), slow);
    const body = calls.find((c) => c.method === 'PUT' || c.method === 'PATCH')!.body as CheckItemInput;
    expect(body).toMatchObject({ x: 6.5, y: -3 });
    expect(body.direction).toBeCloseTo(Math.PI / 2);
  }, 30_000);
});

describe('check item list', () => {
  it('lists the items with their rule and status, and sends the filters of the URL', async () => {
    const { calls } = mockApi({
      ...routes(),
      [on(checkItemOps.listCheckItems)]: () =>
        reply(z.array(checkItemSchema), [
          item(1, { name: 'Boiler gauge' }),
          item(2, { name: 'Fire door', type: 'visual', status: 2, thresholdRuleId: null, alerting: false }),
        ]),
    });
    await i18n.changeLanguage('ja');
    renderApp('/check-item/list?building=10&status=2&type=visual', { session: makeSession(2) });
    const table = await screen.findByTestId('check-item-table', {}, slow);
    expect(await within(table).findByText('Boiler gauge', {}, slow)).toBeInTheDocument();
    await waitFor(() => expect(within(table).getByText('Pressure 0.2-0.8 MPa')).toBeInTheDocument(), slow);
    expect(within(table).getByText(checkItemsJa.checkItems.statuses['2'])).toBeInTheDocument();
    expect(within(table).getByText(checkItemsJa.checkItems.types.visual)).toBeInTheDocument();
    const list = calls.find((c) => c.method === 'GET' && c.path.startsWith('/api/check-items'))!;
    const filter = JSON.parse(list.search.get('filter')!) as { where: unknown };
    expect(filter.where).toEqual({ and: [{ buildingId: 10 }, { status: 2 }, { type: 'visual' }] });
  }, 30_000);
});
