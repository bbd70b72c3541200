import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Box,
  Button,
  Group,
  List,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Tabs,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { flowInputSchema, REPORT_TYPES, type Flow, type FlowInput } from '@portal/contract';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormShell, LockedFields, useFormKit } from '@/components/form-page';
import { useFlowMessage } from './use-flow-message';
import { isApiError } from '@/lib/api-client';
import { useCreateFlow, useFlowBuildings, useFlowFloors, useUpdateFlow } from '../api';
import { FlowBuilder } from '../builder/flow-builder';
import {
  checkFlowDefinition,
  formatDefinition,
  mainParameter,
  outlineRows,
  type DefinitionProblem,
} from './definition';

export interface FlowFormValues {
  name: string;
  description: string;
  buildingId: number;
  floorId: number;
  flowGroupId: number | null;
  enabled: boolean;
  definition: string;
}

const formSchema = flowInputSchema.omit({ definition: true }).extend({
  definition: z.string().refine((text) => checkFlowDefinition(text).ok, 'flowEditor.json.fix'),
});

const fields = ['name', 'description', 'buildingId', 'floorId', 'flowGroupId', 'enabled', 'definition'] as const;

export const flowFormValues = (f: Flow): FlowFormValues => ({
  name: f.name,
  description: f.description,
  buildingId: f.buildingId,
  floorId: f.floorId,
  flowGroupId: f.flowGroupId,
  enabled: f.enabled,
  definition: formatDefinition(f.definition),
});

interface FlowFormProps {
  flow?: Flow;
  onReload?: () => Promise<Flow | undefined>;
  onCreated?: (flow: Flow) => void;
  readOnly?: boolean;
  extraActions?: ReactNode;
  cancelTo?: string;
  /** Create: the building and floor to start with (the user's location). */
  initialBuildingId?: number | null;
}

/**
 * A flow on the form kit: name, description, building, floor, flow group, enabled and the definition
 * in the visual builder (the default tab, ../builder) or the advanced JSON view (both edit the same
 * JSON text), checked live with the contract's schema and rules (the server's step
 * errors listed the same way), and a read-only outline of the steps beside it.
 */
export function FlowForm({
  flow,
  onReload,
  onCreated,
  readOnly,
  extraActions,
  cancelTo,
  initialBuildingId,
}: FlowFormProps) {
  const { t } = useTranslation();
  const message = useFlowMessage();
  const create = useCreateFlow();
  const update = useUpdateFlow();
  const buildings = useFlowBuildings();
  const form = useForm<FlowFormValues>({
    resolver: zodResolver(formSchema) as unknown as Resolver<FlowFormValues>,
    defaultValues: flow
      ? flowFormValues(flow)
      : {
          name: '',
          description: '',
          buildingId: initialBuildingId ?? 0,
          floorId: 0,
          flowGroupId: null,
          enabled: true,
          definition: formatDefinition({ version: 1, steps: [] }),
        },
  });
  const kit = useFormKit(form, {
    fields,
    record: flow,
    reload: onReload,
    toValues: flowFormValues,
    translate: message,
  });
  const base = kit.base;
  const buildingId = useWatch({ control: form.control, name: 'buildingId' });
  const floors = useFlowFloors(buildingId || 0);
  const building = buildings.data?.find((b) => b.id === buildingId);
  const definitionText = useWatch({ control: form.control, name: 'definition' }) ?? '';
  const check = useMemo(() => checkFlowDefinition(definitionText), [definitionText]);
  const [server, setServer] = useState<{ text: string; problems: DefinitionProblem[] } | null>(null);
  const serverProblems = server && server.text === definitionText ? server.problems : [];
  // The builder's "Check for robot" (kept here so it outlives a switch to the JSON tab).
  const [checkRobotId, setCheckRobotId] = useState<number | null>(null);

  // A create starts on the first floor of the chosen building.
  const floorId = useWatch({ control: form.control, name: 'floorId' });
  const firstFloor = floors.data?.[0]?.id;
  const floorKnown = floors.data?.some((f) => f.id === floorId) ?? false;
  useEffect(() => {
    if (!base && firstFloor !== undefined && !floorKnown) form.setValue('floorId', firstFloor);
  }, [base, firstFloor, floorKnown, form]);

  const submit = form.handleSubmit((values) => {
    const checked = checkFlowDefinition(values.definition);
    if (!checked.ok) return;
    const body: FlowInput = { ...values, definition: checked.definition };
    const options = base
      ? kit.saved<Flow>({ successText: t('flowEditor.saved') })
      : kit.saved<Flow>({ successText: t('flowEditor.created'), onSuccess: onCreated });
    const onError = (e: unknown) => {
      if (isApiError(e) && e.code === 'VALIDATION_FAILED')
        setServer({
          text: values.definition,
          problems: e.details
            .filter((d) => d.path.startsWith('definition.'))
            .map((d) => ({ path: d.path.slice('definition.'.length), message: d.message })),
        });
      options.onError(e);
    };
    if (base) {
      const { enabled: _enabled, ...rest } = body;
      update.mutate({ id: base.id, body: { ...rest, updatedAt: base.updatedAt } }, { ...options, onError } as never);
    } else create.mutate(body, { ...options, onError } as never);
  });

  const format = () => {
    try {
      form.setValue('definition', formatDefinition(JSON.parse(definitionText)), { shouldDirty: true });
    } catch {
      // Not JSON: the problem is shown under the text area.
    }
  };

  return (
    <FormShell
      kit={kit}
      onSubmit={submit}
      mutation={base ? update : create}
      label={t('flowEditor.title')}
      testId="flow-form"
      submitTestId="flow-save"
      createLabel={t('flowEditor.create')}
      createCancelTo={cancelTo}
      cancelTo={readOnly ? cancelTo : undefined}
      readOnly={readOnly}
      startActions={extraActions}
      maw={1200}
    >
      <LockedFields locked={readOnly}>
        <Stack>
          <TextInput
            label={t('flowEditor.fields.name')}
            required
            {...form.register('name')}
            error={kit.err('name')}
            data-testid="flow-name"
          />
          <Textarea
            label={t('flowEditor.fields.description')}
            autosize
            minRows={2}
            {...form.register('description')}
            error={kit.err('description')}
            data-testid="flow-description"
          />
          <SimpleGrid cols={{ base: 1, sm: 4 }}>
            <Controller
              control={form.control}
              name="buildingId"
              render={({ field }) => (
                <NativeSelect
                  label={t('flowEditor.building')}
                  required
                  value={String(field.value || '')}
                  onChange={(e) => {
                    field.onChange(Number(e.currentTarget.value));
                    form.setValue('floorId', 0);
                    form.setValue('flowGroupId', null);
                  }}
                  data={[
                    { value: '', label: '—' },
                    ...(buildings.data ?? []).map((b) => ({ value: String(b.id), label: b.name ?? '' })),
                  ]}
                  error={kit.err('buildingId')}
                  data-testid="flow-form-building"
                />
              )}
            />
            <Controller
              control={form.control}
              name="floorId"
              render={({ field }) => (
                <NativeSelect
                  label={t('flowEditor.floor')}
                  required
                  value={String(field.value || '')}
                  onChange={(e) => field.onChange(Number(e.currentTarget.value))}
                  data={[
                    { value: '', label: '—' },
                    ...(floors.data ?? []).map((f) => ({ value: String(f.id), label: f.name ?? '' })),
                  ]}
                  error={kit.err('floorId')}
                  data-testid="flow-form-floor"
                />
              )}
            />
            <Controller
              control={form.control}
              name="flowGroupId"
              render={({ field }) => (
                <NativeSelect
                  label={t('flowEditor.flowGroup')}
                  value={field.value === null ? '' : String(field.value)}
                  onChange={(e) => field.onChange(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
                  data={[
                    { value: '', label: t('flowEditor.noGroup') },
                    ...(building?.flowGroups ?? []).map((g) => ({ value: String(g.id), label: g.name })),
                  ]}
                  error={kit.err('flowGroupId')}
                  data-testid="flow-form-group"
                />
              )}
            />
            <NativeSelect
              label={t('flowEditor.fields.reportType')}
              description={t('flowEditor.fields.reportTypeHint')}
              value={String(check.ok ? (check.definition.reportType ?? 0) : 0)}
              disabled={!check.ok}
              onChange={(e) => {
                if (!check.ok) return;
                // Patrol is the default: left out of the definition (older flows stay as they were).
                const { reportType: _old, ...rest } = JSON.parse(definitionText) as Record<string, unknown>;
                const reportType = REPORT_TYPES.find((r) => String(r) === e.currentTarget.value) ?? 0;
                const next = reportType === 0 ? rest : { ...rest, reportType };
                form.setValue('definition', formatDefinition(next), { shouldDirty: true });
              }}
              data={REPORT_TYPES.map((r) => ({ value: String(r), label: t(`flowEditor.reportTypes.${r}`) }))}
              data-testid="flow-form-report-type"
            />
          </SimpleGrid>
          <Controller
            control={form.control}
            name="enabled"
            render={({ field }) => (
              <Switch
                label={t('flowEditor.fields.enabled')}
                description={base ? t('flowEditor.fields.enabledHint') : undefined}
                checked={field.value}
                disabled={base !== undefined}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
                data-testid="flow-form-enabled"
              />
            )}
          />
          <Tabs defaultValue="builder" keepMounted={false}>
            <Tabs.List mb="sm">
              <Tabs.Tab value="builder" data-testid="flow-tab-builder">
                {t('flowEditor.builder.tabBuilder')}
              </Tabs.Tab>
              <Tabs.Tab value="json" data-testid="flow-tab-json">
                {t('flowEditor.builder.tabJson')}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="builder">
              <FlowBuilder
                text={definitionText}
                onText={(text) => form.setValue('definition', text, { shouldDirty: true })}
                buildingId={buildingId || 0}
                floorId={floorId || 0}
                serverProblems={serverProblems}
                readOnly={readOnly}
                checkRobotId={checkRobotId}
                onCheckRobotId={setCheckRobotId}
              />
            </Tabs.Panel>
            <Tabs.Panel value="json">
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <Stack gap={4}>
                  <Group justify="space-between" align="flex-end">
                    <Text size="sm" fw={500}>
                      {t('flowEditor.fields.definition')}
                    </Text>
                    {!readOnly && (
                      <Button variant="subtle" size="xs" onClick={format} data-testid="flow-definition-format">
                        {t('flowEditor.json.format')}
                      </Button>
                    )}
                  </Group>
                  <Textarea
                    aria-label={t('flowEditor.fields.definition')}
                    description={t('flowEditor.fields.definitionHint')}
                    autosize
                    minRows={12}
                    maxRows={40}
                    styles={{ input: { fontFamily: 'monospace', fontSize: 13 } }}
                    {...form.register('definition')}
                    data-testid="flow-definition"
                  />
                  <Problems check={check} server={serverProblems} />
                </Stack>
                <Outline check={check} />
              </SimpleGrid>
            </Tabs.Panel>
          </Tabs>
        </Stack>
      </LockedFields>
    </FormShell>
  );
}

function Problems({ check, server }: { check: ReturnType<typeof checkFlowDefinition>; server: DefinitionProblem[] }) {
  const { t } = useTranslation();
  const message = useFlowMessage();
  const item = (p: DefinitionProblem, i: number) => (
    <List.Item key={i}>
      <code>{p.path || t('flowEditor.json.whole')}</code> {message(p.message, p.params)}
    </List.Item>
  );
  return (
    <>
      {check.ok ? (
        <Text c="green" size="sm" data-testid="flow-definition-valid">
          {t('flowEditor.json.valid')}
        </Text>
      ) : (
        <Alert color="red" variant="light" p="xs" data-testid="flow-definition-problems">
          {check.jsonError !== undefined ? (
            <Text size="sm">{t('flowEditor.json.invalid', { reason: check.jsonError })}</Text>
          ) : (
            <List size="sm">{check.problems.map(item)}</List>
          )}
        </Alert>
      )}
      {server.length > 0 && (
        <Alert color="red" variant="light" p="xs" data-testid="flow-definition-server">
          <Text size="sm">{t('flowEditor.json.server')}</Text>
          <List size="sm">{server.map(item)}</List>
        </Alert>
      )}
    </>
  );
}

/** The steps readable without JSON: kind and main parameter, loops' and tasks' steps indented. */
function Outline({ check }: { check: ReturnType<typeof checkFlowDefinition> }) {
  const { t } = useTranslation();
  const rows = check.ok ? outlineRows(check.definition.steps) : [];
  return (
    <Paper withBorder p="sm" data-testid="flow-outline">
      <Title order={3} size="h5" mb="xs">
        {t('flowEditor.outline')}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('flowEditor.outlineEmpty')}
        </Text>
      ) : (
        <Stack gap={2}>
          {rows.map((r) => (
            <Box key={r.path} pl={r.depth * 20} data-testid={`flow-outline-${r.path}`}>
              <Text size="sm">
                <b>{t(`flowEditor.kinds.${r.step.kind}`)}</b> {mainParameter(r.step)}
              </Text>
            </Box>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
