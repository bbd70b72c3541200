import { Button, Group, Select, Stack, Switch, Text, SegmentedControl } from '@mantine/core';
import { WAYPOINT_TYPES, waypointInputSchema, type Waypoint, type WaypointTypeCode } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import type { EditorStore } from '../model/store';
import { CommitInput } from './commit-input';
import { useMapMessageText } from './message-text';

const toDeg = (rad: number) => String(Math.round(((rad * 180) / Math.PI) * 10) / 10);
const toRad = (deg: number) => {
  const wrapped = ((((deg + 180) % 360) + 360) % 360) - 180;
  return Math.round(((wrapped * Math.PI) / 180) * 10000) / 10000;
};

function WaypointProperties({ store, w }: { store: EditorStore; w: Waypoint }) {
  const { t } = useTranslation();
  const message = useMapMessageText();
  const ro = store.readOnly;
  /** Checks the changed waypoint against the contract before it goes into the map. */
  const change = (patch: Partial<Waypoint>): string | null => {
    const next = { ...w, ...patch };
    const parsed = waypointInputSchema.safeParse(next);
    if (!parsed.success) return message(parsed.error.issues[0]?.message) ?? null;
    store.updateWaypoint(w.id, patch);
    return null;
  };
  const num = (text: string, apply: (v: number) => Partial<Waypoint>): string | null => {
    const v = Number(text.trim());
    if (text.trim() === '' || !Number.isFinite(v)) return message('validation.number') ?? null;
    return change(apply(v));
  };
  return (
    <Stack gap="xs" data-testid="waypoint-properties">
      <Text size="xs" c="dimmed">
        ID {w.id}
      </Text>
      <CommitInput
        label={t('mapEditor.panel.name')}
        value={w.name}
        disabled={ro}
        testId="prop-name"
        onCommit={(v) => change({ name: v.trim() })}
      />
      <Group grow>
        <CommitInput
          label={t('mapEditor.panel.x')}
          value={String(w.x)}
          disabled={ro}
          testId="prop-x"
          onCommit={(v) => num(v, (x) => ({ x }))}
        />
        <CommitInput
          label={t('mapEditor.panel.y')}
          value={String(w.y)}
          disabled={ro}
          testId="prop-y"
          onCommit={(v) => num(v, (y) => ({ y }))}
        />
      </Group>
      <CommitInput
        label={t('mapEditor.panel.direction')}
        value={toDeg(w.theta)}
        disabled={ro}
        testId="prop-direction"
        onCommit={(v) => num(v, (deg) => ({ theta: toRad(deg) }))}
      />
      <Select
        size="xs"
        label={t('mapEditor.panel.type')}
        disabled={ro}
        allowDeselect={false}
        data={WAYPOINT_TYPES.map((c) => ({ value: String(c), label: t(`mapEditor.waypointTypes.${c}`) }))}
        value={String(w.type)}
        onChange={(v) => v && change({ type: Number(v) as WaypointTypeCode })}
      />
    </Stack>
  );
}

interface PropertiesPanelProps {
  store: EditorStore;
}

/** The selected item's properties, editable (one undo step per change). */
export function PropertiesPanel({ store }: PropertiesPanelProps) {
  const { t } = useTranslation();
  const sel = store.selection;
  const doc = store.doc;
  const ro = store.readOnly;
  if (sel.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('mapEditor.panel.nothingSelected')}
      </Text>
    );
  if (sel.length > 1)
    return (
      <Stack gap="xs">
        <Text size="sm">{t('mapEditor.panel.multiple', { count: sel.length })}</Text>
        {!ro && (
          <Button size="xs" color="red" variant="light" onClick={() => store.deleteSelection()}>
            {t('mapEditor.panel.delete')}
          </Button>
        )}
      </Stack>
    );
  const item = sel[0]!;
  const remove = !ro && (
    <Button size="xs" color="red" variant="light" onClick={() => store.deleteSelection()} data-testid="delete-selected">
      {t('mapEditor.panel.delete')}
    </Button>
  );
  if (item.kind === 'waypoint') {
    const w = doc.waypoints.find((x) => x.id === item.id);
    return w ? (
      <Stack gap="sm">
        <WaypointProperties key={w.id} store={store} w={w} />
        {remove}
      </Stack>
    ) : null;
  }
  if (item.kind === 'edge') {
    const e = doc.edges.find((x) => x.id === item.id);
    if (!e) return null;
    const name = (id: number) => doc.waypoints.find((w) => w.id === id)?.name ?? String(id);
    return (
      <Stack gap="xs" data-testid="edge-properties">
        <Text size="sm" fw={600}>
          {t('mapEditor.panel.edge', { from: name(e.from), to: name(e.to) })}
        </Text>
        <Switch
          size="sm"
          label={t('mapEditor.oneWay')}
          checked={e.oneWay}
          disabled={ro}
          onChange={(ev) => store.updateEdge(e.id, { oneWay: ev.currentTarget.checked })}
        />
        <SegmentedControl
          size="xs"
          disabled={ro}
          value={e.speed}
          onChange={(v) => store.updateEdge(e.id, { speed: v === 'slow' ? 'slow' : 'normal' })}
          data={[
            { value: 'normal', label: t('mapEditor.speeds.normal') },
            { value: 'slow', label: t('mapEditor.speeds.slow') },
          ]}
        />
        {remove}
      </Stack>
    );
  }
  if (item.kind === 'noGo') {
    const a = doc.noGoAreas.find((x) => x.id === item.id);
    if (!a) return null;
    return (
      <Stack gap="xs">
        <CommitInput
          key={a.id}
          label={t('mapEditor.panel.name')}
          value={a.name}
          disabled={ro}
          onCommit={(v) => {
            store.updateNoGoArea(a.id, { name: v.trim().slice(0, 40) });
            return null;
          }}
        />
        <Text size="xs" c="dimmed">
          {t('mapEditor.panel.corners', { count: a.points.length })}
        </Text>
        {remove}
      </Stack>
    );
  }
  const r = doc.partialMaps.find((x) => x.id === item.id);
  if (!r) return null;
  return (
    <Stack gap="xs">
      <CommitInput
        key={r.id}
        label={t('mapEditor.panel.name')}
        value={r.name}
        disabled={ro}
        onCommit={(v) => {
          if (!v.trim()) return t('validation.required');
          store.updatePartialMap(r.id, { name: v.trim().slice(0, 40) });
          return null;
        }}
      />
      <Text size="xs" c="dimmed">
        {t('mapEditor.panel.size', { width: r.width.toFixed(2), height: r.height.toFixed(2) })}
      </Text>
      {remove}
    </Stack>
  );
}
