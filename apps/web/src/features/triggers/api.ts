import {
  flowOps,
  groupOpsByKind,
  organizationOps,
  robotOps,
  thresholdOps,
  triggerOps,
  webhookOps,
  type triggerInputSchema,
  type updateTriggerBodySchema,
} from '@portal/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { opPageQuery, opQuery, useOpMutation } from '@/lib/api-hooks';
import { queryKeys } from '@/lib/query-keys';

/**
 * The triggers of a building (docs/api-triggers.md) and the option lists their form chooses from.
 * Keys live under the building, so a change refreshes the building's views.
 */
export const TRIGGERS_PER_PAGE = 20;

const byBuilding = (buildingId: number, extra: object = {}) =>
  JSON.stringify({ where: { buildingId, ...extra }, order: 'name ASC', limit: 500 });

export const useTriggers = (buildingId: number, page: number) =>
  useQuery({
    ...opPageQuery(triggerOps.listTriggers, queryKeys.buildings.part(buildingId, 'triggers', { page }), {
      query: {
        filter: JSON.stringify({
          where: { buildingId },
          order: 'name ASC',
          limit: TRIGGERS_PER_PAGE,
          skip: (page - 1) * TRIGGERS_PER_PAGE,
        }),
      },
    }),
    placeholderData: keepPreviousData,
  });

export const useCreateTrigger = () =>
  useOpMutation(triggerOps.createTrigger, {
    args: (body: z.input<typeof triggerInputSchema>) => ({ body }),
    invalidates: ['buildings'],
  });

export const useUpdateTrigger = () =>
  useOpMutation(triggerOps.updateTrigger, {
    args: (v: { id: number; body: z.input<typeof updateTriggerBodySchema> }) => ({
      params: { id: v.id },
      body: v.body,
    }),
    invalidates: ['buildings'],
  });

export const useDeleteTrigger = () =>
  useOpMutation(triggerOps.deleteTrigger, { args: (id: number) => ({ params: { id } }), invalidates: ['buildings'] });

/** What the form chooses from: the building's flows, robots and robot groups, the organization's rules and targets. */
export function useTriggerOptions(buildingId: number, organizationId: number | null, systemAdmin: boolean) {
  const flows = useQuery(
    opQuery(flowOps.listFlows, queryKeys.buildings.part(buildingId, 'trigger-flows'), {
      query: { filter: byBuilding(buildingId) },
    }),
  );
  const robots = useQuery(
    opQuery(robotOps.listRobots, queryKeys.buildings.part(buildingId, 'trigger-robots'), {
      query: { filter: byBuilding(buildingId) },
    }),
  );
  const groups = useQuery(
    opQuery(groupOpsByKind['robot-group'].list, queryKeys.buildings.part(buildingId, 'robot-groups'), {
      params: { id: buildingId },
    }),
  );
  const rules = useQuery(
    opQuery(thresholdOps.listThresholdRules, queryKeys.buildings.part(buildingId, 'trigger-rules'), {
      query: { filter: JSON.stringify({ order: 'name ASC', limit: 200 }) },
    }),
  );
  const targets = useQuery({
    ...opQuery(organizationOps.listNotifTargets, queryKeys.buildings.part(buildingId, 'trigger-targets'), {
      params: { id: organizationId ?? 0 },
    }),
    enabled: organizationId !== null,
  });
  const webhooks = useQuery({
    ...opQuery(webhookOps.listWebhooks, queryKeys.buildings.part(buildingId, 'trigger-webhooks')),
    enabled: systemAdmin,
  });
  return {
    flows: flows.data ?? [],
    robots: robots.data ?? [],
    groups: groups.data ?? [],
    rules: rules.data ?? [],
    targets: (targets.data ?? []).filter((t) => t.buildingId === null || t.buildingId === buildingId),
    webhooks: (webhooks.data ?? []).filter((w) => w.status === 1),
  };
}
