import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRealtimeStatus } from '@/lib/realtime';

/** Shown while a live screen is open and its WebSocket is not (yet, or no longer) connected. */
export function RealtimeIndicator() {
  const { t } = useTranslation();
  const state = useRealtimeStatus();
  if (state === null || state === 'open') return null;
  return (
    <Badge
      color={state === 'connecting' ? 'yellow' : 'red'}
      variant="light"
      role="status"
      data-testid="realtime-indicator"
      data-state={state}
      style={{ textTransform: 'none' }}
    >
      {t(state === 'connecting' ? 'realtime.connecting' : 'realtime.closed')}
    </Badge>
  );
}
