import {
  Box,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { fleetTopic, type FleetRobot } from '@portal/contract';
import { useVirtualizer, observeElementRect, type Virtualizer } from '@tanstack/react-virtual';
import { useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { useFleet } from '@/lib/realtime';
import { readItem, writeItem } from '@/lib/storage';
import { useFleetQuery } from '../api/get-fleet';
import {
  controlSorts,
  parseControlParams,
  visibleRobots,
  writeControlParams,
  type ControlParams,
} from '../control-params';
import { RobotCard, RobotRow, rowStyle } from './robot-card';
import { useFloorNames } from './use-floor-names';
import { modelChoices } from '../model-label';
import { PageHeader } from '@/components/page-header';

const VIEW_KEY = 'portal.robotControl.view';
type View = 'grid' | 'list';
const CARD_MIN_WIDTH = 290;
const GAP = 12;

/** jsdom and hidden containers measure 0: assume a screenful so something renders. */
const observeRectWithFallback: typeof observeElementRect = (instance, cb) =>
  observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { width: rect.width || 1200, height: 800 }));

function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(() => setWidth(el.clientWidth));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

interface VirtualProps {
  robots: FleetRobot[];
  floorNames: ReadonlyMap<number, string>;
  /** More about a robot on its card or row (the running flow), composed by the route. */
  robotExtra?: RobotExtra | undefined;
}

/** What the route adds to a robot's card or row (keep its identity stable: the cards are memoized). */
export type RobotExtra = (robotId: number) => ReactNode;

const scrollBoxStyle: React.CSSProperties = {
  height: 'max(420px, calc(100dvh - 300px))',
  overflow: 'auto',
  contain: 'strict',
};

function VirtualGrid({ robots, floorNames, robotExtra }: VirtualProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const width = useWidth(scrollRef);
  const columns = Math.max(1, Math.floor((width + GAP) / (CARD_MIN_WIDTH + GAP)));
  const rows = Math.ceil(robots.length / columns);
  // The virtualizer is not memoizable by the compiler; the rows read it during render only.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer: Virtualizer<HTMLDivElement, Element> = useVirtualizer({
    count: rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 210,
    overscan: 3,
    observeElementRect: observeRectWithFallback,
  });
  return (
    <div ref={scrollRef} style={scrollBoxStyle} data-testid="robot-grid">
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              width: '100%',
              transform: `translateY(${row.start}px)`,
              display: 'grid',
              gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
              gap: GAP,
              paddingBottom: GAP,
            }}
          >
            {robots.slice(row.index * columns, row.index * columns + columns).map((r) => (
              <RobotCard
                key={r.id}
                robot={r}
                floorName={r.live.floorId === null ? null : (floorNames.get(r.live.floorId) ?? null)}
                extra={robotExtra}
              />
            ))}
          </div>
        ))}
      </div>
    </div>
  );
}

function VirtualList({ robots, floorNames, robotExtra }: VirtualProps) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  // The virtualizer is not memoizable by the compiler; the rows read it during render only.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer: Virtualizer<HTMLDivElement, Element> = useVirtualizer({
    count: robots.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 64,
    overscan: 8,
    observeElementRect: observeRectWithFallback,
  });
  const header = [
    'robot',
    'model',
    'status',
    'battery',
    'floor',
    'activity',
    'issues',
    'lastCommunication',
    'actions',
  ] as const;
  return (
    <div
      ref={scrollRef}
      style={scrollBoxStyle}
      role="table"
      aria-rowcount={robots.length + 1}
      data-testid="robot-list-view"
    >
      <div
        role="row"
        style={{ ...rowStyle, position: 'sticky', top: 0, zIndex: 1, background: 'var(--mantine-color-body)' }}
      >
        {header.map((h) => (
          <Text key={h} role="columnheader" size="xs" fw={700} c="dimmed">
            {h === 'actions' ? (
              <VisuallyHidden>{t('robotControl.columns.actions')}</VisuallyHidden>
            ) : (
              t(`robotControl.columns.${h}`)
            )}
          </Text>
        ))}
      </div>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', minWidth: 1080 }}>
        {virtualizer.getVirtualItems().map((item) => {
          const r = robots[item.index];
          if (!r) return null;
          return (
            <div
              key={r.id}
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
            >
              <RobotRow
                robot={r}
                floorName={r.live.floorId === null ? null : (floorNames.get(r.live.floorId) ?? null)}
                extra={robotExtra}
              />
            </div>
          );
        })}
      </div>
    </div>
  );
}

interface RobotControlProps {
  /** The building filter (only for operators who see more than one building), composed by the route. */
  buildingFilter?: ReactNode;
  robotExtra?: RobotExtra;
}

/** /robot/control: every robot in scope, live from the WebSocket, as a grid or a list. */
export function RobotControl({ buildingFilter, robotExtra }: RobotControlProps) {
  const [search] = useSearchParams();
  const building = parseControlParams(search).building;
  const fleet = useFleet(fleetTopic(building), { poses: false });
  // The REST fleet shows the robots at once; the socket's snapshot (then its deltas) takes over.
  const rest = useFleetQuery(building, !fleet.ready);
  const robots = fleet.ready ? [...fleet.robots.values()] : (rest.data ?? null);
  if (robots === null) {
    if (rest.isError) return <QueryError error={rest.error} onRetry={() => void rest.refetch()} />;
    return <PageLoader />;
  }
  return <RobotControlView robots={robots} buildingFilter={buildingFilter} robotExtra={robotExtra} />;
}

interface RobotControlViewProps {
  robots: readonly FleetRobot[];
  buildingFilter?: ReactNode;
  robotExtra?: RobotExtra | undefined;
}

export function RobotControlView({ robots, buildingFilter, robotExtra }: RobotControlViewProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const params = parseControlParams(search);
  // The filter offers the known models and any other model in this fleet (plus the one in the URL).
  const presentModels = [...(robots ?? []).map((r) => r.model), ...(params.model ? [params.model] : [])];
  const [view, setView] = useState<View>(() => (readItem(VIEW_KEY) === 'list' ? 'list' : 'grid'));
  const [q, setQ] = useState(params.q);
  const deferredQ = useDeferredValue(q);

  const go = (p: Partial<ControlParams>) => setSearch((prev) => writeControlParams(prev, p), { replace: true });

  const effective: ControlParams = { ...params, q: deferredQ };
  const key = JSON.stringify(effective);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const shown = useMemo(() => visibleRobots(robots, effective), [robots, key]);
  const buildingIds = useMemo(() => [...new Set(robots.map((r) => r.buildingId))].sort((a, b) => a - b), [robots]);
  const floorNames = useFloorNames(buildingIds);
  const groups = useMemo(() => {
    const m = new Map<number, string>();
    for (const r of robots) if (r.groupId !== null) m.set(r.groupId, r.groupName ?? `#${r.groupId}`);
    return [...m].sort((a, b) => a[1].localeCompare(b[1]));
  }, [robots]);
  const filtered =
    params.q !== '' || params.model !== null || params.online || params.available || params.group !== null;

  return (
    <Stack gap="sm">
      <PageHeader title={t('robotControl.title')}>
        <SegmentedControl
          aria-label={t('robotControl.view')}
          value={view}
          onChange={(v) => {
            const next: View = v === 'list' ? 'list' : 'grid';
            setView(next);
            writeItem(VIEW_KEY, next);
          }}
          data={[
            { value: 'grid', label: t('robotControl.grid') },
            { value: 'list', label: t('robotControl.list') },
          ]}
          data-testid="robot-view-toggle"
        />
      </PageHeader>
      <Group align="flex-end" wrap="wrap" gap="sm">
        <TextInput
          type="search"
          label={t('robotControl.search')}
          placeholder={t('robotControl.searchHint')}
          value={q}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setQ(v);
            go({ q: v });
          }}
          w={220}
          data-testid="robot-search"
        />
        <NativeSelect
          label={t('robotControl.model')}
          value={params.model ?? ''}
          onChange={(e) => {
            const v = e.currentTarget.value;
            go({ model: v === '' ? null : v });
          }}
          data={[{ value: '', label: t('robotControl.allModels') }, ...modelChoices(t, presentModels)]}
          data-testid="robot-model-filter"
        />
        {buildingFilter}
        <NativeSelect
          label={t('robotControl.group')}
          value={params.group === null ? '' : String(params.group)}
          onChange={(e) => go({ group: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
          data={[
            { value: '', label: t('robotControl.allGroups') },
            ...groups.map(([id, name]) => ({ value: String(id), label: name })),
          ]}
          data-testid="robot-group-filter"
        />
        <NativeSelect
          label={t('robotControl.sortBy')}
          value={params.sort}
          onChange={(e) => go({ sort: controlSorts.find((s) => s === e.currentTarget.value) ?? 'name' })}
          data={controlSorts.map((s) => ({ value: s, label: t(`robotControl.sorts.${s}`) }))}
          data-testid="robot-sort"
        />
        <Stack gap={6} pb={4}>
          <Checkbox
            label={t('robotControl.onlineOnly')}
            checked={params.online}
            onChange={(e) => go({ online: e.currentTarget.checked })}
            data-testid="robot-online-only"
          />
          <Checkbox
            label={t('robotControl.availableOnly')}
            checked={params.available}
            onChange={(e) => go({ available: e.currentTarget.checked })}
            data-testid="robot-available-only"
          />
        </Stack>
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setQ('');
              go({ q: '', model: null, online: false, available: false, group: null });
            }}
          >
            {t('robotControl.clear')}
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed" aria-live="polite" data-testid="robot-count">
        {t('robotControl.count', { shown: shown.length, total: robots.length })}
      </Text>
      {robots.length === 0 ? (
        <Paper withBorder p="xl">
          <Text c="dimmed" ta="center" data-testid="robots-empty">
            {t('robotControl.empty')}
          </Text>
        </Paper>
      ) : shown.length === 0 ? (
        <Paper withBorder p="xl">
          <Text c="dimmed" ta="center" data-testid="robots-no-match">
            {t('robotControl.noMatch')}
          </Text>
        </Paper>
      ) : (
        <Box>
          {view === 'grid' ? (
            <VirtualGrid robots={shown} floorNames={floorNames} robotExtra={robotExtra} />
          ) : (
            <VirtualList robots={shown} floorNames={floorNames} robotExtra={robotExtra} />
          )}
        </Box>
      )}
    </Stack>
  );
}
