import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { ipRuleInputSchema, type IpRestriction as IpRestrictionState, type IpRule } from '@portal/contract';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { FormShell, useFormKit } from '@/components/form-page';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useAddIpRule } from '../api/add-ip-rule';
import { useDeleteIpRule } from '../api/delete-ip-rule';
import { useIpRestriction } from '../api/get-ip-restriction';
import { useSetIpRestriction } from '../api/set-ip-restriction';
import { hasCode } from '@/lib/server-errors';
import { ConfirmDialog } from '@/components/confirm-dialog';

type RuleValues = z.input<typeof ipRuleInputSchema>;

function AddRuleForm({ buildingId, suggestion }: { buildingId: number; suggestion: string | null }) {
  const { t } = useTranslation();
  const add = useAddIpRule(buildingId);
  const form = useForm<RuleValues>({
    resolver: zodResolver(ipRuleInputSchema),
    defaultValues: { address: '', description: '' },
  });
  const kit = useFormKit(form, { fields: ['address', 'description'] });
  const submit = form.handleSubmit((v) =>
    add.mutate(
      ipRuleInputSchema.parse(v),
      kit.saved({
        successText: t('buildings.ip.added'),
        onSuccess: () => form.reset({ address: '', description: '' }),
      }),
    ),
  );
  return (
    <FormShell
      kit={kit}
      onSubmit={submit}
      mutation={add}
      label={t('buildings.ip.add')}
      submitLabel={t('buildings.ip.add')}
      submitTestId="ip-add"
      inline
      maw="none"
      actions={
        suggestion && (
          <Button
            variant="light"
            onClick={() => form.setValue('address', suggestion, { shouldValidate: true, shouldDirty: true })}
          >
            {t('buildings.ip.addMine')}
          </Button>
        )
      }
    >
      <TextInput
        label={t('buildings.ip.address')}
        description={t('buildings.ip.addressHint')}
        required
        error={kit.err('address')}
        {...form.register('address')}
        data-testid="ip-address"
        style={{ minWidth: 240 }}
      />
      <TextInput
        label={t('buildings.ip.description')}
        description=" "
        error={kit.err('description')}
        {...form.register('description')}
        style={{ flex: 1, minWidth: 200 }}
      />
    </FormShell>
  );
}

/** The warning when the caller's own address is not allowed by the list. */
function ownAddressWarning(state: IpRestrictionState, exempt: boolean, t: TFunction): string | null {
  if (state.clientIpAllowed || state.rules.length === 0) return null;
  if (exempt) return t('buildings.ip.adminExempt', { ip: state.clientIp });
  return state.enabled
    ? t('buildings.ip.lockedOut', { ip: state.clientIp })
    : t('buildings.ip.lockoutWarning', { ip: state.clientIp });
}

interface IpRestrictionProps {
  buildingId: number;
  canManage: boolean;
  /** System administrators are exempt from the allow-list (the server lets them in). */
  exempt: boolean;
}

/** Security settings: the allow-list and its switch, refusing an empty list and warning before a lock-out. */
export function IpRestriction({ buildingId, canManage, exempt }: IpRestrictionProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const state = useIpRestriction(buildingId);
  const setEnabled = useSetIpRestriction(buildingId);
  const removeRule = useDeleteIpRule(buildingId);
  const [refusedEmpty, setRefusedEmpty] = useState(false);
  const [confirmEnable, setConfirmEnable] = useState(false);
  const [deleting, setDeleting] = useState<IpRule | null>(null);

  if (state.isPending) return <PageLoader />;
  if (state.isError) return <QueryError error={state.error} onRetry={() => void state.refetch()} />;
  const s = state.data;
  const warning = ownAddressWarning(s, exempt, t);
  const emptyRefused = refusedEmpty && s.rules.length === 0;
  const serverEmpty = hasCode(setEnabled.error, 'IP_LIST_EMPTY');

  const toggle = (on: boolean) => {
    setEnabled.reset();
    if (!on) return setEnabled.mutate(false);
    if (s.rules.length === 0) return setRefusedEmpty(true);
    if (!s.clientIpAllowed) return setConfirmEnable(true);
    setEnabled.mutate(true);
  };

  return (
    <Stack>
      <Title order={2} size="h3">
        {t('buildings.ip.title')}
      </Title>
      <Paper withBorder p="md">
        <Stack gap="xs">
          <Switch
            checked={s.enabled}
            onChange={(e) => toggle(e.currentTarget.checked)}
            disabled={!canManage || setEnabled.isPending}
            label={t('buildings.ip.switch')}
            description={t('buildings.ip.switchHint')}
            size="md"
            data-testid="ip-switch"
          />
          <Text size="sm" aria-live="polite">
            {s.enabled ? t('buildings.ip.enabled') : t('buildings.ip.disabled')}
          </Text>
          <Group gap="xs">
            <Text size="sm">{t('buildings.ip.yourAddress', { ip: s.clientIp })}</Text>
            {s.rules.length > 0 && (
              <Badge color={s.clientIpAllowed ? 'green' : 'red'} variant="light">
                {s.clientIpAllowed ? t('buildings.ip.onList') : t('buildings.ip.notOnList')}
              </Badge>
            )}
          </Group>
        </Stack>
      </Paper>
      {(emptyRefused || serverEmpty) && (
        <Alert color="orange" role="alert" data-testid="ip-empty-refused">
          {t('buildings.ip.emptyRefused')}
        </Alert>
      )}
      {setEnabled.isError && !serverEmpty && (
        <Alert color="red" role="alert">
          {errorText(setEnabled.error)}
        </Alert>
      )}
      {warning && (
        <Alert
          color={exempt ? 'yellow' : 'red'}
          variant={s.enabled && !exempt ? 'filled' : 'light'}
          role="alert"
          data-testid="ip-lockout-warning"
        >
          {warning}
        </Alert>
      )}
      <Title order={3} size="h4">
        {t('buildings.ip.rules')}
      </Title>
      {removeRule.isError && (
        <Alert color="red" role="alert">
          {errorText(removeRule.error)}
        </Alert>
      )}
      {s.rules.length === 0 ? (
        <Text c="dimmed">{t('buildings.ip.empty')}</Text>
      ) : (
        <Table withTableBorder verticalSpacing="xs" data-testid="ip-rules">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('buildings.ip.address')}</Table.Th>
              <Table.Th>{t('buildings.ip.description')}</Table.Th>
              {canManage && <Table.Th w={60} />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {s.rules.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td ff="monospace">{r.address}</Table.Td>
                <Table.Td>{r.description}</Table.Td>
                {canManage && (
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('buildings.ip.deleteLabel', { address: r.address })}
                      onClick={() => setDeleting(r)}
                    >
                      ✕
                    </ActionIcon>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canManage && (
        <Paper withBorder p="sm">
          <AddRuleForm buildingId={buildingId} suggestion={s.clientIpAllowed ? null : s.clientIp} />
        </Paper>
      )}
      <ConfirmDialog
        opened={confirmEnable}
        title={t('buildings.ip.confirmTitle')}
        confirmLabel={t('buildings.ip.confirmEnable')}
        loading={setEnabled.isPending}
        onClose={() => setConfirmEnable(false)}
        onConfirm={() => setEnabled.mutate(true, { onSettled: () => setConfirmEnable(false) })}
      >
        <Alert color={exempt ? 'yellow' : 'red'} data-testid="ip-confirm-warning">
          {exempt
            ? t('buildings.ip.adminExempt', { ip: s.clientIp })
            : t('buildings.ip.lockoutWarning', { ip: s.clientIp })}
        </Alert>
      </ConfirmDialog>
      <ConfirmDialog
        opened={deleting !== null}
        title={t('buildings.ip.deleteTitle')}
        confirmLabel={t('buildingCommon.delete')}
        loading={removeRule.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          removeRule.mutate(deleting.id, {
            onSettled: () => setDeleting(null),
            onSuccess: () => showNotification({ color: 'green', message: t('buildings.ip.deleted') }),
          })
        }
      >
        {t('buildings.ip.deleteBody', { address: deleting?.address ?? '' })}
      </ConfirmDialog>
    </Stack>
  );
}
