import { Badge, Button, Group, Text } from '@mantine/core';
import type { Webhook, WebhookDeliveryResult } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useTestWebhook } from '../api/test-webhook';
import { useWebhookErrorText } from './webhook-words';

const color = { sent: 'green', failed: 'red', skipped: 'gray' } as const;

/** "Send test" with the outcome beside it (and in a toast). */
export function TestWebhookButton({
  webhook,
  size = 'xs',
  inline = true,
}: {
  webhook: Webhook;
  size?: 'xs' | 'sm';
  /** The result beside the button (a page header); otherwise it may wrap under it (a table cell). */
  inline?: boolean;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const deliveryError = useWebhookErrorText();
  const test = useTestWebhook();
  const resultText = (r: WebhookDeliveryResult) =>
    r.status === 'failed'
      ? t('webhooks.testResult.failed', { error: deliveryError(r.error) })
      : t(`webhooks.testResult.${r.status}`);

  return (
    <Group gap="xs" wrap={inline ? 'nowrap' : 'wrap'}>
      <Button
        size={size}
        variant="light"
        loading={test.isPending}
        onClick={() =>
          test.mutate(webhook.id, {
            onSuccess: (r) => showNotification({ color: color[r.status], message: resultText(r) }),
          })
        }
        data-testid={`webhook-test-${webhook.id}`}
      >
        {t('webhooks.test')}
      </Button>
      <span role="status" aria-live="polite">
        {test.data && (
          <Badge color={color[test.data.status]} variant="light" data-testid={`webhook-test-result-${webhook.id}`}>
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
