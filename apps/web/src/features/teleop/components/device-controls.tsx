import { ActionIcon, Group, Slider, Stack, Switch, Text } from '@mantine/core';
import type { RobotCapabilities, RobotTeleopInfo } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { useRobotActions } from '../hooks/use-robot-action';
import classes from './teleop.module.css';

/** One press of the gimbal pad turns it by this much. */
export const GIMBAL_STEP_DEG = 5;

interface DeviceControlsProps {
  capabilities: RobotCapabilities;
  info: RobotTeleopInfo;
  actions: ReturnType<typeof useRobotActions>;
  enabled: boolean;
}

/** What the model has of gimbal, periscope, ring light and patrol lamp (hidden otherwise). */
export function DeviceControls({ capabilities, info, actions, enabled }: DeviceControlsProps) {
  const { t } = useTranslation();
  const { periscope } = capabilities;
  // The slider follows the robot, except while the operator drags it.
  const [dragging, setDragging] = useState<number | null>(null);
  const height = dragging ?? info.periscopeHeight ?? periscope?.min ?? 0;
  const jog = (pan: number, tilt: number) => void actions.run({ type: 'gimbalJog', pan, tilt });

  if (!capabilities.gimbal && !periscope && !capabilities.ringLight && !capabilities.patrolLamp) return null;
  return (
    <Stack gap="md">
      {capabilities.gimbal && (
        <div>
          <Text size="xs" fw={600} c="dimmed" mb={4}>
            {t('teleopScreen.devices.gimbal')}
          </Text>
          <Group gap="md" align="center" wrap="nowrap">
            <div className={classes.gimbal} data-testid="teleop-gimbal">
              <span />
              <ActionIcon
                variant="default"
                size="lg"
                disabled={!enabled}
                aria-label={t('teleopScreen.devices.up')}
                onClick={() => jog(0, GIMBAL_STEP_DEG)}
              >
                ▲
              </ActionIcon>
              <span />
              <ActionIcon
                variant="default"
                size="lg"
                disabled={!enabled}
                aria-label={t('teleopScreen.devices.left')}
                onClick={() => jog(GIMBAL_STEP_DEG, 0)}
              >
                ◀
              </ActionIcon>
              <span />
              <ActionIcon
                variant="default"
                size="lg"
                disabled={!enabled}
                aria-label={t('teleopScreen.devices.right')}
                onClick={() => jog(-GIMBAL_STEP_DEG, 0)}
              >
                ▶
              </ActionIcon>
              <span />
              <ActionIcon
                variant="default"
                size="lg"
                disabled={!enabled}
                aria-label={t('teleopScreen.devices.down')}
                onClick={() => jog(0, -GIMBAL_STEP_DEG)}
              >
                ▼
              </ActionIcon>
              <span />
            </div>
            {info.gimbal && (
              <Text size="xs" c="dimmed">
                {t('teleopScreen.devices.gimbalValue', {
                  pan: Math.round(info.gimbal.pan),
                  tilt: Math.round(info.gimbal.tilt),
                })}
              </Text>
            )}
          </Group>
        </div>
      )}
      {periscope && (
        <div>
          <Group justify="space-between">
            <Text size="xs" fw={600} c="dimmed" id="teleop-periscope-label">
              {t('teleopScreen.devices.periscope')}
            </Text>
            <Text size="xs">{t('teleopScreen.devices.periscopeValue', { m: height.toFixed(2) })}</Text>
          </Group>
          <Slider
            min={periscope.min}
            max={periscope.max}
            step={0.01}
            value={height}
            disabled={!enabled}
            label={(v) => t('teleopScreen.devices.periscopeValue', { m: v.toFixed(2) })}
            onChange={setDragging}
            onChangeEnd={(v) => {
              setDragging(null);
              void actions.run({ type: 'setPeriscopeHeight', height: v });
            }}
            thumbProps={{ 'aria-labelledby': 'teleop-periscope-label' }}
            data-testid="teleop-periscope"
          />
        </div>
      )}
      {(capabilities.ringLight || capabilities.patrolLamp) && (
        <Group gap="lg">
          {capabilities.ringLight && (
            <Switch
              label={t('teleopScreen.devices.ringLight')}
              checked={info.ringLight ?? false}
              disabled={!enabled || actions.pending === 'setRingLight'}
              onChange={(e) => void actions.run({ type: 'setRingLight', on: e.currentTarget.checked })}
              data-testid="teleop-ring-light"
            />
          )}
          {capabilities.patrolLamp && (
            <Switch
              label={t('teleopScreen.devices.patrolLamp')}
              checked={info.patrolLamp ?? false}
              disabled={!enabled || actions.pending === 'setPatrolLamp'}
              onChange={(e) => void actions.run({ type: 'setPatrolLamp', on: e.currentTarget.checked })}
              data-testid="teleop-patrol-lamp"
            />
          )}
        </Group>
      )}
    </Stack>
  );
}
