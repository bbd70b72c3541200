import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { buildingLinksBodySchema, type BuildingLinks } from '@portal/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { useErrorText, useMessageText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useLinks } from '../api/get-links';
import { useUpdateLinks, type LinksBody } from '../api/update-links';

type Values = z.input<typeof buildingLinksBodySchema>;
const secrets = ['hakaruAiPassword', 'lilzToken', 'kanriroidToken'] as const;
type Secret = (typeof secrets)[number];

function LinksForm({ buildingId, links, canManage }: { buildingId: number; links: BuildingLinks; canManage: boolean }) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const errorText = useErrorText();
  const update = useUpdateLinks(buildingId);
  const [clearing, setClearing] = useState<Record<Secret, boolean>>({
    hakaruAiPassword: false,
    lilzToken: false,
    kanriroidToken: false,
  });
  const form = useForm<Values>({
    resolver: zodResolver(buildingLinksBodySchema),
    defaultValues: {
      tSpiderUrl: links.tSpiderUrl,
      hakaruAiLoginId: links.hakaruAiLoginId,
      hakaruAiPassword: '',
      lilzToken: '',
      kanriroidToken: '',
    },
  });
  const { errors } = form.formState;

  const submit = form.handleSubmit((v) => {
    const body: LinksBody = { tSpiderUrl: v.tSpiderUrl, hakaruAiLoginId: v.hakaruAiLoginId ?? '' };
    // Write-only secrets: empty means "keep", the clear button sends ''.
    for (const s of secrets) {
      if (clearing[s]) body[s] = '';
      else if (v[s]) body[s] = v[s];
    }
    update.mutate(body, {
      onSuccess: (saved) => {
        setClearing({ hakaruAiPassword: false, lilzToken: false, kanriroidToken: false });
        form.reset({
          tSpiderUrl: saved.tSpiderUrl,
          hakaruAiLoginId: saved.hakaruAiLoginId,
          hakaruAiPassword: '',
          lilzToken: '',
          kanriroidToken: '',
        });
        showNotification({ color: 'green', message: t('common.saved') });
      },
    });
  });

  const secretField = (name: Secret, label: string) => {
    const stored = links[name];
    return (
      <Stack gap={4}>
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <PasswordInput
            label={label}
            description={stored ? t('buildings.links.stored', { masked: stored }) : t('buildings.links.notSet')}
            placeholder={stored ? t('buildings.links.unchanged') : t('buildings.links.notSet')}
            autoComplete="new-password"
            disabled={clearing[name] || !canManage}
            error={messageText(errors[name]?.message)}
            style={{ flex: 1 }}
            {...form.register(name)}
            data-testid={`link-${name}`}
          />
          {canManage && stored && (
            <Button
              variant={clearing[name] ? 'filled' : 'light'}
              color="red"
              aria-pressed={clearing[name]}
              aria-label={
                clearing[name] ? t('buildings.links.undoClear') : t('buildings.links.clearLabel', { field: label })
              }
              onClick={() => {
                form.setValue(name, '');
                setClearing((c) => ({ ...c, [name]: !c[name] }));
              }}
              data-testid={`clear-${name}`}
            >
              {clearing[name] ? t('buildings.links.undoClear') : t('buildings.links.clear')}
            </Button>
          )}
        </Group>
        {clearing[name] && (
          <Text size="xs" c="red">
            {t('buildings.links.willClear')}
          </Text>
        )}
      </Stack>
    );
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} aria-label={t('buildings.links.title')}>
      <Stack>
        {update.isError && (
          <Alert color="red" role="alert">
            {errorText(update.error)}
          </Alert>
        )}
        <TextInput
          label={t('buildings.links.tSpiderUrl')}
          type="url"
          readOnly={!canManage}
          placeholder="https://"
          error={messageText(errors.tSpiderUrl?.message)}
          {...form.register('tSpiderUrl')}
        />
        <TextInput
          label={t('buildings.links.hakaruAiLoginId')}
          readOnly={!canManage}
          autoComplete="off"
          error={messageText(errors.hakaruAiLoginId?.message)}
          {...form.register('hakaruAiLoginId')}
        />
        <Text size="sm" c="dimmed">
          {t('buildings.links.secretHint')}
        </Text>
        {secretField('hakaruAiPassword', t('buildings.links.hakaruAiPassword'))}
        {secretField('lilzToken', t('buildings.links.lilzToken'))}
        {secretField('kanriroidToken', t('buildings.links.kanriroidToken'))}
        {canManage && (
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending} data-testid="links-save">
              {t('common.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** System links: T-Spider URL, hakaru.ai login, LiLz and Kanriroid tokens (secrets write-only). */
export function SystemLinks({ buildingId, canManage }: { buildingId: number; canManage: boolean }) {
  const { t } = useTranslation();
  const links = useLinks(buildingId);
  if (links.isPending) return <PageLoader />;
  if (links.isError) return <QueryError error={links.error} onRetry={() => void links.refetch()} />;
  return (
    <Stack>
      <Title order={2} size="h3">
        {t('buildings.links.title')}
      </Title>
      <Paper withBorder p="md">
        <LinksForm
          key={links.data.updatedAt ?? 'new'}
          buildingId={buildingId}
          links={links.data}
          canManage={canManage}
        />
      </Paper>
    </Stack>
  );
}
