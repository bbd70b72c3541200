import { Badge, Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  ACTIVITY_CODES,
  ACTIVITY_KINDS,
  isRobotMessageCode,
  type ActivityKind,
  type RobotActivityEntry,
  HEALTH_PROBLEMS,
  type HealthProblem,
} from '@portal/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ListTable, type Column } from '@/components/list-page';
import { TimeZoneNote } from '@/components/time-zone';
import { useBuildingTimeZone } from '@/lib/building-time';
import { useFormat } from '@/lib/format';
import { useListParams } from '@/lib/list-params';
import { ACTIVITY_PER_PAGE, activitySchema } from '../activity-params';
import { useRobotActivity } from '../api/get-robot-activity';

const LEVELS = [0, 1, 2, 3, 4, 5, 6, 7] as const;
type Level = (typeof LEVELS)[number];
const asLevel = (n: number): Level => (LEVELS.includes(n as Level) ? (n as Level) : 7);

/** Badge colours by syslog level: the severe ones stand out. */
const LEVEL_COLORS: Record<Level, string> = {
  0: 'red',
  1: 'red',
  2: 'red',
  3: 'orange',
  4: 'yellow',
  5: 'blue',
  6: 'gray',
  7: 'gray',
};

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** A robot error as words: the known message (spec section 8, flow codes), else its type and description. */
function errorText(params: RobotActivityEntry['params'], t: TFunction): string {
  const type = text(params.errorType) ?? text(params.errorCode) ?? '?';
  if (isRobotMessageCode(type)) return t(`robotCommon.messages.${type}`);
  const description = text(params.description) ?? text(params.message);
  return description ? `${type} (${description})` : type;
}

/** A failed health check's problems (`problems`: codes, comma-separated) in words. */
function healthProblems(params: RobotActivityEntry['params'], t: TFunction): string {
  const battery = typeof params.battery === 'number' ? Math.round(params.battery) : '?';
  return (text(params.problems) ?? '')
    .split(',')
    .filter(Boolean)
    .map((code) =>
      (HEALTH_PROBLEMS as readonly string[]).includes(code)
        ? t(`robotActivity.healthProblems.${code as HealthProblem}`, { battery })
        : code,
    )
    .join(t('robotActivity.listSeparator'));
}

/** The entry's sentence in the UI language, from its kind, code and parameters (never stored as text). */
export function activityText(e: RobotActivityEntry, t: TFunction): string {
  const p = e.params;
  const kind = e.kind as ActivityKind;
  const known = Object.hasOwn(ACTIVITY_CODES, kind) && Object.hasOwn(ACTIVITY_CODES[kind], e.code);
  if (!known) return t('robotActivity.other', { kind: e.kind, code: e.code });
  const reason = text(p.reason);
  const values = {
    ...p,
    error: errorText(p, t),
    operator: text(p.operatorName) ?? t('robotActivity.unknownOperator'),
    reason:
      reason && ['granted', 'takeover', 'released', 'left', 'takenOver'].includes(reason)
        ? t(`robotActivity.reasons.${reason as 'released'}`)
        : (reason ?? ''),
    flow: text(p.flowName) ?? (p.flowId !== undefined && p.flowId !== null ? `#${String(p.flowId)}` : '—'),
    problems: healthProblems(p, t),
    from: text(p.from) ?? '—',
    to: text(p.to) ?? '—',
    interpolation: { escapeValue: false },
  };
  return t(`robotActivity.codes.${kind}.${e.code}` as 'robotActivity.codes.connection.online', values);
}

/** The robot page's activity log: level, kind and date filters and the page in the URL; times in the building's zone. */
export function ActivityLog({ robotId, buildingId }: { robotId: number; buildingId: number }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { params, setParams } = useListParams(activitySchema);
  // The page is `activityPage` (not `page`, which the robot page may use); the list kit resets it on a filter change.
  const set = setParams;
  const timeZone = useBuildingTimeZone(buildingId);
  const log = useRobotActivity(robotId, params, timeZone);
  const filtered =
    params.activityLevel !== null || params.activityKind !== null || !!params.activityFrom || !!params.activityTo;

  const columns: Column<RobotActivityEntry>[] = [
    {
      id: 'at',
      header: t('robotActivity.at'),
      meta: { cellProps: { style: { whiteSpace: 'nowrap' } } },
      cell: ({ row }) => format.dateTime(row.original.at, { timeZone }),
    },
    {
      id: 'level',
      header: t('robotActivity.levelColumn'),
      cell: ({ row }) => {
        const level = asLevel(row.original.level);
        return (
          <Badge color={LEVEL_COLORS[level]} variant={level <= 2 ? 'filled' : 'light'} data-testid="activity-level">
            {t(`robotActivity.levels.${level}`)}
          </Badge>
        );
      },
    },
    {
      id: 'kind',
      header: t('robotActivity.kind'),
      cell: ({ row }) =>
        ACTIVITY_KINDS.includes(row.original.kind) ? t(`robotActivity.kinds.${row.original.kind}`) : row.original.kind,
    },
    {
      id: 'text',
      header: t('robotActivity.text'),
      cell: ({ row }) => <span data-testid="activity-text">{activityText(row.original, t)}</span>,
    },
  ];

  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby="robot-activity-title"
      data-testid="robot-activity-log"
    >
      <Stack>
        <div>
          <Title order={2} size="h4" id="robot-activity-title">
            {t('robotActivity.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('robotActivity.hint')}
          </Text>
          <TimeZoneNote timeZone={timeZone} />
        </div>
        <Group align="flex-end" wrap="wrap" role="group" aria-label={t('robotActivity.filters')}>
          <NativeSelect
            label={t('robotActivity.level')}
            value={params.activityLevel === null ? '' : String(params.activityLevel)}
            onChange={(e) =>
              set({ activityLevel: e.currentTarget.value === '' ? null : asLevel(Number(e.currentTarget.value)) })
            }
            data={[
              { value: '', label: t('robotActivity.allLevels') },
              ...LEVELS.slice(0, 7).map((l) => ({
                value: String(l),
                label: t('robotActivity.levelAtMost', { level: t(`robotActivity.levels.${l}`) }),
              })),
            ]}
            data-testid="activity-level-filter"
          />
          <NativeSelect
            label={t('robotActivity.kind')}
            value={params.activityKind ?? ''}
            onChange={(e) =>
              set({
                activityKind: ACTIVITY_KINDS.find((k) => k === e.currentTarget.value) ?? null,
              })
            }
            data={[
              { value: '', label: t('robotActivity.allKinds') },
              ...ACTIVITY_KINDS.map((k) => ({ value: k, label: t(`robotActivity.kinds.${k}`) })),
            ]}
            data-testid="activity-kind-filter"
          />
          <TextInput
            type="date"
            label={t('robotActivity.from')}
            value={params.activityFrom}
            max={params.activityTo || undefined}
            onChange={(e) => set({ activityFrom: e.currentTarget.value })}
            data-testid="activity-from"
          />
          <TextInput
            type="date"
            label={t('robotActivity.to')}
            value={params.activityTo}
            min={params.activityFrom || undefined}
            onChange={(e) => set({ activityTo: e.currentTarget.value })}
            data-testid="activity-to"
          />
          {filtered && (
            <Button
              variant="subtle"
              onClick={() => set({ activityLevel: null, activityKind: null, activityFrom: '', activityTo: '' })}
              data-testid="activity-clear"
            >
              {t('robotActivity.clear')}
            </Button>
          )}
        </Group>
        <ListTable
          query={log}
          empty={filtered ? t('robotActivity.noMatch') : t('robotActivity.empty')}
          emptyTestId="activity-empty"
          count={(count) => t('robotActivity.count', { count })}
          columns={columns}
          rowId={(e) => e.id}
          paging={{
            page: params.activityPage,
            perPage: ACTIVITY_PER_PAGE,
            onPage: (activityPage) => set({ activityPage }),
          }}
          minWidth={720}
          data-testid="activity-table"
        />
      </Stack>
    </Paper>
  );
}
