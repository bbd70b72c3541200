import {
  exportJobSchema,
  exportTemplateSchema,
  reportDetailViewSchema,
  reportOps,
  reportSchema,
} from '@portal/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import i18n from 'i18next';
import { makeSession } from '@/testing/fixtures';
import { mockApi, noContent, on, reply, replyError } from '@/testing/mock-api';
import { renderApp } from '@/testing/render-app';
import { job, report, reportRoutes, reportView, template } from './test-data';

// The machine runs many suites at once: screens may take seconds to appear (waited for, never fixed times).
const slow = { timeout: 15_000 };
const filterOf = (search: URLSearchParams) => JSON.parse(search.get('filter') ?? '{}') as Record<string, unknown>;

beforeEach(() => {
  Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:file'), revokeObjectURL: vi.fn() });
});
afterEach(() => vi.restoreAllMocks());

describe('report list', () => {
  it('shows reports newest first with abnormal ones marked, sends the filters, and opens a report', async () => {
    const { calls } = mockApi({
      ...reportRoutes(),
      [on(reportOps.listReports)]: () =>
        reply(z.array(reportSchema), [
          report(2, { abnormalCount: 2, result: 11, photoCount: 3, thumbnailUrl: '/api/files/t.png' }),
          report(1, { caller: 'operator', callerName: 'Yamada Hanako' }),
        ]),
      [on(reportOps.getReport)]: () => reply(reportDetailViewSchema, reportView(2)),
    });
    const app = renderApp('/report/list/1', { session: makeSession(2) });
    const row2 = await screen.findByTestId('report-row-2', {}, slow);
    expect(row2).toHaveAttribute('data-abnormal', 'true');
    // Abnormal is said in words with a sign, not by colour alone.
    expect(within(row2).getByTestId('report-abnormal-2')).toHaveTextContent('⚠ 2 abnormal');
    expect(within(row2).getByText('Partial')).toBeInTheDocument();
    expect(within(row2).getByText('Patrol')).toBeInTheDocument();
    expect(within(row2).getByRole('img')).toHaveAttribute('src', '/api/files/t.png');
    const row1 = screen.getByTestId('report-row-1');
    expect(row1).not.toHaveAttribute('data-abnormal');
    expect(within(row1).getByText('Yamada Hanako')).toBeInTheDocument();
    // Start in the building's zone: 2026-11-24T00:00Z is 9:00 in Tokyo.
    await waitFor(() => expect(row1.querySelector('time')).toHaveAttribute('data-time-zone', 'Asia/Tokyo'), slow);
    expect(row1.querySelector('time')?.textContent).toMatch(/9:00/);
    expect(filterOf(calls.filter((c) => c.path === '/api/reports').at(-1)!.search)).toMatchObject({
      order: 'startedAt DESC',
      limit: 30,
      skip: 0,
    });

    await app.user.selectOptions(screen.getByTestId('building-filter'), '10');
    await waitFor(() => expect(app.location()).toContain('building=10'), slow);
    await app.user.selectOptions(screen.getByTestId('report-type-filter'), '1');
    await app.user.selectOptions(screen.getByTestId('report-result-filter'), '9');
    await app.user.click(screen.getByTestId('report-abnormal-filter'));
    fireEvent.change(screen.getByTestId('report-from'), { target: { value: '2026-11-01' } });
    await waitFor(() => {
      const where = filterOf(calls.filter((c) => c.path === '/api/reports').at(-1)!.search).where;
      expect(where).toEqual({
        and: [
          { buildingId: 10 },
          { type: 1 },
          { result: 9 },
          { abnormal: true },
          // 00:00 of Nov 1 in Tokyo.
          { startedAt: { gte: '2026-10-31T15:00:00.000Z' } },
        ],
      });
    }, slow);
    expect(app.location()).toMatch(/^\/report\/list\/1\?/);

    await app.user.click(screen.getByTestId('report-row-2'));
    await waitFor(() => expect(app.location()).toBe('/report/2'), slow);
  }, 60_000);
});

describe('export dialog', () => {
  const listRoutes = () => ({
    ...reportRoutes(),
    [on(reportOps.listReports)]: () => reply(z.array(reportSchema), [report(1)]),
    [on(reportOps.listExportTemplates)]: () => reply(z.array(exportTemplateSchema), [template(4)]),
  });

  it('sends the list filters as the selection, shows the progress, then the download', async () => {
    let polls = 0;
    const { calls } = mockApi({
      ...listRoutes(),
      [on(reportOps.createReportExport)]: () =>
        reply(exportJobSchema, job(5, { status: 'queued', rowsDone: 0, rowCount: 120 }), 202),
      [on(reportOps.getReportExport)]: () => {
        polls += 1;
        return reply(
          exportJobSchema,
          polls === 1 ? job(5, { status: 'running', rowsDone: 60, rowCount: 120 }) : job(5, { format: 'xlsx' }),
        );
      },
      [on(reportOps.downloadReportExport)]: () =>
        new Response('a,b\n', {
          status: 200,
          headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="reports-1.csv"' },
        }),
    });
    const app = renderApp('/report/list/1?building=10&type=0&abnormal=1', { session: makeSession(0) });
    await screen.findByTestId('report-row-1', {}, slow);
    await app.user.click(screen.getByTestId('report-export'));
    const dialog = await screen.findByTestId('export-dialog');
    // A template is for Excel only.
    expect(within(dialog).getByTestId('export-template')).toBeDisabled();
    await app.user.selectOptions(within(dialog).getByTestId('export-format'), 'xlsx');
    await waitFor(() => expect(within(dialog).getByTestId('export-template')).toBeEnabled());
    await within(dialog).findByRole('option', { name: 'Monthly 4' });
    await app.user.selectOptions(within(dialog).getByTestId('export-template'), '4');
    await app.user.selectOptions(within(dialog).getByTestId('export-encoding'), 'shift-jis');
    await app.user.click(within(dialog).getByTestId('export-start'));

    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/api/report-exports')).toBe(true));
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/report-exports')!;
    expect(post.body).toEqual({
      format: 'xlsx',
      encoding: 'shift-jis',
      templateId: 4,
      selection: { buildingId: 10, type: 0, abnormal: true },
    });
    expect(await screen.findByText('60 of 120 rows', {}, slow)).toBeInTheDocument();
    expect(screen.getByTestId('export-bar')).toBeInTheDocument();
    const download = await screen.findByTestId('export-download', {}, slow);
    expect(screen.getByTestId('export-done')).toHaveTextContent('The file is ready: 120 rows.');
    await app.user.click(download);
    await waitFor(() => expect(calls.some((c) => c.path === '/api/report-exports/5/file')).toBe(true));
    const file = calls.find((c) => c.path === '/api/report-exports/5/file')!;
    expect(file.headers.get('Authorization')).toBe('Bearer token-abc');
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
  }, 60_000);

  it('says "Insufficient export permission" (403) and stays signed in', async () => {
    mockApi({
      ...listRoutes(),
      [on(reportOps.createReportExport)]: () => replyError('EXPORT_FORBIDDEN'),
    });
    const app = renderApp('/report/list/1', { session: makeSession(0) });
    await screen.findByTestId('report-row-1', {}, slow);
    await app.user.click(screen.getByTestId('report-export'));
    await app.user.click(await screen.findByTestId('export-start'));
    expect(await screen.findByTestId('form-error', {}, slow)).toHaveTextContent('Insufficient export permission.');
    expect(app.location()).toBe('/report/list/1');
  }, 60_000);

  it('says "No target data found" (404)', async () => {
    mockApi({
      ...listRoutes(),
      [on(reportOps.createReportExport)]: () => replyError('NO_TARGET_DATA'),
    });
    const app = renderApp('/report/list/1', { session: makeSession(0) });
    await screen.findByTestId('report-row-1', {}, slow);
    await app.user.click(screen.getByTestId('report-export'));
    await app.user.click(await screen.findByTestId('export-start'));
    expect(await screen.findByTestId('form-error', {}, slow)).toHaveTextContent('No target data found.');
  }, 60_000);
});

describe('report detail', () => {
  it('shows the header, the timeline with errors in words, and the photos in a viewer', async () => {
    mockApi({
      ...reportRoutes(),
      [on(reportOps.getReport, { id: 2 })]: () => reply(reportDetailViewSchema, reportView(2)),
    });
    const app = renderApp('/report/2', { session: makeSession(0) });
    const timeline = await screen.findByTestId('report-timeline', {}, slow);
    expect(screen.getByTestId('report-robot')).toHaveTextContent('Lobby guide (UGO-55)');
    expect(screen.getByTestId('report-duration')).toHaveTextContent('12 min 30 s');
    expect(screen.getByTestId('report-type')).toHaveTextContent('Patrol');
    // Step 3 failed: abnormal, its error code in words, its message.
    const step3 = within(timeline).getByTestId('report-detail-3');
    expect(step3).toHaveAttribute('data-abnormal', 'true');
    expect(within(step3).getByTestId('report-detail-result-3')).toHaveTextContent('Error');
    expect(within(step3).getByTestId('report-detail-error-3')).toHaveTextContent('The step did not finish in time');
    expect(step3).toHaveTextContent('Stuck near the door');
    expect(within(timeline).getByTestId('report-detail-1')).toHaveTextContent('Waypoint: Lobby');
    expect(within(timeline).getByTestId('report-detail-1')).not.toHaveAttribute('data-abnormal');
    // Times in the building's zone: 00:01Z is 09:01 in Tokyo.
    expect(within(timeline).getByTestId('report-detail-1')).toHaveTextContent('09:01:00');
    // The path with the photo markers, and a floor switch.
    expect(screen.getByTestId('track-map-1')).toBeInTheDocument();
    expect(screen.getByTestId('photo-marker-1')).toBeInTheDocument();
    expect(screen.getByTestId('photo-marker-2')).toBeInTheDocument();
    await app.user.click(screen.getByRole('radio', { name: 'Office' }));
    expect(await screen.findByTestId('track-map-2')).toBeInTheDocument();

    await app.user.click(screen.getByTestId('report-photo-1'));
    const viewer = await screen.findByTestId('photo-viewer');
    expect(viewer).toHaveTextContent('Photo 1 of 2');
    expect(within(viewer).getByTestId('photo-viewer-image')).toHaveAttribute('src', '/api/files/photo-1.png?sig=x');
    await app.user.click(within(viewer).getByRole('button', { name: /Next photo/ }));
    expect(viewer).toHaveTextContent('Photo 2 of 2');
    expect(within(viewer).getByTestId('photo-viewer-image')).toHaveAttribute('src', '/api/files/photo-2.png?sig=x');
    await app.user.click(within(viewer).getByRole('button', { name: /Previous photo/ }));
    expect(viewer).toHaveTextContent('Photo 1 of 2');
    // Arrow keys too (wrapping round), and zoom.
    await app.user.keyboard('{ArrowLeft}');
    expect(viewer).toHaveTextContent('Photo 2 of 2');
    await app.user.keyboard('{ArrowRight}');
    expect(viewer).toHaveTextContent('Photo 1 of 2');
    await app.user.click(within(viewer).getByRole('button', { name: 'Zoom in' }));
    expect(within(viewer).getByTestId('photo-viewer-image')).toHaveAttribute('data-zoom', '1.5');
    await app.user.click(within(viewer).getByRole('button', { name: 'Zoom out' }));
    expect(within(viewer).getByTestId('photo-viewer-image')).toHaveAttribute('data-zoom', '1');
  }, 60_000);

  it('shows each step’s values in words: the names copied with the report, labels and value words', async () => {
    const view = reportView(2);
    const values: Array<Record<string, string | number | null>> = [
      { waypointId: 3, waypointName: 'Entrance' },
      {
        checkItemId: 7,
        checkItemName: 'Boiler gauge',
        value: 93.4,
        unit: 'kPa',
        qr: 'GAUGE-1',
        result: 1,
        breachLogId: 12,
        camera: 'v1',
        actionCount: 2,
      },
      { task: '夜間点検', level: 5 },
      { floorId: 2, floorName: '2F', waypointId: 1, waypointName: 'Hall', routeName: 'Night round' },
    ];
    mockApi({
      ...reportRoutes(),
      [on(reportOps.getReport, { id: 2 })]: () =>
        reply(reportDetailViewSchema, { ...view, details: view.details.map((d, i) => ({ ...d, values: values[i]! })) }),
    });
    const shown = async () => {
      const timeline = await screen.findByTestId('report-timeline', {}, slow);
      return [1, 2, 3, 4].map((n) => within(timeline).getByTestId(`report-detail-values-${n}`).textContent);
    };
    const app = renderApp('/report/2', { session: makeSession(0) });
    expect(await shown()).toEqual([
      'Waypoint: Entrance',
      'Check item: Boiler gauge, Reading: 93.4 kPa, QR code: GAUGE-1, Threshold log: #12, Camera: Front, actionCount: 2',
      'Task: 夜間点検, Level: Warning',
      'Floor: 2F, Waypoint: Hall, Route: Night round',
    ]);
    app.unmount();

    await i18n.changeLanguage('ja');
    try {
      renderApp('/report/2', { session: makeSession(0) });
      expect(await shown()).toEqual([
        '地点: Entrance',
        '点検項目: Boiler gauge, 読み取り値: 93.4 kPa, QRコード: GAUGE-1, しきい値ログ: #12, カメラ: 前方, actionCount: 2',
        'タスク: 夜間点検, レベル: 警告',
        'フロア: 2F, 地点: Hall, ルート: Night round',
      ]);
    } finally {
      await i18n.changeLanguage('en');
    }
  }, 60_000);

  it('says a missing report is not found', async () => {
    mockApi({ ...reportRoutes(), [on(reportOps.getReport)]: () => replyError('NOT_FOUND') });
    renderApp('/report/99', { session: makeSession(0) });
    expect(await screen.findByRole('alert', {}, slow)).toBeInTheDocument();
  }, 60_000);
});

describe('export history', () => {
  it('lists exports with status, progress and the download of finished files', async () => {
    const { calls } = mockApi({
      ...reportRoutes(),
      [on(reportOps.listReportExports)]: () =>
        reply(z.array(exportJobSchema), [
          job(3, { status: 'running', rowsDone: 40, rowCount: 80, format: 'xlsx', templateName: 'Monthly 4' }),
          job(2),
          job(1, { status: 'fail', error: 'TEMPLATE_UNREADABLE' }),
        ]),
      [on(reportOps.downloadReportExport)]: () => new Response('x', { status: 200 }),
    });
    const app = renderApp('/report/export-history/1', { session: makeSession(0) });
    const row3 = await screen.findByTestId('export-row-3', {}, slow);
    expect(row3).toHaveTextContent('Excel (.xlsx)');
    expect(row3).toHaveTextContent('Monthly 4');
    expect(row3).toHaveTextContent('Running');
    expect(row3).toHaveTextContent('40 of 80 rows');
    expect(within(row3).queryByTestId('export-download-3')).toBeNull();
    const row2 = screen.getByTestId('export-row-2');
    expect(row2).toHaveTextContent('Shift_JIS');
    expect(row2).toHaveTextContent('Yamada Hanako');
    expect(row2).toHaveTextContent('reports-20261124-092.csv');
    expect(screen.getByTestId('export-row-1')).toHaveTextContent('Failed');
    await app.user.click(within(row2).getByTestId('export-download-2'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/report-exports/2/file')).toBe(true));
  }, 60_000);
});

describe('export templates', () => {
  it('shows an administrator create and delete (with a confirmation)', async () => {
    let deleted = false;
    mockApi({
      ...reportRoutes(),
      [on(reportOps.listExportTemplates)]: () => reply(z.array(exportTemplateSchema), deleted ? [] : [template(4)]),
      [on(reportOps.deleteExportTemplate, { id: 4 })]: () => {
        deleted = true;
        return noContent();
      },
    });
    const app = renderApp('/report/export-template/list/1', { session: makeSession(2) });
    const row = await screen.findByTestId('template-row-4', {}, slow);
    expect(row).toHaveTextContent('Monthly 4');
    expect(row).toHaveTextContent('RawData');
    expect(row).toHaveTextContent('Summary, RawData');
    expect(screen.getByTestId('template-create')).toBeInTheDocument();
    await app.user.click(within(row).getByTestId('template-delete-4'));
    await app.user.click(await screen.findByTestId('template-delete-4-confirm'));
    expect(await screen.findByTestId('template-empty', {}, slow)).toBeInTheDocument();
  }, 60_000);

  it('shows a general operator the list without create or delete', async () => {
    mockApi({
      ...reportRoutes(),
      [on(reportOps.listExportTemplates)]: () => reply(z.array(exportTemplateSchema), [template(4)]),
    });
    renderApp('/report/export-template/list/1', { session: makeSession(0) });
    const row = await screen.findByTestId('template-row-4', {}, slow);
    expect(within(row).getByTestId('template-download-4')).toBeInTheDocument();
    expect(within(row).queryByTestId('template-delete-4')).toBeNull();
    expect(screen.queryByTestId('template-create')).toBeNull();
  }, 60_000);

  it('uploads a workbook and shows the server’s error under the file field', async () => {
    const { calls } = mockApi({
      ...reportRoutes(),
      [on(reportOps.createExportTemplate)]: () =>
        replyError('VALIDATION_FAILED', [{ path: 'file', message: 'reportValidation.rawSheetMissing' }]),
    });
    const app = renderApp('/report/export-template/create', { session: makeSession(2) });
    await app.user.click(await screen.findByTestId('template-save', {}, slow));
    expect(await screen.findByText('Choose an Excel file')).toBeInTheDocument();
    await app.user.type(screen.getByTestId('template-name'), 'Monthly');
    const file = new File(['PK'], 'monthly.xlsx', {
      type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    await app.user.upload(screen.getByTestId('template-file'), file);
    await app.user.click(screen.getByTestId('template-save'));
    expect(await screen.findByText(/The workbook has no raw data sheet/, {}, slow)).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST' && c.path === '/api/export-templates')!;
    const body = post.body as FormData;
    expect(body.get('name')).toBe('Monthly');
    expect((body.get('file') as File).name).toBe('monthly.xlsx');
    expect(screen.queryByTestId('form-error')).toBeNull();
  }, 60_000);
});
