import { Anchor, Code, Group, Stack, Text, Title } from '@mantine/core';
import type { WebhookWithSecret } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { ConfirmButton } from '@/components/confirm-button';
import { PageHeader } from '@/components/page-header';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useWebhook } from '../api/get-webhook';
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret';
import { SigningSecretAlert } from './signing-secret';
import { TestWebhookButton } from './test-webhook-button';
import { WebhookForm } from './webhook-form';
import { LastDelivery, WebhookStatusBadge } from './webhook-words';

function BackLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={paths.system.webhookList.getHref()} size="sm">
      ← {t('webhooks.back')}
    </Anchor>
  );
}

/** What the create page hands to the edit page it opens: the signing secret, shown there once. */
interface CreatedState {
  signingSecret?: string;
}

export function WebhookCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack>
      <BackLink />
      <Title order={1} size="h2">
        {t('webhooks.createTitle')}
      </Title>
      <WebhookForm
        onCreated={(created: WebhookWithSecret) =>
          void navigate(paths.system.webhookDetail.getHref(created.webhook.id), {
            replace: true,
            state: { signingSecret: created.signingSecret } satisfies CreatedState,
          })
        }
      />
    </Stack>
  );
}

export function WebhookEditPage({ id }: { id: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const location = useLocation();
  const webhook = useWebhook(id);
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const [secret, setSecret] = useState<string | null>(
    () => (location.state as CreatedState | null)?.signingSecret ?? null,
  );
  if (webhook.isPending) return <PageLoader />;
  if (webhook.isError) return <QueryError error={webhook.error} onRetry={() => void webhook.refetch()} />;
  const w = webhook.data;
  return (
    <Stack>
      <BackLink />
      <PageHeader title={`${t('webhooks.editTitle')}: ${w.name}`}>
        <Group>
          <TestWebhookButton webhook={w} size="sm" />
          <ConfirmButton
            label={t('webhooks.delete')}
            message={t('webhooks.deleteConfirm')}
            loading={remove.isPending}
            testId="webhook-delete"
            onConfirm={() =>
              remove.mutate(id, {
                onSuccess: () => {
                  showNotification({ color: 'green', message: t('webhooks.deleted') });
                  void navigate(paths.system.webhookList.getHref());
                },
              })
            }
          />
        </Group>
      </PageHeader>
      {remove.isError && <Text c="red">{errorText(remove.error)}</Text>}
      <Group gap="lg">
        <WebhookStatusBadge webhook={w} />
        <LastDelivery webhook={w} />
      </Group>
      {secret !== null && <SigningSecretAlert secret={secret} />}
      <Group gap="xs">
        <Text size="sm">
          {t('webhooks.fields.signingSecret')}: <Code>{w.signingSecret}</Code>
        </Text>
        <ConfirmButton
          label={t('webhooks.secret.rotate')}
          message={t('webhooks.secret.rotateConfirm')}
          color="orange"
          size="xs"
          loading={rotate.isPending}
          testId="webhook-rotate"
          onConfirm={() => rotate.mutate(id, { onSuccess: (r) => setSecret(r.signingSecret) })}
        />
        {rotate.isError && (
          <Text size="sm" c="red">
            {errorText(rotate.error)}
          </Text>
        )}
      </Group>
      <WebhookForm webhook={w} onReload={async () => (await webhook.refetch()).data} />
    </Stack>
  );
}
