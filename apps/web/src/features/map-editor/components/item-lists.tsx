import { ActionIcon, Badge, Button, Group, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { waypointColors } from '../canvas/palette';
import type { EditorStore } from '../model/store';
import type { SelectionItem } from '../model/types';

const LIST_LIMIT = 200;

interface RowProps {
  active: boolean;
  onClick: () => void;
  children: React.ReactNode;
  actions?: React.ReactNode;
  testId?: string;
}

function Row({ active, onClick, children, actions, testId }: RowProps) {
  return (
    <Group
      gap={4}
      wrap="nowrap"
      px={6}
      py={2}
      data-testid={testId}
      style={{ borderRadius: 4, background: active ? 'var(--mantine-primary-color-light)' : undefined }}
    >
      <UnstyledButton onClick={onClick} style={{ flex: 1, minWidth: 0 }} aria-current={active || undefined}>
        {children}
      </UnstyledButton>
      {actions}
    </Group>
  );
}

const isSelected = (store: EditorStore, item: SelectionItem) =>
  store.selection.some((s) => s.kind === item.kind && s.id === item.id);

/** Selects an item from a list and brings it into view. */
function focus(store: EditorStore, item: SelectionItem, additive: boolean) {
  store.select(
    additive ? [...store.selection.filter((s) => !(s.kind === item.kind && s.id === item.id)), item] : [item],
  );
  const doc = store.doc;
  const p =
    item.kind === 'waypoint'
      ? doc.waypoints.find((w) => w.id === item.id)
      : item.kind === 'partialMap'
        ? doc.partialMaps
            .map((r) => ({ id: r.id, x: r.x + r.width / 2, y: r.y + r.height / 2 }))
            .find((r) => r.id === item.id)
        : doc.noGoAreas.map((a) => ({ id: a.id, ...a.points[0]! })).find((a) => a.id === item.id);
  if (p && !additive) store.centerOn(p, store.camera.zoom);
}

export function WaypointList({ store, warned }: { store: EditorStore; warned?: ReadonlySet<number> }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const needle = q.trim().toLowerCase();
  const matches = store.doc.waypoints.filter((w) => !needle || w.name.toLowerCase().includes(needle));
  return (
    <Stack gap="xs">
      <TextInput
        size="xs"
        placeholder={t('mapEditor.panel.search')}
        aria-label={t('mapEditor.panel.search')}
        value={q}
        onChange={(e) => setQ(e.currentTarget.value)}
      />
      {matches.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('mapEditor.panel.empty')}
        </Text>
      )}
      <Stack gap={0} data-testid="waypoint-list">
        {matches.slice(0, LIST_LIMIT).map((w) => (
          <Row
            key={w.id}
            active={isSelected(store, { kind: 'waypoint', id: w.id })}
            onClick={() => focus(store, { kind: 'waypoint', id: w.id }, false)}
            testId={`waypoint-row-${w.id}`}
          >
            <Group gap={6} wrap="nowrap">
              <span
                aria-hidden
                style={{ width: 10, height: 10, borderRadius: 5, flex: 'none', background: waypointColors[w.type] }}
              />
              <Text size="sm" truncate>
                {w.name}
              </Text>
              {warned?.has(w.id) && (
                <Text
                  size="xs"
                  fw={700}
                  c="orange"
                  title={t('mapEditor.warnings.marker')}
                  aria-label={t('mapEditor.warnings.marker')}
                  data-testid={`waypoint-warning-${w.id}`}
                  style={{ flex: 'none' }}
                >
                  !
                </Text>
              )}
              <Text size="xs" c="dimmed" ml="auto" style={{ flex: 'none' }}>
                {t(`mapEditor.waypointTypes.${w.type}`)}
              </Text>
            </Group>
          </Row>
        ))}
      </Stack>
      {matches.length > LIST_LIMIT && (
        <Text size="xs" c="dimmed">
          {t('mapEditor.panel.more', { count: matches.length - LIST_LIMIT })}
        </Text>
      )}
    </Stack>
  );
}

export function RouteList({ store }: { store: EditorStore }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const selectedWaypoints = store.selection.filter((s) => s.kind === 'waypoint').length;
  return (
    <Stack gap="xs">
      {!store.readOnly && (
        <Stack gap={4}>
          <Group gap={4} wrap="nowrap" align="flex-end">
            <TextInput
              size="xs"
              style={{ flex: 1 }}
              label={t('mapEditor.panel.newRouteName')}
              value={name}
              maxLength={40}
              onChange={(e) => setName(e.currentTarget.value)}
              data-testid="new-route-name"
            />
            <Button
              size="xs"
              disabled={selectedWaypoints < 2 || !name.trim()}
              onClick={() => {
                if (store.createRouteFromSelection(name) !== null) setName('');
              }}
              data-testid="create-route"
            >
              {t('mapEditor.panel.createRoute')}
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            {t('mapEditor.panel.createRouteHint')}
          </Text>
        </Stack>
      )}
      {store.doc.routes.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('mapEditor.panel.empty')}
        </Text>
      )}
      {store.doc.routes.map((r) => (
        <Row
          key={r.id}
          active={store.selectedRouteId === r.id}
          onClick={() => store.selectRoute(store.selectedRouteId === r.id ? null : r.id)}
          testId={`route-row-${r.id}`}
          actions={
            !store.readOnly && (
              <ActionIcon
                size="sm"
                variant="subtle"
                color="red"
                aria-label={`${t('mapEditor.panel.delete')} ${r.name}`}
                onClick={() => store.removeItem('route', r.id)}
              >
                ×
              </ActionIcon>
            )
          }
        >
          <Group gap={6} wrap="nowrap">
            <Text size="sm" truncate>
              {r.name}
            </Text>
            <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
              {t('mapEditor.panel.routeStops', { count: r.waypointIds.length })}
            </Text>
            {r.recorded && (
              <Badge size="xs" variant="light">
                {t('mapEditor.panel.recorded')}
              </Badge>
            )}
          </Group>
        </Row>
      ))}
    </Stack>
  );
}

export function PartialMapList({ store }: { store: EditorStore }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" data-testid="partial-map-list">
      <Text size="xs" c="dimmed">
        {t('mapEditor.toolHints.partialMap')}
      </Text>
      {store.doc.partialMaps.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('mapEditor.panel.empty')}
        </Text>
      )}
      {store.doc.partialMaps.map((r) => (
        <Row
          key={r.id}
          active={isSelected(store, { kind: 'partialMap', id: r.id })}
          onClick={() => focus(store, { kind: 'partialMap', id: r.id }, false)}
          actions={
            !store.readOnly && (
              <ActionIcon
                size="sm"
                variant="subtle"
                color="red"
                aria-label={`${t('mapEditor.panel.delete')} ${r.name}`}
                onClick={() => store.removeItem('partialMap', r.id)}
              >
                ×
              </ActionIcon>
            )
          }
        >
          <Group gap={6} wrap="nowrap">
            <Text size="sm" truncate>
              {r.name}
            </Text>
            <Text size="xs" c="dimmed" style={{ flex: 'none' }}>
              {t('mapEditor.panel.size', { width: r.width.toFixed(1), height: r.height.toFixed(1) })}
            </Text>
          </Group>
        </Row>
      ))}
    </Stack>
  );
}

export function NoGoList({ store }: { store: EditorStore }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      {store.doc.noGoAreas.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('mapEditor.panel.empty')}
        </Text>
      )}
      {store.doc.noGoAreas.map((a) => (
        <Row
          key={a.id}
          active={isSelected(store, { kind: 'noGo', id: a.id })}
          onClick={() => focus(store, { kind: 'noGo', id: a.id }, false)}
          actions={
            !store.readOnly && (
              <ActionIcon
                size="sm"
                variant="subtle"
                color="red"
                aria-label={t('mapEditor.panel.delete')}
                onClick={() => store.removeItem('noGo', a.id)}
              >
                ×
              </ActionIcon>
            )
          }
        >
          <Text size="sm" truncate>
            {a.name || t('mapEditor.panel.noGoName', { id: a.id })}
          </Text>
        </Row>
      ))}
    </Stack>
  );
}
