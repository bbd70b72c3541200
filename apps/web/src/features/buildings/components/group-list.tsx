import { ActionIcon, Alert, Anchor, Button, Group, Paper, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import type { Group as GroupRow } from '@portal/contract';
import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ListStates } from '@/components/list-page';
import { paths } from '@/config/paths';
import { useErrorText } from '@/lib/i18n';
import { useGroups } from '../api/get-groups';
import type { GroupKind } from '../api/get-groups';
import { useReorderGroups } from '../api/reorder-groups';

/** `ids` with the item at `from` moved to `to`. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const out = [...items];
  const [item] = out.splice(from, 1);
  if (item === undefined) return out;
  out.splice(to, 0, item);
  return out;
}

interface GroupListProps {
  buildingId: number;
  kind: GroupKind;
  canManage: boolean;
}

/** A building's robot or flow groups in order: drag and drop, or the up/down buttons, saves the new order. */
export function GroupList({ buildingId, kind, canManage }: GroupListProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const groups = useGroups(buildingId, kind);
  const reorder = useReorderGroups(buildingId, kind);
  const [dragging, setDragging] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const robot = kind === 'robot-group';

  const rows = groups.data ?? [];

  const move = (from: number, to: number) => {
    if (to < 0 || to >= rows.length || from === to) return;
    const next = moveItem(rows, from, to);
    const moved = rows[from];
    reorder.mutate(
      next.map((g) => g.id),
      {
        onSuccess: () =>
          setAnnouncement(
            t('buildings.groups.moved', { name: moved?.name ?? '', position: to + 1, total: rows.length }),
          ),
      },
    );
  };

  const dropOn = (e: DragEvent, index: number) => {
    e.preventDefault();
    if (dragging !== null) move(dragging, index);
    setDragging(null);
    setOver(null);
  };

  const editHref = (g: GroupRow) =>
    robot ? paths.building.robotGroup.getHref(g.id) : paths.building.flowGroup.getHref(g.id);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">
          {robot ? t('buildings.groups.robotTitle') : t('buildings.groups.flowTitle')}
        </Title>
        {canManage && (
          <Button
            component={Link}
            to={
              robot
                ? paths.building.robotGroupCreate.getHref(buildingId)
                : paths.building.flowGroupCreate.getHref(buildingId)
            }
            data-testid={`${kind}-add`}
          >
            {robot ? t('buildings.groups.addRobot') : t('buildings.groups.addFlow')}
          </Button>
        )}
      </Group>
      {reorder.isError && (
        <Alert color="red" role="alert">
          {errorText(reorder.error)}
        </Alert>
      )}
      {canManage && rows.length > 1 && (
        <Text size="sm" c="dimmed">
          {t('buildings.groups.orderHint')}
        </Text>
      )}
      <VisuallyHidden aria-live="polite">{announcement}</VisuallyHidden>
      <ListStates query={groups} empty={t('buildings.groups.empty')}>
        {() => (
          <Stack gap={6} component="ol" p={0} m={0} style={{ listStyle: 'none' }} data-testid={`${kind}-list`}>
            {rows.map((g, i) => (
              <Paper
                key={g.id}
                component="li"
                withBorder
                px="sm"
                py={6}
                draggable={canManage}
                onDragStart={(e: DragEvent) => {
                  e.dataTransfer.effectAllowed = 'move';
                  e.dataTransfer.setData('text/plain', String(g.id));
                  setDragging(i);
                }}
                onDragOver={(e: DragEvent) => {
                  if (dragging === null) return;
                  e.preventDefault();
                  setOver(i);
                }}
                onDragLeave={() => setOver((o) => (o === i ? null : o))}
                onDragEnd={() => {
                  setDragging(null);
                  setOver(null);
                }}
                onDrop={(e: DragEvent) => dropOn(e, i)}
                style={{
                  cursor: canManage ? 'grab' : undefined,
                  opacity: dragging === i ? 0.5 : 1,
                  outline: over === i && dragging !== i ? '2px dashed var(--mantine-color-blue-filled)' : undefined,
                }}
                data-testid={`${kind}-item`}
              >
                <Group justify="space-between" wrap="nowrap">
                  <Group gap="sm" wrap="nowrap">
                    {canManage && (
                      <Text c="dimmed" aria-hidden title={t('buildings.groups.dragHandle', { name: g.name })}>
                        ⋮⋮
                      </Text>
                    )}
                    <Text size="sm" c="dimmed" w={24}>
                      {i + 1}
                    </Text>
                    <Text fw={500}>{g.name}</Text>
                  </Group>
                  <Group gap={4} wrap="nowrap">
                    {canManage && (
                      <>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('buildings.groups.moveUp', { name: g.name })}
                          disabled={i === 0 || reorder.isPending}
                          onClick={() => move(i, i - 1)}
                        >
                          ↑
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('buildings.groups.moveDown', { name: g.name })}
                          disabled={i === rows.length - 1 || reorder.isPending}
                          onClick={() => move(i, i + 1)}
                        >
                          ↓
                        </ActionIcon>
                      </>
                    )}
                    <Anchor component={Link} to={editHref(g)} size="sm" ml="xs">
                      {t('buildings.groups.edit')}
                    </Anchor>
                  </Group>
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
      </ListStates>
    </Stack>
  );
}
