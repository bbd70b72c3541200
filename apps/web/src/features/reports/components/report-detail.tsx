import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { isAbnormalResult, type ReportDetail, type ReportDetailView } from '@portal/contract';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { TimeZoneNote } from '@/components/time-zone';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useReport } from '../api';
import { secondsBetween } from '../time';
import { ResultBadge, useReportWords, valuesText } from '../words';
import { PhotoViewer, type ViewerPhoto } from './photo-viewer';
import classes from './report-detail.module.css';
import { TrackMap, type PhotoMarker } from './track-map';

/** "10:32:05" in the building's zone. */
function useClock(timeZone: string) {
  const { lang } = useFormat();
  return useMemo(() => {
    let f: Intl.DateTimeFormat;
    try {
      f = new Intl.DateTimeFormat(lang === 'ja' ? 'ja-JP' : 'en-GB', {
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
        timeZone,
      });
    } catch {
      f = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
    }
    return (v: string) => f.format(new Date(v));
  }, [lang, timeZone]);
}

/** /report/{id}: what a run did, step by step, with its photos and the path driven; printable on A4. */
export function ReportDetailPage({ id }: { id: number }) {
  const report = useReport(id);
  if (report.isPending) return <PageLoader />;
  if (report.isError) return <QueryError error={report.error} onRetry={() => void report.refetch()} />;
  return <ReportView report={report.data} />;
}

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={0} data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

export function ReportView({ report: r }: { report: ReportDetailView }) {
  const w = useReportWords();
  const { t } = w;
  const format = useFormat();
  const clock = useClock(r.timeZone);
  const [viewing, setViewing] = useState<number | null>(null);
  const photoDetails = r.details.filter((d): d is ReportDetail & { photo: NonNullable<ReportDetail['photo']> } =>
    Boolean(d.photo),
  );
  const photos: ViewerPhoto[] = photoDetails.map((d) => ({
    photo: d.photo,
    caption: t('reports.viewer.caption', { time: clock(d.startedAt), step: w.stepKind(d.kind) }),
  }));
  const photoIndex = new Map(photoDetails.map((d, i) => [d.id, i]));
  const [floorId, setFloorId] = useState<number | null>(r.tracks[0]?.floorId ?? null);
  const track = r.tracks.find((x) => x.floorId === floorId) ?? r.tracks[0];
  const markers: PhotoMarker[] = photoDetails.flatMap((d, i) =>
    track && d.floorId === track.floorId && d.x !== null && d.y !== null
      ? [{ number: i + 1, x: d.x, y: d.y, onClick: () => setViewing(i) }]
      : [],
  );
  const dt = (v: string) => format.dateTime(v, { timeZone: r.timeZone });

  return (
    <Stack className={classes.sheet} data-testid="report-detail">
      <Anchor component={Link} to={paths.report.list.getHref(1)} size="sm" className="no-print">
        ← {t('reports.detail.back')}
      </Anchor>
      <PageHeader title={t('reports.detail.title', { id: r.id })}>
        <Button variant="default" onClick={() => window.print()} data-testid="report-print">
          {t('reports.detail.print')}
        </Button>
      </PageHeader>
      <TimeZoneNote timeZone={r.timeZone} />
      <Paper withBorder p="md" className={classes.section}>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" verticalSpacing="sm">
          <Field label={t('reports.detail.type')} testId="report-type">
            {w.type(r.type)}
          </Field>
          <Field label={t('reports.detail.result')}>
            <ResultBadge result={r.result} testId="report-header-result" />
          </Field>
          <Field label={t('reports.detail.building')}>{r.buildingName}</Field>
          <Field label={t('reports.detail.floor')}>{r.floorName}</Field>
          <Field label={t('reports.detail.robot')} testId="report-robot">
            {r.robotName}{' '}
            <Text span size="xs" c="dimmed">
              ({r.robotSerial})
            </Text>
          </Field>
          <Field label={t('reports.detail.flow')}>{r.flowName}</Field>
          <Field label={t('reports.detail.caller')}>
            {w.caller(r.caller)}
            {r.callerName ? ` · ${r.callerName}` : ''}
          </Field>
          <Field label={t('reports.detail.duration')} testId="report-duration">
            {w.duration(secondsBetween(r.startedAt, r.endedAt))}
          </Field>
          <Field label={t('reports.detail.startedAt')}>
            <time dateTime={r.startedAt}>{dt(r.startedAt)}</time>
          </Field>
          <Field label={t('reports.detail.endedAt')}>
            <time dateTime={r.endedAt}>{dt(r.endedAt)}</time>
          </Field>
        </SimpleGrid>
        {r.errorCode && (
          <Alert color="red" mt="sm" title={t('reports.detail.runError')} data-testid="report-run-error">
            {w.errorCode(r.errorCode)}
          </Alert>
        )}
      </Paper>

      <Stack gap="xs" className={classes.section}>
        <Title order={2} size="h4">
          {t('reports.detail.timeline')}
        </Title>
        {r.details.length === 0 ? (
          <Text c="dimmed">{t('reports.detail.noDetails')}</Text>
        ) : (
          <div className={classes.timelineScroll}>
            <Table
              striped
              withTableBorder
              verticalSpacing="xs"
              className={classes.timeline}
              data-testid="report-timeline"
            >
              <Table.Thead>
                <Table.Tr>
                  {(['time', 'type', 'step', 'result', 'error', 'message', 'values', 'photo'] as const).map((c) => (
                    <Table.Th
                      key={c}
                      style={{ whiteSpace: 'nowrap' }}
                      className={c === 'photo' ? classes.photoCol : undefined}
                    >
                      {t(`reports.detail.detailColumns.${c}`)}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.details.map((d) => {
                  const abnormal = isAbnormalResult(d.result);
                  const n = photoIndex.get(d.id);
                  return (
                    <Table.Tr
                      key={d.id}
                      className={abnormal ? classes.abnormalRow : undefined}
                      data-testid={`report-detail-${d.seq}`}
                      data-abnormal={abnormal ? 'true' : undefined}
                    >
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>
                        <time dateTime={d.startedAt}>{clock(d.startedAt)}</time>
                      </Table.Td>
                      <Table.Td>{w.detailType(d.type)}</Table.Td>
                      <Table.Td>{w.stepKind(d.kind)}</Table.Td>
                      <Table.Td>
                        <ResultBadge result={d.result} testId={`report-detail-result-${d.seq}`} />
                      </Table.Td>
                      <Table.Td>
                        {d.errorCode && (
                          <Text size="sm" c="red.8" data-testid={`report-detail-error-${d.seq}`}>
                            {w.errorCode(d.errorCode)}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{d.message}</Table.Td>
                      <Table.Td>
                        <Text size="xs" data-testid={`report-detail-values-${d.seq}`}>
                          {valuesText(w.t, d.values, d.message)}
                        </Text>
                      </Table.Td>
                      <Table.Td className={classes.photoCol}>
                        {d.photo && n !== undefined && (
                          <button
                            type="button"
                            className={classes.photoButton}
                            onClick={() => setViewing(n)}
                            aria-label={t('reports.detail.photoMarker', { n: n + 1 })}
                            data-testid={`report-detail-photo-${d.seq}`}
                          >
                            <img
                              src={d.photo.thumbnailUrl}
                              alt=""
                              width={64}
                              height={36}
                              style={{ objectFit: 'cover' }}
                            />
                          </button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </div>
        )}
      </Stack>

      <Stack gap="xs" className={classes.section}>
        <Title order={2} size="h4">
          {t('reports.detail.photos')}
        </Title>
        {photos.length === 0 ? (
          <Text c="dimmed">{t('reports.detail.noPhotos')}</Text>
        ) : (
          <div className={classes.photoGrid} data-testid="report-photos">
            {photos.map((p, i) => (
              <figure key={p.photo.url} style={{ margin: 0 }}>
                <button
                  type="button"
                  className={classes.photoButton}
                  onClick={() => setViewing(i)}
                  data-testid={`report-photo-${i + 1}`}
                  aria-label={t('reports.detail.photoMarker', { n: i + 1 })}
                >
                  <img src={p.photo.thumbnailUrl} alt={p.caption} />
                </button>
                <Text component="figcaption" size="xs" c="dimmed">
                  {i + 1}. {p.caption}
                </Text>
              </figure>
            ))}
          </div>
        )}
      </Stack>

      <Stack gap="xs" className={classes.section} data-testid="report-map">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('reports.detail.map')}
          </Title>
          {r.tracks.length > 1 && (
            <SegmentedControl
              aria-label={t('reports.detail.floorSwitch')}
              value={String(track?.floorId ?? '')}
              onChange={(v) => setFloorId(Number(v))}
              data={r.tracks.map((x) => ({ value: String(x.floorId), label: x.floorName }))}
              data-testid="track-floor-switch"
              className="no-print"
            />
          )}
        </Group>
        {track ? <TrackMap track={track} markers={markers} /> : <Text c="dimmed">{t('reports.detail.noTrack')}</Text>}
      </Stack>

      <PhotoViewer photos={photos} index={viewing} onIndex={setViewing} onClose={() => setViewing(null)} />
    </Stack>
  );
}
