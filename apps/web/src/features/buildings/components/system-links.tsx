import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { buildingLinksBodySchema, type BuildingLinks } from '@portal/contract';
import { useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { FormShell, LockedFields, useFormKit } from '@/components/form-page';
import { useLinks } from '../api/get-links';
import { useUpdateLinks, type LinksBody } from '../api/update-links';

type Values = z.input<typeof buildingLinksBodySchema>;
const secrets = ['hakaruAiPassword', 'lilzToken', 'kanriroidToken'] as const;
type Secret = (typeof secrets)[number];
/** The request's fields, and which stored secrets are to be cleared (the clear buttons). */
type FormValues = Values & { clear: Record<Secret, boolean> };
const FIELDS = ['tSpiderUrl', 'hakaruAiLoginId', ...secrets] as const;
/** The request's schema checks the form's values (it leaves `clear` out). */
const resolver = zodResolver(buildingLinksBodySchema) as unknown as Resolver<FormValues>;

const valuesOf = (links: BuildingLinks): FormValues => ({
  tSpiderUrl: links.tSpiderUrl,
  hakaruAiLoginId: links.hakaruAiLoginId,
  hakaruAiPassword: '',
  lilzToken: '',
  kanriroidToken: '',
  clear: { hakaruAiPassword: false, lilzToken: false, kanriroidToken: false },
});

interface LinksFormProps {
  buildingId: number;
  links: BuildingLinks;
  canManage: boolean;
  onReload: () => Promise<BuildingLinks | undefined>;
}

function LinksForm({ buildingId, links, canManage, onReload }: LinksFormProps) {
  const { t } = useTranslation();
  const update = useUpdateLinks(buildingId);
  const form = useForm<FormValues>({ resolver, defaultValues: valuesOf(links) });
  const kit = useFormKit(form, { fields: FIELDS, record: links, reload: onReload, toValues: valuesOf });
  const { err, base } = kit;
  const clearing = useWatch({ control: form.control, name: 'clear' });

  const submit = form.handleSubmit((v) => {
    const body: LinksBody = { tSpiderUrl: v.tSpiderUrl, hakaruAiLoginId: v.hakaruAiLoginId ?? '' };
    // Write-only secrets: empty means "keep", the clear button sends ''.
    const clear = form.getValues('clear');
    for (const s of secrets) {
      if (clear[s]) body[s] = '';
      else if (v[s]) body[s] = v[s];
    }
    update.mutate(body, kit.saved());
  });

  const secretField = (name: Secret, label: string) => {
    const stored = (base ?? links)[name];
    return (
      <Stack gap={4}>
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <PasswordInput
            label={label}
            description={stored ? t('buildings.links.stored', { masked: stored }) : t('buildings.links.notSet')}
            placeholder={stored ? t('buildings.links.unchanged') : t('buildings.links.notSet')}
            autoComplete="new-password"
            disabled={clearing[name]}
            error={err(name)}
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
                form.setValue(`clear.${name}`, !clearing[name], { shouldDirty: true });
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
    <FormShell
      kit={kit}
      onSubmit={submit}
      mutation={update}
      label={t('buildings.links.title')}
      submitTestId="links-save"
      readOnly={!canManage}
      maw="none"
    >
      <LockedFields locked={!canManage}>
        <Stack>
          <TextInput
            label={t('buildings.links.tSpiderUrl')}
            type="url"
            placeholder="https://"
            error={err('tSpiderUrl')}
            {...form.register('tSpiderUrl')}
          />
          <TextInput
            label={t('buildings.links.hakaruAiLoginId')}
            autoComplete="off"
            error={err('hakaruAiLoginId')}
            {...form.register('hakaruAiLoginId')}
          />
          <Text size="sm" c="dimmed">
            {t('buildings.links.secretHint')}
          </Text>
          {secretField('hakaruAiPassword', t('buildings.links.hakaruAiPassword'))}
          {secretField('lilzToken', t('buildings.links.lilzToken'))}
          {secretField('kanriroidToken', t('buildings.links.kanriroidToken'))}
        </Stack>
      </LockedFields>
    </FormShell>
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
          buildingId={buildingId}
          links={links.data}
          canManage={canManage}
          onReload={async () => (await links.refetch()).data}
        />
      </Paper>
    </Stack>
  );
}
