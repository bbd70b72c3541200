import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  planPoseTransition,
  POSE_NETWORK_NAME_MAX,
  poseNetworkInputSchema,
  type ArmModel,
  type ArmTypeCode,
  type PoseEdge,
  type PoseNetwork,
  type PoseNetworkInput,
} from '@portal/contract';
import { useState, type ReactNode } from 'react';
import { useForm, useWatch, type DefaultValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormShell, LockedFields, useFormKit } from '@/components/form-page';
import { useCreatePoseNetwork } from '../api/create-pose-network';
import { usePoseOptions } from '../api/get-pose-defs';
import { useUpdatePoseNetwork } from '../api/update-pose-network';
import { PoseHeadFields } from './pose-head-fields';
import { NetworkGraph } from './network-graph';
import { TransitionChecker } from './transition-checker';
import { usePoseMessage } from './use-pose-message';
import { PanelTitle } from '@/components/panel-title';

export type NetworkFormValues = PoseNetworkInput;
const fields = ['name', 'buildingId', 'armModel', 'armType', 'nodes', 'edges'] as const;

export const networkFormValues = (n: PoseNetwork): NetworkFormValues => ({
  name: n.name,
  buildingId: n.buildingId,
  armModel: n.armModel,
  armType: n.armType,
  nodes: n.nodes.map((x) => x.id),
  edges: n.edges,
});

export const emptyNetworkForm = (): DefaultValues<NetworkFormValues> => ({
  name: '',
  buildingId: null,
  armModel: 100,
  armType: 1,
  nodes: [],
  edges: [],
});

const samePair = (e: PoseEdge, a: number, b: number) => (e.from === a && e.to === b) || (e.from === b && e.to === a);

interface NetworkFormProps {
  /** Edit: the stored network (its poses are named even before the options load). */
  network?: PoseNetwork;
  /** Edit: fetches the stored network again (the conflict dialog's answers). */
  onReload?: () => Promise<PoseNetwork | undefined>;
  /** Create: the new network (e.g. go to its page). */
  onCreated?: (network: PoseNetwork) => void;
  readOnly?: boolean;
  /** Buttons at the start of the button row (delete). */
  extraActions?: ReactNode;
  /** Where Cancel of a new network goes. */
  cancelTo?: string;
}

/**
 * A pose network: arm model and type, the poses (nodes), the transitions (edges, optionally both
 * ways), a drawing of the graph and the transition checker (usable read-only too). Validated with
 * the contract schema, on the form kit (a stale save asks).
 */
export function PoseNetworkForm({ network, onReload, onCreated, readOnly, extraActions, cancelTo }: NetworkFormProps) {
  const { t } = useTranslation();
  const message = usePoseMessage();
  const create = useCreatePoseNetwork();
  const update = useUpdatePoseNetwork();
  const form = useForm<NetworkFormValues>({
    resolver: zodResolver(poseNetworkInputSchema),
    defaultValues: network ? networkFormValues(network) : emptyNetworkForm(),
  });
  const kit = useFormKit(form, {
    fields,
    duplicateText: t('poseCommon.duplicate'),
    record: network,
    reload: onReload,
    toValues: networkFormValues,
    translate: message,
  });
  const base = kit.base;
  const knownNames = base?.nodes ?? [];
  const { errors } = form.formState;
  const [draft, setDraft] = useState<{ from: number | null; to: number | null; both: boolean }>({
    from: null,
    to: null,
    both: true,
  });
  const [check, setCheck] = useState<{ from: number | null; to: number | null }>({ from: null, to: null });
  const armModel = (useWatch({ control: form.control, name: 'armModel' }) ?? 100) as ArmModel;
  const armType = (useWatch({ control: form.control, name: 'armType' }) ?? 1) as ArmTypeCode;
  const nodes = (useWatch({ control: form.control, name: 'nodes' }) ?? []) as number[];
  const edges = (useWatch({ control: form.control, name: 'edges' }) ?? []) as PoseEdge[];
  const options = usePoseOptions(armModel, armType);

  const names = new Map<number, string>(knownNames.map((n) => [n.id, n.name]));
  for (const p of options.data ?? []) names.set(p.id, p.name);
  const nodeList = nodes.map((id) => ({ id, name: names.get(id) ?? `#${id}` }));
  const plan =
    check.from !== null && check.to !== null ? planPoseTransition({ nodes, edges }, check.from, check.to) : null;

  const submit = form.handleSubmit((values) => {
    if (base)
      update.mutate(
        { id: base.id, body: { ...values, updatedAt: base.updatedAt } },
        kit.saved({ successText: t('poseCommon.saved') }),
      );
    else create.mutate(values, kit.saved<PoseNetwork>({ successText: t('poseCommon.created'), onSuccess: onCreated }));
  });

  const setGraph = (nextNodes: number[], nextEdges: PoseEdge[]) => {
    form.setValue('nodes', nextNodes, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    form.setValue('edges', nextEdges, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
  };
  const toggleNode = (id: number, on: boolean) =>
    on
      ? setGraph([...nodes, id], edges)
      : setGraph(
          nodes.filter((n) => n !== id),
          edges.filter((e) => e.from !== id && e.to !== id),
        );
  const reshape = () => setGraph([], []);
  const canAdd =
    draft.from !== null &&
    draft.to !== null &&
    draft.from !== draft.to &&
    !edges.some((e) => samePair(e, draft.from!, draft.to!));

  const poseOptions = [
    { value: '', label: t('poseCommon.choose') },
    ...nodeList.map((n) => ({ value: String(n.id), label: n.name })),
  ];
  const edgeError = (i: number) => message(errors.edges?.[i]?.message ?? errors.edges?.[i]?.root?.message);

  return (
    <FormShell
      kit={kit}
      onSubmit={submit}
      mutation={base ? update : create}
      label={t('poseNetworks.listTitle')}
      testId="network-form"
      submitTestId="network-save"
      createLabel={t('poseNetworks.create')}
      createCancelTo={cancelTo}
      readOnly={readOnly}
      startActions={extraActions}
      maw="none"
    >
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <LockedFields locked={readOnly}>
          <Stack>
            <PoseHeadFields
              form={form}
              testIdPrefix="network"
              nameMax={POSE_NETWORK_NAME_MAX}
              err={kit.err}
              onShape={reshape}
            />
            {!readOnly && (
              <Text size="xs" c="dimmed">
                {t('poseNetworks.modelChangeHint')}
              </Text>
            )}
            <Paper withBorder p="sm">
              <Stack gap="xs">
                <PanelTitle title={t('poseNetworks.poses')} description={t('poseNetworks.posesHint')} size="h5" />
                {errors.nodes && (
                  <Text c="red" size="sm">
                    {message(errors.nodes.message ?? errors.nodes.root?.message ?? 'validation.invalid')}
                  </Text>
                )}
                {(options.data ?? []).length === 0 && nodes.length === 0 ? (
                  <Text size="sm" c="dimmed" data-testid="network-no-poses">
                    {t('poseNetworks.noPoses')}
                  </Text>
                ) : (
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={4} data-testid="network-poses">
                    {[...names.entries()]
                      .filter(([id]) => nodes.includes(id) || (options.data ?? []).some((p) => p.id === id))
                      .map(([id, name]) => (
                        <Checkbox
                          key={id}
                          label={name}
                          checked={nodes.includes(id)}
                          onChange={(e) => toggleNode(id, e.currentTarget.checked)}
                          data-testid={`network-pose-${id}`}
                        />
                      ))}
                  </SimpleGrid>
                )}
              </Stack>
            </Paper>
            <Paper withBorder p="sm">
              <Stack gap="xs">
                <PanelTitle
                  title={t('poseNetworks.transitions')}
                  description={t('poseNetworks.transitionsHint')}
                  size="h5"
                />
                {!readOnly && (
                  <Group align="flex-end" wrap="wrap">
                    <NativeSelect
                      label={t('poseNetworks.from')}
                      value={draft.from === null ? '' : String(draft.from)}
                      data={poseOptions}
                      onChange={(e) =>
                        setDraft({
                          ...draft,
                          from: e.currentTarget.value === '' ? null : Number(e.currentTarget.value),
                        })
                      }
                      data-testid="edge-from"
                    />
                    <NativeSelect
                      label={t('poseNetworks.to')}
                      value={draft.to === null ? '' : String(draft.to)}
                      data={poseOptions}
                      onChange={(e) =>
                        setDraft({
                          ...draft,
                          to: e.currentTarget.value === '' ? null : Number(e.currentTarget.value),
                        })
                      }
                      data-testid="edge-to"
                    />
                    <Switch
                      label={t('poseNetworks.bothWays')}
                      checked={draft.both}
                      onChange={(e) => setDraft({ ...draft, both: e.currentTarget.checked })}
                      mb={8}
                      data-testid="edge-both"
                    />
                    <Button
                      variant="light"
                      disabled={!canAdd}
                      onClick={() => {
                        setGraph(nodes, [...edges, { from: draft.from!, to: draft.to!, bidirectional: draft.both }]);
                        setDraft({ ...draft, from: draft.to, to: null });
                      }}
                      data-testid="edge-add"
                    >
                      {t('poseNetworks.addTransition')}
                    </Button>
                  </Group>
                )}
                {errors.edges?.message && (
                  <Text c="red" size="sm">
                    {message(errors.edges.message)}
                  </Text>
                )}
                {edges.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('poseNetworks.noTransitions')}
                  </Text>
                ) : (
                  <Table verticalSpacing={4} data-testid="edge-table">
                    <Table.Tbody>
                      {edges.map((e, i) => (
                        <Table.Tr key={`${e.from}-${e.to}-${i}`} data-testid={`edge-row-${i}`}>
                          <Table.Td>{names.get(e.from) ?? `#${e.from}`}</Table.Td>
                          <Table.Td c="dimmed">{e.bidirectional ? '↔' : '→'}</Table.Td>
                          <Table.Td>
                            {names.get(e.to) ?? `#${e.to}`}
                            {edgeError(i) && (
                              <Text c="red" size="xs">
                                {edgeError(i)}
                              </Text>
                            )}
                          </Table.Td>
                          <Table.Td>
                            <Switch
                              size="xs"
                              label={t('poseNetworks.bothWays')}
                              checked={e.bidirectional}
                              onChange={(ev) => {
                                const checked = ev.currentTarget.checked;
                                setGraph(
                                  nodes,
                                  edges.map((x, j) => (j === i ? { ...x, bidirectional: checked } : x)),
                                );
                              }}
                            />
                          </Table.Td>
                          {!readOnly && (
                            <Table.Td>
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                aria-label={t('poseNetworks.remove')}
                                onClick={() =>
                                  setGraph(
                                    nodes,
                                    edges.filter((_, j) => j !== i),
                                  )
                                }
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
              </Stack>
            </Paper>
          </Stack>
        </LockedFields>
        <Stack>
          <Title order={2} size="h5">
            {t('poseNetworks.graphTitle')}
          </Title>
          <NetworkGraph nodes={nodeList} edges={edges} highlight={plan?.found ? plan.path : []} />
          <TransitionChecker
            nodes={nodeList}
            edges={edges}
            from={check.from}
            to={check.to}
            onChange={(from, to) => setCheck({ from, to })}
          />
        </Stack>
      </SimpleGrid>
    </FormShell>
  );
}
