import { Badge, Text } from '@mantine/core';
import type { Webhook } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useFormat } from '@/lib/format';

const KNOWN_ERRORS = [
  'timeout',
  'network',
  'refused-address',
  'unresolvable',
  'scheme',
  'invalid-url',
  'too-many-redirects',
  'secret-unreadable',
] as const;

/** A delivery error code (`http-500`, `timeout`, ...) in words. */
export function useWebhookErrorText() {
  const { t } = useTranslation();
  return (code: string | null): string => {
    if (code === null) return '';
    const http = /^http-(\d{3})$/.exec(code);
    if (http) return t('webhooks.errors.http', { status: http[1] });
    const known = KNOWN_ERRORS.find((k) => k === code);
    return known ? t(`webhooks.errors.${known}`) : t('webhooks.errors.other', { code });
  };
}

const statusColor = { 0: 'gray', 1: 'green', 9: 'red' } as const;

/** The status as a badge; an error one says how many deliveries failed in a row. */
export function WebhookStatusBadge({ webhook }: { webhook: Pick<Webhook, 'status' | 'consecutiveFailures'> }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={statusColor[webhook.status]}
      variant={webhook.status === 9 ? 'filled' : 'light'}
      // Never cut short in a narrow table column.
      style={{ minWidth: 'max-content' }}
      data-testid="webhook-status-badge"
    >
      {t(`webhooks.statuses.${webhook.status}`)}
    </Badge>
  );
}

/** The last delivery: the later of the last success and the last failure, with the error's words. */
export function LastDelivery({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation();
  const { dateTime } = useFormat();
  const errorText = useWebhookErrorText();
  const { lastSuccessAt: ok, lastFailureAt: failed } = webhook;
  if (ok === null && failed === null) return <Text size="sm">{t('webhooks.never')}</Text>;
  if (failed !== null && (ok === null || failed > ok)) {
    return (
      <div>
        <Text size="sm" c="red">
          {t('webhooks.lastFailure', { time: dateTime(failed) })}
        </Text>
        <Text size="xs" c="dimmed">
          {errorText(webhook.lastError)}
          {webhook.consecutiveFailures > 1
            ? ` · ${t('webhooks.failures', { count: webhook.consecutiveFailures })}`
            : ''}
        </Text>
      </div>
    );
  }
  return <Text size="sm">{t('webhooks.lastSuccess', { time: dateTime(ok!) })}</Text>;
}
