/**
 * One query-key factory per resource. Every view of a resource (its list pages, details, the options
 * of a filter or a switcher) lives under the resource's root key, so a change to the resource
 * invalidates the root and every view refreshes at once.
 */
function resourceKeys<const R extends string>(root: R) {
  return {
    all: [root] as const,
    /** A list; `params` is the list's state or filter. */
    list: (params?: unknown) => [root, 'list', params ?? null] as const,
    /** Option lists of selects and filters (`name` tells them apart). */
    options: (name: string, params?: unknown) => [root, 'options', name, params ?? null] as const,
    detail: (id: number | string) => [root, 'detail', id] as const,
    /** A part of one item: its groups, texts, settings... */
    part: (id: number | string, part: string, params?: unknown) => [root, 'detail', id, part, params ?? null] as const,
  };
}

export const queryKeys = {
  auditLogs: resourceKeys('audit-logs'),
  buildings: resourceKeys('buildings'),
  checkItems: resourceKeys('check-items'),
  commandMappings: resourceKeys('command-mappings'),
  commands: resourceKeys('commands'),
  console: resourceKeys('console'),
  contract: resourceKeys('contract'),
  deliveries: resourceKeys('deliveries'),
  floors: resourceKeys('floors'),
  flows: resourceKeys('flows'),
  flowRuns: resourceKeys('flow-runs'),
  maps: resourceKeys('maps'),
  my: resourceKeys('my'),
  operators: resourceKeys('operators'),
  organizations: resourceKeys('organizations'),
  poses: resourceKeys('poses'),
  poseNetworks: resourceKeys('pose-networks'),
  reports: resourceKeys('reports'),
  reportExports: resourceKeys('report-exports'),
  exportTemplates: resourceKeys('export-templates'),
  robots: resourceKeys('robots'),
  robotGroups: resourceKeys('robot-groups'),
  schedules: resourceKeys('schedules'),
  scheduleLogs: resourceKeys('schedule-logs'),
  flowGroups: resourceKeys('flow-groups'),
  teleop: resourceKeys('teleop'),
  terms: resourceKeys('terms'),
  thresholdRules: resourceKeys('threshold-rules'),
  thresholdLogs: resourceKeys('threshold-logs'),
  webhooks: resourceKeys('webhooks'),
  workPlans: resourceKeys('work-plans'),
  workPlanTemplates: resourceKeys('work-plan-templates'),
  workPlanRuns: resourceKeys('work-plan-runs'),
} as const;

export type Resource = keyof typeof queryKeys;
