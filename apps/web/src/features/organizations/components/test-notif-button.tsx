import { Badge, Button, Group, Text } from '@mantine/core';
import { DISABLED_NOTIF_TARGET_TYPES, type NotifTarget } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useTestNotifTarget } from '../api/test-notif-target';

const statusColor = { sent: 'green', stored: 'gray', failed: 'red' } as const;

/** "Send test notification" with the delivery result beside it. */
export function TestNotifButton({ organizationId, target }: { organizationId: number; target: NotifTarget }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const test = useTestNotifTarget();
  const resultText = (r: { status: 'sent' | 'stored' | 'failed'; error: string | null }) =>
    r.status === 'failed'
      ? t('people.notif.testResult.failed', { error: r.error ?? '' })
      : t(`people.notif.testResult.${r.status}`);

  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        variant="light"
        loading={test.isPending}
        disabled={DISABLED_NOTIF_TARGET_TYPES.includes(target.type)}
        onClick={() =>
          test.mutate(
            { organizationId, id: target.id },
            {
              onSuccess: (r) => showNotification({ color: statusColor[r.status], message: resultText(r) }),
            },
          )
        }
        data-testid={`notif-test-${target.id}`}
      >
        {t('people.notif.test')}
      </Button>
      <span role="status" aria-live="polite">
        {test.data && (
          <Badge color={statusColor[test.data.status]} variant="light" title={test.data.error ?? undefined}>
            {resultText(test.data)}
          </Badge>
        )}
        {test.isError && (
          <Text size="xs" c="red">
            {errorText(test.error)}
          </Text>
        )}
      </span>
    </Group>
  );
}
