import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Switch,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { countSteps, type Flow } from '@portal/contract';
import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ListStates } from '@/components/list-page';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useErrorText } from '@/lib/i18n';
import { useSession } from '@/lib/session';
import { useFloorFlows, useFlowBuildings, useFlowFloors, useReorderFlows, useSetFlowEnabled } from '../api';

/** `items` with the item at `from` moved to `to`. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const out = [...items];
  const [item] = out.splice(from, 1);
  if (item === undefined) return out;
  out.splice(to, 0, item);
  return out;
}

const num = (v: string | null): number | null => (v && /^\d+$/.test(v) ? Number(v) : null);
/** The server refuses changes to this operator's flows (restricted flow editing, or no right). */
const refused = (e: unknown) => isApiError(e) && (e.code === 'FLOW_EDIT_RESTRICTED' || e.code === 'FORBIDDEN');

/**
 * /flow/settings: the flows of a building and floor (the user's location by default), filtered by
 * flow group; switch each on or off, and order them by drag and drop or the up/down buttons.
 */
export function FlowSettings() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const session = useSession();
  const [search, setSearch] = useSearchParams();
  const buildings = useFlowBuildings();
  const buildingId = num(search.get('buildingId')) ?? session?.buildingId ?? buildings.data?.[0]?.id ?? null;
  const floors = useFlowFloors(buildingId ?? 0);
  const floorId = num(search.get('floorId')) ?? floors.data?.[0]?.id ?? null;
  const group = search.get('group') ?? '';
  const building = buildings.data?.find((b) => b.id === buildingId);
  const flows = useFloorFlows(buildingId, floorId);
  const enable = useSetFlowEnabled();
  const reorder = useReorderFlows();
  const [readOnly, setReadOnly] = useState(false);
  const [dragging, setDragging] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');

  const all = flows.data ?? [];
  const rows = all.filter((f) =>
    group === '' ? true : group === 'none' ? f.flowGroupId === null : f.flowGroupId === Number(group),
  );
  const canChange = !readOnly;
  const failure = [enable.error, reorder.error].find((e) => e && !refused(e));
  const onRefused = (e: unknown) => {
    if (refused(e)) setReadOnly(true);
  };

  const set = (key: string, value: string | null) =>
    setSearch(
      (s) => {
        const next = new URLSearchParams(s);
        if (value === null || value === '') next.delete(key);
        else next.set(key, value);
        if (key === 'buildingId') {
          next.delete('floorId');
          next.delete('group');
        }
        return next;
      },
      { replace: true },
    );

  const move = (from: number, to: number) => {
    if (buildingId === null || floorId === null || to < 0 || to >= rows.length || from === to) return;
    const moved = rows[from];
    const target = rows[to];
    if (!moved || !target) return;
    // Within the filtered rows; the whole floor's order is sent (every flow once).
    const next = moveItem(all, all.indexOf(moved), all.indexOf(target));
    reorder.mutate(
      { buildingId, floorId, ids: next.map((f) => f.id) },
      {
        onError: onRefused,
        onSuccess: () =>
          setAnnouncement(t('flowEditor.moved', { name: moved.name, position: to + 1, total: rows.length })),
      },
    );
  };

  const groupName = (f: Flow) => building?.flowGroups?.find((g) => g.id === f.flowGroupId)?.name ?? '';

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('flowEditor.title')}
        </Title>
        {canChange && (
          <Button component={Link} to={paths.flow.create.getHref()} data-testid="flow-create">
            {t('flowEditor.create')}
          </Button>
        )}
      </Group>
      {readOnly && (
        <Alert color="blue" data-testid="flow-read-only">
          {t('flowEditor.readOnly')}
        </Alert>
      )}
      <Group align="flex-end">
        <NativeSelect
          label={t('flowEditor.building')}
          value={buildingId === null ? '' : String(buildingId)}
          onChange={(e) => set('buildingId', e.currentTarget.value)}
          data={(buildings.data ?? []).map((b) => ({ value: String(b.id), label: b.name ?? '' }))}
          data-testid="flow-building"
        />
        <NativeSelect
          label={t('flowEditor.floor')}
          value={floorId === null ? '' : String(floorId)}
          onChange={(e) => set('floorId', e.currentTarget.value)}
          data={(floors.data ?? []).map((f) => ({ value: String(f.id), label: f.name ?? '' }))}
          data-testid="flow-floor"
        />
        <NativeSelect
          label={t('flowEditor.flowGroup')}
          value={group}
          onChange={(e) => set('group', e.currentTarget.value)}
          data={[
            { value: '', label: t('flowEditor.allGroups') },
            { value: 'none', label: t('flowEditor.noGroup') },
            ...(building?.flowGroups ?? []).map((g) => ({ value: String(g.id), label: g.name })),
          ]}
          data-testid="flow-group"
        />
      </Group>
      {failure && (
        <Alert color="red" role="alert">
          {errorText(failure)}
        </Alert>
      )}
      {canChange && rows.length > 1 && (
        <Text size="sm" c="dimmed">
          {t('flowEditor.orderHint')}
        </Text>
      )}
      <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
      {buildingId === null || floorId === null ? (
        <Text c="dimmed">{t('flowEditor.chooseLocation')}</Text>
      ) : (
        <ListStates query={flows} empty={t('flowEditor.empty')}>
          {() => (
            <Stack gap={6} component="ol" p={0} m={0} style={{ listStyle: 'none' }} data-testid="flow-list">
              {rows.map((f, i) => (
                <Paper
                  key={f.id}
                  component="li"
                  withBorder
                  px="sm"
                  py={6}
                  draggable={canChange}
                  onDragStart={(e: DragEvent) => {
                    e.dataTransfer.effectAllowed = 'move';
                    e.dataTransfer.setData('text/plain', String(f.id));
                    setDragging(i);
                  }}
                  onDragOver={(e: DragEvent) => {
                    if (dragging !== null) e.preventDefault();
                  }}
                  onDragEnd={() => setDragging(null)}
                  onDrop={(e: DragEvent) => {
                    e.preventDefault();
                    if (dragging !== null) move(dragging, i);
                    setDragging(null);
                  }}
                  style={{ cursor: canChange ? 'grab' : undefined, opacity: dragging === i ? 0.5 : 1 }}
                  data-testid={`flow-row-${f.id}`}
                >
                  <Group justify="space-between" wrap="nowrap">
                    <Group gap="sm" wrap="nowrap">
                      {canChange && (
                        <Text c="dimmed" aria-hidden title={t('flowEditor.dragHandle', { name: f.name })}>
                          ⋮⋮
                        </Text>
                      )}
                      <Text size="sm" c="dimmed" w={24}>
                        {i + 1}
                      </Text>
                      <Anchor component={Link} to={paths.flow.detail.getHref(f.id)} size="sm">
                        {f.name}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {[groupName(f), t('flowEditor.steps', { count: countSteps(f.definition?.steps ?? []) })]
                          .filter(Boolean)
                          .join(' · ')}
                      </Text>
                    </Group>
                    <Group gap="xs" wrap="nowrap">
                      <Switch
                        checked={f.enabled}
                        disabled={!canChange || enable.isPending}
                        aria-label={t('flowEditor.enableLabel', { name: f.name })}
                        onChange={(e) =>
                          enable.mutate({ id: f.id, enabled: e.currentTarget.checked }, { onError: onRefused })
                        }
                        data-testid={`flow-enabled-${f.id}`}
                      />
                      {canChange && (
                        <>
                          <ActionIcon
                            variant="subtle"
                            disabled={i === 0}
                            aria-label={t('flowEditor.moveUp', { name: f.name })}
                            onClick={() => move(i, i - 1)}
                            data-testid={`flow-up-${f.id}`}
                          >
                            ↑
                          </ActionIcon>
                          <ActionIcon
                            variant="subtle"
                            disabled={i === rows.length - 1}
                            aria-label={t('flowEditor.moveDown', { name: f.name })}
                            onClick={() => move(i, i + 1)}
                            data-testid={`flow-down-${f.id}`}
                          >
                            ↓
                          </ActionIcon>
                        </>
                      )}
                    </Group>
                  </Group>
                </Paper>
              ))}
            </Stack>
          )}
        </ListStates>
      )}
    </Stack>
  );
}
