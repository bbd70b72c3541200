import { Alert, Anchor, Button, NativeSelect, Paper, Stack, Title } from '@mantine/core';
import { isDataAdmin, type WorkPlan, type WorkPlanTemplate } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { positiveInt } from '@/lib/list-params';
import { showNotification } from '@/lib/notify';
import { useSession } from '@/lib/session';
import { allowLeave } from '@/lib/use-leave-guard';
import {
  useDeleteWorkPlan,
  useDeleteWorkPlanTemplate,
  useWorkPlan,
  useWorkPlanTemplate,
  useWorkPlanTemplates,
} from '../api';
import { useLocalizedDefinition, useTemplateWords } from '../words';
import { TemplateForm } from './template-form';
import { WorkPlanForm } from './work-plan-form';

/** Organization and system administrators manage work plans (the server checks it too). */
export const useCanManage = () => {
  const session = useSession();
  return session !== null && isDataAdmin(session.type);
};

function BackLink({ templates }: { templates?: boolean }) {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={paths.workplan.settings.getHref(templates ? { tab: 'templates' } : {})} size="sm">
      ← {t('workPlans.back')}
    </Anchor>
  );
}

function ReadOnlyNotice() {
  const { t } = useTranslation();
  return (
    <Alert color="gray" data-testid="wp-read-only">
      {t('workPlans.readOnly')}
    </Alert>
  );
}

/** /workplan/create: from a template (`?template=ID`, or chosen here) or from scratch; `?building=` preselects. */
export function WorkPlanCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const [search] = useSearchParams();
  const canManage = useCanManage();
  const templates = useWorkPlanTemplates();
  const words = useTemplateWords();
  const localized = useLocalizedDefinition();
  const wanted = positiveInt(search.get('template'));
  if (templates.isPending) return <PageLoader />;
  const list = (templates.data?.items ?? []) as WorkPlanTemplate[];
  const start = list.find((x) => x.id === wanted);
  const fromTemplate = (tpl: WorkPlanTemplate) => ({
    templateId: tpl.id,
    type: tpl.type === 0 ? (0 as const) : (1 as const),
    icon:
      tpl.builtinKey === 'doorPass'
        ? ('door' as const)
        : tpl.builtinKey === 'meterByHand'
          ? ('meter' as const)
          : ('elevator' as const),
    name: words(tpl).name.slice(0, 64),
    description: words(tpl).description.slice(0, 500),
    definition: localized(tpl),
  });
  return (
    <Stack>
      <BackLink />
      <Title order={1} size="h2">
        {t('workPlans.createTitle')}
      </Title>
      {!canManage && <ReadOnlyNotice />}
      <Paper withBorder p="md">
        <WorkPlanForm
          readOnly={!canManage}
          initial={{
            buildingId: positiveInt(search.get('building')) ?? session?.buildingId ?? undefined,
            ...(start ? fromTemplate(start) : {}),
          }}
          header={(set) => (
            <TemplateChooser
              templates={list}
              initial={start?.id ?? null}
              label={(tpl) => words(tpl).name}
              onChoose={(tpl) =>
                set(tpl ? fromTemplate(tpl) : { templateId: null, definition: { version: 1, steps: [] } })
              }
            />
          )}
          onCreated={(p) => void navigate(paths.workplan.detail.getHref(p.id), { replace: true })}
        />
      </Paper>
    </Stack>
  );
}

function TemplateChooser({
  templates,
  initial,
  label,
  onChoose,
}: {
  templates: WorkPlanTemplate[];
  initial: number | null;
  label: (tpl: WorkPlanTemplate) => string;
  onChoose: (tpl: WorkPlanTemplate | null) => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState(initial === null ? '' : String(initial));
  return (
    <NativeSelect
      label={t('workPlans.form.template')}
      value={value}
      onChange={(e) => {
        const v = e.currentTarget.value;
        setValue(v);
        onChoose(templates.find((x) => String(x.id) === v) ?? null);
        if (v !== '') showNotification({ color: 'blue', message: t('workPlans.form.templateApplied') });
      }}
      data={[
        { value: '', label: t('workPlans.form.scratch') },
        ...templates.map((x) => ({ value: String(x.id), label: label(x) })),
      ]}
      data-testid="wp-template-choose"
    />
  );
}

/** /workplan/{id}: edit or delete a work plan (administrators); others see it read-only. */
export function WorkPlanPage({ id }: { id: number }) {
  const plan = useWorkPlan(id);
  if (plan.isPending) return <PageLoader />;
  if (plan.isError) return <QueryError error={plan.error} onRetry={() => void plan.refetch()} />;
  return (
    <Stack>
      <BackLink />
      <Title order={1} size="h2" data-testid="wp-heading" style={{ overflowWrap: 'anywhere' }}>
        {plan.data.name}
      </Title>
      <WorkPlanEdit plan={plan.data} onReload={async () => (await plan.refetch()).data} />
    </Stack>
  );
}

function WorkPlanEdit({ plan, onReload }: { plan: WorkPlan; onReload: () => Promise<WorkPlan | undefined> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteWorkPlan();
  const canManage = useCanManage();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      {!canManage && <ReadOnlyNotice />}
      <Paper withBorder p="md">
        <WorkPlanForm
          plan={plan}
          readOnly={!canManage}
          onReload={onReload}
          startActions={
            <Button color="red" variant="light" onClick={() => setConfirming(true)} data-testid="wp-delete">
              {t('workPlans.form.delete')}
            </Button>
          }
        />
      </Paper>
      <ConfirmDialog
        opened={confirming}
        title={t('workPlans.form.deleteTitle')}
        confirmLabel={t('workPlans.form.delete')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(plan.id, {
            onSettled: () => setConfirming(false),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('workPlans.form.deleted') });
              allowLeave();
              void navigate(paths.workplan.settings.getHref());
            },
          })
        }
      >
        {t('workPlans.form.deleteBody', { name: plan.name })}
      </ConfirmDialog>
    </>
  );
}

/** /workplan/create-template: a new template; `?id=ID` shows (and, when it may be changed, edits) one. */
export function TemplatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const id = positiveInt(search.get('id'));
  const canManage = useCanManage();
  const template = useWorkPlanTemplate(id);
  if (id === null)
    return (
      <Stack>
        <BackLink templates />
        <Title order={1} size="h2">
          {t('workPlans.createTemplateTitle')}
        </Title>
        {!canManage && <ReadOnlyNotice />}
        <Paper withBorder p="md">
          <TemplateForm
            readOnly={!canManage}
            onCreated={(tpl) => void navigate(paths.workplan.createTemplate.getHref({ id: tpl.id }), { replace: true })}
          />
        </Paper>
      </Stack>
    );
  if (template.isPending) return <PageLoader />;
  if (template.isError) return <QueryError error={template.error} onRetry={() => void template.refetch()} />;
  return (
    <TemplateEdit
      key={template.data.id}
      template={template.data}
      onReload={async () => (await template.refetch()).data}
    />
  );
}

function TemplateEdit({
  template,
  onReload,
}: {
  template: WorkPlanTemplate;
  onReload: () => Promise<WorkPlanTemplate | undefined>;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const canManage = useCanManage();
  const words = useTemplateWords();
  const localized = useLocalizedDefinition();
  const remove = useDeleteWorkPlanTemplate();
  const [confirming, setConfirming] = useState(false);
  const shipped = template.builtinKey !== null;
  const shared = template.organizationId === null && session?.type !== 9;
  const writable = canManage && !shipped && !shared;
  return (
    <Stack>
      <BackLink templates />
      <Title order={1} size="h2" data-testid="wp-template-heading">
        {t('workPlans.editTemplateTitle')}: {words(template).name}
      </Title>
      {!canManage && <ReadOnlyNotice />}
      {canManage && shipped && (
        <Button
          w="max-content"
          variant="light"
          component={Link}
          to={paths.workplan.create.getHref({ template: template.id })}
          data-testid="wp-template-use"
        >
          {t('workPlans.form.useTemplate')}
        </Button>
      )}
      <Paper withBorder p="md">
        <TemplateForm
          template={shipped ? { ...template, ...words(template), definition: localized(template) } : template}
          readOnly={!writable}
          readOnlyNote={shipped ? t('workPlans.form.shippedReadOnly') : undefined}
          onReload={onReload}
          startActions={
            <Button color="red" variant="light" onClick={() => setConfirming(true)} data-testid="wp-template-delete">
              {t('workPlans.form.delete')}
            </Button>
          }
        />
      </Paper>
      <ConfirmDialog
        opened={confirming}
        title={t('workPlans.form.deleteTemplateTitle')}
        confirmLabel={t('workPlans.form.delete')}
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(template.id, {
            onSettled: () => setConfirming(false),
            onSuccess: () => {
              showNotification({ color: 'green', message: t('workPlans.form.deleted') });
              allowLeave();
              void navigate(paths.workplan.settings.getHref({ tab: 'templates' }));
            },
          })
        }
      >
        {t('workPlans.form.deleteTemplateBody', { name: template.name })}
      </ConfirmDialog>
    </Stack>
  );
}
