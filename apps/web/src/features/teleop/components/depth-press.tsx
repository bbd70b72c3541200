import { DEPTH_IMAGE_HEIGHT, DEPTH_IMAGE_WIDTH, type ArmPressResult } from '@portal/contract';
import { Alert, Box, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { useArmPress, useRobotDepthImage } from '../api/robot-arm';
import { useTeleopErrorText } from '../hooks/use-teleop-error-text';

export interface DepthPressProps {
  robotId: string;
  serialNo: string;
  arm: 'right' | 'left';
  onPressed?: (r: { hit: boolean; target?: string }) => void;
}

/** A button target of the simulator's panels in the user's language (docs/api-robot-arm.md). */
export function useTargetLabel(): (target: string) => string {
  const { t } = useTranslation();
  return (target) => {
    if (target === 'hall-up') return t('depthPress.targets.hallUp');
    if (target === 'hall-down') return t('depthPress.targets.hallDown');
    if (target === 'door-open') return t('depthPress.targets.doorOpen');
    const car = /^car-(-?\d+)$/.exec(target);
    if (car) {
      const n = Number(car[1]);
      return t('depthPress.targets.car', { floor: n <= 0 ? `B${1 - n}` : `${n}F` });
    }
    return target;
  };
}

/**
 * The arm's button press (issue 14): the robot's depth image, refreshing; a click marks the point
 * and the arm presses there; pending while it moves, then what it pressed or that there was nothing
 * to press, and the image again so a lit button is seen.
 */
export function DepthPress({ robotId, serialNo, arm, onPressed }: DepthPressProps) {
  const { t } = useTranslation();
  const id = Number(robotId);
  const qc = useQueryClient();
  const depth = useRobotDepthImage(id);
  const press = useArmPress(id);
  const errorText = useTeleopErrorText();
  const targetLabel = useTargetLabel();
  const [mark, setMark] = useState<{ u: number; v: number } | null>(null);
  const [result, setResult] = useState<ArmPressResult | null>(null);

  const refresh = () => qc.invalidateQueries({ queryKey: queryKeys.teleop.part(id, 'depth-image') });

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    if (press.isPending || !depth.data) return;
    const rect = e.currentTarget.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) return;
    const u = Math.min(
      DEPTH_IMAGE_WIDTH - 1,
      Math.max(0, Math.floor(((e.clientX - rect.left) * DEPTH_IMAGE_WIDTH) / rect.width)),
    );
    const v = Math.min(
      DEPTH_IMAGE_HEIGHT - 1,
      Math.max(0, Math.floor(((e.clientY - rect.top) * DEPTH_IMAGE_HEIGHT) / rect.height)),
    );
    setMark({ u, v });
    setResult(null);
    press.mutate(
      { arm, u, v },
      {
        onSuccess: (r) => {
          setResult(r);
          onPressed?.(r.target === undefined ? { hit: r.hit } : { hit: r.hit, target: r.target });
          void refresh();
        },
      },
    );
  };

  const error = press.error ?? depth.error;
  const errorMessage =
    error instanceof ApiError ? errorText(error.code, error.message) : error ? String(error.message) : null;

  return (
    <Paper withBorder p="sm" data-testid="depth-press">
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} size="sm" style={{ flex: 1, minWidth: 0 }}>
            {t('depthPress.title', { serialNo })}
          </Text>
          <Button
            size="xs"
            variant="default"
            style={{ flexShrink: 0 }}
            onClick={() => void refresh()}
            disabled={depth.isFetching}
          >
            {t('depthPress.refresh')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('depthPress.hint', { arm: t(`depthPress.arms.${arm}`) })}
        </Text>
        <Box
          onClick={onClick}
          pos="relative"
          maw={DEPTH_IMAGE_WIDTH}
          w="100%"
          style={{
            aspectRatio: `${DEPTH_IMAGE_WIDTH} / ${DEPTH_IMAGE_HEIGHT}`,
            cursor: press.isPending ? 'progress' : 'crosshair',
            background: '#000',
          }}
          data-testid="depth-image-area"
        >
          {depth.data ? (
            <img
              src={`data:${depth.data.contentType};base64,${depth.data.data}`}
              alt={t('depthPress.imageAlt')}
              draggable={false}
              style={{ width: '100%', height: '100%', display: 'block', userSelect: 'none' }}
            />
          ) : (
            <Group justify="center" h="100%">
              {depth.isLoading && <Loader size="sm" />}
              <Text c="gray.4" size="sm">
                {depth.isLoading ? t('depthPress.loading') : t('depthPress.noImage')}
              </Text>
            </Group>
          )}
          {mark && (
            <Box
              data-testid="depth-mark"
              pos="absolute"
              style={{
                left: `${((mark.u + 0.5) * 100) / DEPTH_IMAGE_WIDTH}%`,
                top: `${((mark.v + 0.5) * 100) / DEPTH_IMAGE_HEIGHT}%`,
                width: 22,
                height: 22,
                marginLeft: -11,
                marginTop: -11,
                borderRadius: '50%',
                border: '3px solid #e8590c',
                boxShadow: '0 0 0 2px #fff',
                pointerEvents: 'none',
              }}
            />
          )}
        </Box>
        <Box role="status" aria-live="polite" mih={28}>
          {press.isPending ? (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm">{t('depthPress.pressing', { arm: t(`depthPress.arms.${arm}`) })}</Text>
            </Group>
          ) : result ? (
            result.hit ? (
              <Text c="teal.8" fw={600}>
                {t('depthPress.pressed', { target: targetLabel(result.target ?? '') })}
              </Text>
            ) : (
              <Text c="orange.8" fw={600}>
                {result.reason === 'out of reach' ? t('depthPress.outOfReach') : t('depthPress.nothing')}
              </Text>
            )
          ) : null}
        </Box>
        {errorMessage && (
          <Alert color="red" variant="light">
            {errorMessage}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
