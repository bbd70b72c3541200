import { Alert, Anchor, Badge, Button, Group, NativeSelect, Stack, Tabs, Text } from '@mantine/core';
import { WORK_PLAN_TYPES, type WorkPlan, type WorkPlanTemplate } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BuildingFilter } from '@/components/building-filter';
import { ListSearch, ListTable, type Column } from '@/components/list-page';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useListParams } from '@/lib/list-params';
import { useWorkPlans, useWorkPlanTemplates } from '../api';
import { WORK_PLANS_PER_PAGE, workPlanListSchema } from '../list-params';
import { useTemplateWords } from '../words';
import { useCanManage } from './work-plan-pages';

/**
 * /workplan/settings: the work plans in scope (search, building, status and type filters) and, on
 * the second tab, the templates (shipped, shared and the organization's); the state is the URL.
 * Non-administrators read, and are told who registers, updates and deletes work plans.
 */
export function WorkPlanSettings() {
  const { t } = useTranslation();
  const format = useFormat();
  const { params, setParams } = useListParams(workPlanListSchema);
  const canManage = useCanManage();
  const list = useWorkPlans(params);
  const templates = useWorkPlanTemplates();
  const words = useTemplateWords();

  const columns: Column<WorkPlan>[] = [
    {
      id: 'name',
      header: t('workPlans.columns.name'),
      meta: { rowHeader: true },
      cell: ({ row: { original: p } }) => (
        <Anchor component={Link} to={paths.workplan.detail.getHref(p.id)} data-testid={`wp-link-${p.id}`}>
          {p.name}
        </Anchor>
      ),
    },
    {
      id: 'type',
      header: t('workPlans.columns.type'),
      cell: ({ row }) => t(`workPlans.types.${row.original.type === 0 ? '0' : '1'}`),
    },
    { id: 'building', header: t('workPlans.columns.building'), cell: ({ row }) => row.original.buildingName },
    { id: 'floor', header: t('workPlans.columns.floor'), cell: ({ row }) => row.original.floorName },
    { id: 'steps', header: t('workPlans.columns.steps'), cell: ({ row }) => row.original.definition.steps.length },
    {
      id: 'status',
      header: t('workPlans.columns.status'),
      cell: ({ row }) => (
        <Badge color={row.original.status === 1 ? 'green' : 'gray'} variant="light" miw="max-content">
          {t(`workPlans.statuses.${row.original.status === 1 ? '1' : '0'}`)}
        </Badge>
      ),
    },
    {
      id: 'updatedAt',
      header: t('workPlans.columns.updatedAt'),
      cell: ({ row }) => format.dateTime(row.original.updatedAt),
    },
  ];

  const templateColumns: Column<WorkPlanTemplate>[] = [
    {
      id: 'name',
      header: t('workPlans.columns.name'),
      meta: { rowHeader: true },
      cell: ({ row: { original: tpl } }) => (
        <Anchor
          component={Link}
          to={paths.workplan.createTemplate.getHref({ id: tpl.id })}
          data-testid={`wp-template-link-${tpl.id}`}
        >
          {words(tpl).name}
        </Anchor>
      ),
    },
    {
      id: 'description',
      header: t('workPlans.columns.description'),
      cell: ({ row }) => words(row.original).description,
    },
    {
      id: 'type',
      header: t('workPlans.columns.type'),
      cell: ({ row }) => t(`workPlans.types.${row.original.type === 0 ? '0' : '1'}`),
    },
    { id: 'steps', header: t('workPlans.columns.steps'), cell: ({ row }) => row.original.definition.steps.length },
    {
      id: 'owner',
      header: t('workPlans.columns.owner'),
      cell: ({ row: { original: tpl } }) =>
        t(
          tpl.builtinKey
            ? 'workPlans.owner.shipped'
            : tpl.organizationId === null
              ? 'workPlans.owner.shared'
              : 'workPlans.owner.organization',
        ),
    },
    {
      id: 'use',
      header: '',
      cell: ({ row: { original: tpl } }) =>
        canManage ? (
          <Button
            component={Link}
            to={paths.workplan.create.getHref({ template: tpl.id })}
            size="compact-sm"
            variant="light"
            data-testid={`wp-template-use-${tpl.id}`}
          >
            {t('workPlans.form.useTemplate')}
          </Button>
        ) : null,
    },
  ];

  const filtered = params.q !== '' || params.building !== null || params.status !== null || params.type !== null;

  return (
    <Stack>
      <PageHeader
        title={t('workPlans.title')}
        create={
          canManage
            ? params.tab === 'templates'
              ? {
                  to: paths.workplan.createTemplate.getHref(),
                  label: t('workPlans.createTemplate'),
                  testId: 'wp-template-create',
                }
              : { to: paths.workplan.create.getHref(), label: t('workPlans.create'), testId: 'wp-create' }
            : undefined
        }
      />
      {!canManage && (
        <Alert color="gray" data-testid="wp-read-only">
          {t('workPlans.readOnly')}
        </Alert>
      )}
      <Tabs value={params.tab} onChange={(v) => setParams({ tab: v === 'templates' ? 'templates' : 'plans', page: 1 })}>
        <Tabs.List>
          <Tabs.Tab value="plans" data-testid="wp-tab-plans">
            {t('workPlans.tabs.plans')}
          </Tabs.Tab>
          <Tabs.Tab value="templates" data-testid="wp-tab-templates">
            {t('workPlans.tabs.templates')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="plans" pt="md">
          <Stack>
            <Group align="flex-end" wrap="wrap">
              <ListSearch
                value={params.q}
                onSearch={(q) => setParams({ q })}
                label={t('workPlans.search')}
                placeholder={t('workPlans.searchHint')}
                testId="wp-search"
                width={220}
              />
              <BuildingFilter allowAll />
              <NativeSelect
                label={t('workPlans.filters.status')}
                value={params.status === null ? '' : String(params.status)}
                onChange={(e) => {
                  const v = e.currentTarget.value;
                  setParams({ status: v === '' ? null : v === '1' ? 1 : 0 });
                }}
                data={[
                  { value: '', label: t('workPlans.all') },
                  { value: '1', label: t('workPlans.statuses.1') },
                  { value: '0', label: t('workPlans.statuses.0') },
                ]}
                data-testid="wp-status-filter"
              />
              <NativeSelect
                label={t('workPlans.filters.type')}
                value={params.type === null ? '' : String(params.type)}
                onChange={(e) => {
                  const v = e.currentTarget.value;
                  setParams({ type: WORK_PLAN_TYPES.find((x) => String(x) === v) ?? null });
                }}
                data={[
                  { value: '', label: t('workPlans.all') },
                  ...WORK_PLAN_TYPES.map((x) => ({ value: String(x), label: t(`workPlans.types.${x}`) })),
                ]}
                data-testid="wp-type-filter"
              />
            </Group>
            <ListTable
              query={list}
              empty={filtered ? t('workPlans.noMatch') : t('workPlans.empty')}
              emptyTestId="wp-empty"
              count={(count) => t('workPlans.total', { count })}
              columns={columns}
              rowId={(p) => p.id}
              paging={{ page: params.page, perPage: WORK_PLANS_PER_PAGE, onPage: (page) => setParams({ page }) }}
              minWidth={900}
              highlightOnHover
              data-testid="wp-table"
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="templates" pt="md">
          <Stack>
            <Text size="sm" c="dimmed">
              {t('workPlans.templatesTotal', { count: templates.data?.total ?? 0 })}
            </Text>
            <ListTable
              query={templates}
              empty={t('workPlans.templatesEmpty')}
              emptyTestId="wp-templates-empty"
              columns={templateColumns}
              rowId={(p) => p.id}
              minWidth={900}
              highlightOnHover
              data-testid="wp-template-table"
            />
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
