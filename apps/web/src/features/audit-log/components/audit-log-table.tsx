import { Button, Code, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { Pager } from '@/components/pager';
import { QueryError } from '@/components/query-error';
import { useAuditLabel } from '@/lib/audit-labels';
import { useFormat } from '@/lib/format';
import { toSearchParams } from '@/lib/list-params';
import { useAuditLogs } from '../api/get-audit-logs';
import { useOperatorOptions } from '../api/get-operator-options';
import { AUDIT_LOG_PER_PAGE, auditLogQuery, parseAuditLogParams, type AuditLogParams } from '../list-params';

/** The target types the server writes, offered as a filter. */
const TARGET_TYPES = [
  'organization',
  'notif-target',
  'operator',
  'building',
  'floor',
  'robot-group',
  'flow-group',
  'speech-text',
  'session',
  'email',
  'login-id',
  'term-document',
] as const;

/** The administrator's audit log: filters and paging live in the URL. */
export function AuditLogTable() {
  const { t } = useTranslation();
  const format = useFormat();
  const [search, setSearch] = useSearchParams();
  const params = parseAuditLogParams(search);
  const [targetId, setTargetId] = useState(params.targetId);
  const logs = useAuditLogs(params, format.lang);
  const operators = useOperatorOptions();

  const go = (next: AuditLogParams) => setSearch(toSearchParams(auditLogQuery(next)));
  const set = (patch: Partial<AuditLogParams>) => go({ ...params, ...patch, page: 1 });
  const auditLabel = useAuditLabel();
  const operatorData = [
    { value: '', label: t('people.audit.allOperators') },
    ...(operators.data ?? []).map((o) => ({
      value: String(o.id),
      label: t('people.op.fullName', { lastName: o.lastName, firstName: o.firstName }),
    })),
  ];
  if (params.operator !== null && !operatorData.some((o) => o.value === String(params.operator)))
    operatorData.push({ value: String(params.operator), label: `#${params.operator}` });
  const filtered = params.operator !== null || params.targetType || params.targetId || params.from || params.to;

  return (
    <Stack>
      <Title order={1} size="h2">
        {t('people.audit.title')}
      </Title>
      <Group align="flex-end" wrap="wrap" role="group" aria-label={t('people.audit.filters')}>
        <NativeSelect
          label={t('people.audit.operator')}
          value={params.operator === null ? '' : String(params.operator)}
          onChange={(e) => set({ operator: e.currentTarget.value === '' ? null : Number(e.currentTarget.value) })}
          data={operatorData}
          data-testid="audit-operator"
          w={220}
        />
        <NativeSelect
          label={t('people.audit.targetType')}
          value={params.targetType}
          onChange={(e) => set({ targetType: e.currentTarget.value })}
          data={[
            { value: '', label: t('people.audit.allTargetTypes') },
            ...TARGET_TYPES.map((v) => ({ value: v, label: auditLabel('targetTypes', v) })),
          ]}
          data-testid="audit-target-type"
        />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            set({ targetId: targetId.trim() });
          }}
        >
          <Group align="flex-end" gap="xs">
            <TextInput
              label={t('people.audit.targetId')}
              value={targetId}
              onChange={(e) => setTargetId(e.currentTarget.value)}
              onBlur={() => targetId.trim() !== params.targetId && set({ targetId: targetId.trim() })}
              data-testid="audit-target-id"
              w={120}
            />
          </Group>
        </form>
        <TextInput
          type="date"
          label={t('people.audit.from')}
          value={params.from}
          max={params.to || undefined}
          onChange={(e) => set({ from: e.currentTarget.value })}
          data-testid="audit-from"
        />
        <TextInput
          type="date"
          label={t('people.audit.to')}
          value={params.to}
          min={params.from || undefined}
          onChange={(e) => set({ to: e.currentTarget.value })}
          data-testid="audit-to"
        />
        {filtered && (
          <Button
            variant="subtle"
            onClick={() => {
              setTargetId('');
              go({ page: 1, operator: null, targetType: '', targetId: '', from: '', to: '' });
            }}
          >
            {t('people.clear')}
          </Button>
        )}
      </Group>
      {logs.isPending ? (
        <PageLoader />
      ) : logs.isError ? (
        <QueryError error={logs.error} onRetry={() => void logs.refetch()} />
      ) : logs.data.items.length === 0 ? (
        <Text c="dimmed" data-testid="audit-empty">
          {t('common.empty')}
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" aria-live="polite">
            {t('people.total', { count: logs.data.total })}
          </Text>
          <Table.ScrollContainer minWidth={860}>
            <Table striped withTableBorder verticalSpacing="xs" data-testid="audit-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('people.audit.at')}</Table.Th>
                  <Table.Th>{t('people.audit.operator')}</Table.Th>
                  <Table.Th>{t('people.audit.action')}</Table.Th>
                  <Table.Th>{t('people.audit.target')}</Table.Th>
                  <Table.Th>{t('people.audit.ip')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {logs.data.items.map((e) => (
                  <Table.Tr key={e.id}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{format.dateTime(e.at)}</Table.Td>
                    <Table.Td>
                      {e.operatorName ?? (e.operatorId === null ? t('people.audit.system') : `#${e.operatorId}`)}
                    </Table.Td>
                    <Table.Td>
                      {auditLabel('actions', e.action)}
                      {auditLabel('actions', e.action) !== e.action && (
                        <Code fz="xs" ml={6}>
                          {e.action}
                        </Code>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {auditLabel('targetTypes', e.targetType)}
                      {e.targetId !== null && ` #${e.targetId}`}
                    </Table.Td>
                    <Table.Td>{e.ip ?? ''}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pager
            page={params.page}
            total={logs.data.total}
            perPage={AUDIT_LOG_PER_PAGE}
            onChange={(page) => go({ ...params, page })}
          />
        </>
      )}
    </Stack>
  );
}
