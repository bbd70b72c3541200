import { Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import {
  THERMAL_COLOR_MAPS,
  thermalColorMapSchema,
  VIDEO_MODES,
  videoModeSchema,
  type CameraId,
  type TeleopPeerStatus,
} from '@portal/contract';
import { useTranslation } from 'react-i18next';
import type { TeleopSession } from '../lib/teleop-session';

interface CameraControlsProps {
  session: TeleopSession;
  /** The robot's cameras (its status once connected, else its capabilities). */
  cameras: readonly CameraId[];
  status: TeleopPeerStatus | null;
  /** Commands go to the robot only from the controller. */
  enabled: boolean;
}

/** Camera switch, video setting and (on the thermal camera) its colour map, over the command channel. */
export function CameraControls({ session, cameras, status, enabled }: CameraControlsProps) {
  const { t } = useTranslation();
  const ready = enabled && status !== null;
  return (
    <Stack gap="xs">
      <div>
        <Text size="xs" fw={600} c="dimmed" mb={4} id="teleop-cameras-label">
          {t('teleopScreen.cameras.label')}
        </Text>
        <Group gap={6} role="group" aria-labelledby="teleop-cameras-label">
          {cameras.map((id) => {
            const active = status?.camera === id;
            return (
              <Button
                key={id}
                size="xs"
                variant={active ? 'filled' : 'default'}
                aria-pressed={active}
                disabled={!ready}
                onClick={() => session.sendCommand({ type: 'camera', camera: id })}
                data-testid={`teleop-camera-${id}`}
              >
                {t(`teleopScreen.cameras.${id}`)}
              </Button>
            );
          })}
        </Group>
      </div>
      <NativeSelect
        size="xs"
        label={t('teleopScreen.videoSetting')}
        value={status?.video ?? ''}
        disabled={!ready}
        data-testid="teleop-video-setting"
        onChange={(e) => {
          const mode = videoModeSchema.safeParse(e.currentTarget.value);
          if (mode.success) session.sendCommand({ type: 'video', mode: mode.data });
        }}
        data={[
          ...(status ? [] : [{ value: '', label: '—' }]),
          ...VIDEO_MODES.map((m) => ({ value: m, label: t(`teleopScreen.videoModes.${m}`) })),
        ]}
      />
      {status?.camera === 'thermal' && (
        <NativeSelect
          size="xs"
          label={t('teleopScreen.colorMap')}
          value={status.thermalColorMap}
          disabled={!ready}
          data-testid="teleop-color-map"
          onChange={(e) => {
            const colorMap = thermalColorMapSchema.safeParse(e.currentTarget.value);
            if (colorMap.success) session.sendCommand({ type: 'thermalColorMap', colorMap: colorMap.data });
          }}
          data={THERMAL_COLOR_MAPS.map((c) => ({ value: c, label: t(`teleopScreen.colorMaps.${c}`) }))}
        />
      )}
    </Stack>
  );
}
