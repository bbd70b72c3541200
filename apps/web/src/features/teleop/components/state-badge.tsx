import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { BadgeState } from '../hooks/use-operator';

const colors: Record<BadgeState, string> = {
  connecting: 'yellow',
  running: 'green',
  stopped: 'gray',
  paused: 'orange',
  charging: 'blue',
  offline: 'red',
};

/** The tele-operation state of spec section 4 (`data-state` carries the raw value). */
export function StateBadge({ state, size = 'lg' }: { state: BadgeState; size?: 'md' | 'lg' | 'xl' }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={colors[state]}
      variant="filled"
      size={size}
      role="status"
      aria-label={`${t('teleopScreen.states.label')}: ${t(`teleopScreen.states.${state}`)}`}
      data-testid="teleop-state"
      data-state={state}
      style={{ textTransform: 'none' }}
    >
      {t(`teleopScreen.states.${state}`)}
    </Badge>
  );
}
