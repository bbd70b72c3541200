import { Button, Group, NativeSelect, Stack, TextInput, Title } from '@mantine/core';
import { AUDIT_TARGET_TYPES } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListTable, type Column } from '@/components/list-page';
import { useAuditLabel, useAuditTarget } from '@/lib/audit-labels';
import { useFormat } from '@/lib/format';
import { useListParams } from '@/lib/list-params';
import { useAuditLogs } from '../api/get-audit-logs';
import { useOperatorOptions } from '../api/get-operator-options';
import { AUDIT_LOG_PER_PAGE, auditLogSchema } from '../list-params';

type AuditRow = NonNullable<ReturnType<typeof useAuditLogs>['data']>['items'][number];

/** The administrator's audit log: filters and paging live in the URL. */
export function AuditLogTable() {
  const { t } = useTranslation();
  const format = useFormat();
  const { params, setParams: set } = useListParams(auditLogSchema);
  const [targetId, setTargetId] = useState(params.targetId);
  const [shownTargetId, setShownTargetId] = useState(params.targetId);
  // The URL changed from elsewhere ("clear", back): the field follows.
  if (shownTargetId !== params.targetId) {
    setShownTargetId(params.targetId);
    setTargetId(params.targetId);
  }
  const logs = useAuditLogs(params, format.lang);
  const operators = useOperatorOptions();

  const auditLabel = useAuditLabel();
  const auditTarget = useAuditTarget();
  const columns: Column<AuditRow>[] = [
    {
      id: 'at',
      header: t('people.audit.at'),
      meta: { cellProps: { style: { whiteSpace: 'nowrap' } } },
      cell: ({ row }) => format.dateTime(row.original.at),
    },
    {
      id: 'operator',
      header: t('people.audit.operator'),
      cell: ({ row: { original: e } }) =>
        e.operatorName ?? (e.operatorId === null ? t('people.audit.system') : `#${e.operatorId}`),
    },
    {
      id: 'action',
      header: t('people.audit.action'),
      cell: ({ row: { original: e } }) => auditLabel('actions', e.action),
    },
    {
      id: 'target',
      header: t('people.audit.target'),
      cell: ({ row: { original: e } }) => auditTarget(e),
    },
    { id: 'ip', header: t('people.audit.ip'), cell: ({ row }) => row.original.ip ?? '' },
  ];
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
            ...AUDIT_TARGET_TYPES.map((v) => ({ value: v, label: auditLabel('targetTypes', v) })),
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
              set({ operator: null, targetType: '', targetId: '', from: '', to: '' });
            }}
          >
            {t('people.clear')}
          </Button>
        )}
      </Group>
      <ListTable
        query={logs}
        empty={t('common.empty')}
        emptyTestId="audit-empty"
        count={(count) => t('people.total', { count })}
        columns={columns}
        rowId={(e) => e.id}
        paging={{ page: params.page, perPage: AUDIT_LOG_PER_PAGE, onPage: (page) => set({ page }) }}
        minWidth={860}
        data-testid="audit-table"
      />
    </Stack>
  );
}
