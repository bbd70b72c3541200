import { ActionIcon, Button, Group, SegmentedControl, Select, Switch, Tooltip } from '@mantine/core';
import { WAYPOINT_TYPES, type WaypointTypeCode } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import type { EditorStore } from '../model/store';
import type { ToolId } from '../model/types';
import { useStoreChannel } from './use-store';

const editTools: ToolId[] = ['select', 'waypoint', 'edge', 'noGo', 'partialMap', 'pan'];
const viewTools: ToolId[] = ['select', 'pan'];
const toolIcons: Record<ToolId, string> = {
  select: '↖',
  waypoint: '◉',
  edge: '⟷',
  noGo: '⬠',
  partialMap: '▭',
  pan: '✥',
};

interface EditorToolbarProps {
  store: EditorStore;
  saving: boolean;
  onSave: () => void;
  onFit: () => void;
  onRevisions: () => void;
}

/** Tools, their options, undo/redo, zoom and save. */
export function EditorToolbar({ store, saving, onSave, onFit, onRevisions }: EditorToolbarProps) {
  const { t } = useTranslation();
  useStoreChannel(store, 'model');
  const tool = store.toolId;
  const { options } = store;
  const tools = store.readOnly ? viewTools : editTools;

  return (
    <Group gap="xs" wrap="wrap" data-testid="editor-toolbar">
      <Group gap={4} role="toolbar" aria-label={t('mapEditor.toolHints.select')}>
        {tools.map((id) => (
          <Tooltip key={id} label={t(`mapEditor.tools.${id}`)}>
            <ActionIcon
              size="lg"
              variant={tool === id ? 'filled' : 'default'}
              aria-label={t(`mapEditor.tools.${id}`)}
              aria-pressed={tool === id}
              data-testid={`tool-${id}`}
              onClick={() => store.setTool(id)}
            >
              <span aria-hidden style={{ fontSize: 16 }}>
                {toolIcons[id]}
              </span>
            </ActionIcon>
          </Tooltip>
        ))}
      </Group>
      {tool === 'waypoint' && (
        <Select
          size="xs"
          w={150}
          aria-label={t('mapEditor.waypointType')}
          data={WAYPOINT_TYPES.map((c) => ({ value: String(c), label: t(`mapEditor.waypointTypes.${c}`) }))}
          value={String(options.waypointType)}
          allowDeselect={false}
          onChange={(v) => v && store.setOptions({ waypointType: Number(v) as WaypointTypeCode })}
          data-testid="waypoint-type"
        />
      )}
      {tool === 'edge' && (
        <Group gap="xs">
          <SegmentedControl
            size="xs"
            value={options.edgeMode}
            onChange={(v) => store.setOptions({ edgeMode: v === 'delete' ? 'delete' : 'add' })}
            data={[
              { value: 'add', label: t('mapEditor.edgeMode.add') },
              { value: 'delete', label: t('mapEditor.edgeMode.delete') },
            ]}
          />
          <Switch
            size="xs"
            label={t('mapEditor.oneWay')}
            checked={options.oneWay}
            onChange={(e) => store.setOptions({ oneWay: e.currentTarget.checked })}
          />
          <SegmentedControl
            size="xs"
            aria-label={t('mapEditor.speed')}
            value={options.speed}
            onChange={(v) => store.setOptions({ speed: v === 'slow' ? 'slow' : 'normal' })}
            data={[
              { value: 'normal', label: t('mapEditor.speeds.normal') },
              { value: 'slow', label: t('mapEditor.speeds.slow') },
            ]}
          />
        </Group>
      )}
      <Group gap={4} ml="auto">
        {!store.readOnly && (
          <>
            <Tooltip label={t('mapEditor.undo')}>
              <ActionIcon
                size="lg"
                variant="default"
                aria-label={t('mapEditor.undo')}
                disabled={!store.canUndo}
                onClick={() => store.undo()}
              >
                <span aria-hidden>↶</span>
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('mapEditor.redo')}>
              <ActionIcon
                size="lg"
                variant="default"
                aria-label={t('mapEditor.redo')}
                disabled={!store.canRedo}
                onClick={() => store.redo()}
              >
                <span aria-hidden>↷</span>
              </ActionIcon>
            </Tooltip>
          </>
        )}
        <Tooltip label={t('mapEditor.zoomOut')}>
          <ActionIcon
            size="lg"
            variant="default"
            aria-label={t('mapEditor.zoomOut')}
            onClick={() => store.zoomBy(1 / 1.4)}
          >
            <span aria-hidden>−</span>
          </ActionIcon>
        </Tooltip>
        <Tooltip label={t('mapEditor.zoomIn')}>
          <ActionIcon size="lg" variant="default" aria-label={t('mapEditor.zoomIn')} onClick={() => store.zoomBy(1.4)}>
            <span aria-hidden>+</span>
          </ActionIcon>
        </Tooltip>
        <Button size="xs" variant="default" onClick={onFit} data-testid="fit">
          {t('mapEditor.fit')}
        </Button>
        <Button size="xs" variant="default" onClick={onRevisions} data-testid="open-revisions">
          {t('mapEditor.revisions')}
        </Button>
        {!store.readOnly && (
          <Button size="xs" onClick={onSave} loading={saving} disabled={!store.dirty} data-testid="save-map">
            {t('mapEditor.save')}
          </Button>
        )}
      </Group>
    </Group>
  );
}
