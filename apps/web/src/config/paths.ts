/** Every route path of the portal (spec section 2) in one place; screens build URLs only through getHref(). */
const withQuery = (path: string, query: Record<string, string | number | null | undefined>): string => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
};

export const paths = {
  root: { path: '/', getHref: () => '/' },
  auth: {
    root: { path: '/auth', getHref: () => '/auth' },
    login: {
      path: '/auth/login',
      getHref: (redirect?: string | null) => withQuery('/auth/login', { redirect }),
    },
    register: { path: '/auth/register', getHref: () => '/auth/register' },
    error: { path: '/auth/error', getHref: (code?: string) => withQuery('/auth/error', { code }) },
    initData: { path: '/auth/init-data', getHref: () => '/auth/init-data' },
  },
  term: {
    agreement: {
      path: '/term/agreement',
      getHref: (redirect?: string | null) => withQuery('/term/agreement', { redirect }),
    },
  },
  dashboard: { path: '/dashboard', getHref: () => '/dashboard' },
  robot: {
    control: { path: '/robot/control', getHref: () => '/robot/control' },
    list: {
      path: '/robot/list',
      getHref: (query: Record<string, string | number | null | undefined> = {}) => withQuery('/robot/list', query),
    },
    create: { path: '/robot/create', getHref: (serial?: string) => withQuery('/robot/create', { serial }) },
    detail: { path: '/robot/:id', getHref: (id: number) => `/robot/${id}` },
    settingHistory: {
      path: '/robot/:id/setting-history',
      getHref: (id: number, page?: number) =>
        withQuery(`/robot/${id}/setting-history`, { page: page && page > 1 ? page : undefined }),
    },
  },
  flow: {
    settings: { path: '/flow/settings', getHref: () => '/flow/settings' },
    create: { path: '/flow/create', getHref: () => '/flow/create' },
    detail: { path: '/flow/:id', getHref: (id: number) => `/flow/${id}` },
  },
  workplan: {
    settings: {
      path: '/workplan/settings',
      getHref: (query: Record<string, string | number | null | undefined> = {}) =>
        withQuery('/workplan/settings', query),
    },
    create: {
      path: '/workplan/create',
      getHref: (query: Record<string, string | number | null | undefined> = {}) => withQuery('/workplan/create', query),
    },
    createTemplate: {
      path: '/workplan/create-template',
      getHref: (query: Record<string, string | number | null | undefined> = {}) =>
        withQuery('/workplan/create-template', query),
    },
    detail: { path: '/workplan/:id', getHref: (id: number) => `/workplan/${id}` },
  },
  schedule: {
    root: { path: '/schedule', getHref: () => '/schedule' },
    calWeek: { path: '/schedule/cal/week', getHref: () => '/schedule/cal/week' },
    calendar: {
      path: '/schedule/cal/:type',
      getHref: (
        type: 'month' | 'week' | 'day' = 'week',
        query: Record<string, string | number | null | undefined> = {},
      ) => withQuery(`/schedule/cal/${type}`, query),
    },
    list: {
      path: '/schedule/list',
      getHref: (query: Record<string, string | number | null | undefined> = {}) => withQuery('/schedule/list', query),
    },
    create: {
      path: '/schedule/create',
      getHref: (query: Record<string, string | number | null | undefined> = {}) => withQuery('/schedule/create', query),
    },
    detail: { path: '/schedule/:id', getHref: (id: number) => `/schedule/${id}` },
    log: { path: '/schedule/log/:page', getHref: (page = 1) => `/schedule/log/${page}` },
  },
  report: {
    list: { path: '/report/list/:page', getHref: (page = 1) => `/report/list/${page}` },
    exportHistory: { path: '/report/export-history/:page', getHref: (page = 1) => `/report/export-history/${page}` },
    templateList: {
      path: '/report/export-template/list/:page',
      getHref: (page = 1) => `/report/export-template/list/${page}`,
    },
    templateCreate: { path: '/report/export-template/create', getHref: () => '/report/export-template/create' },
    detail: { path: '/report/:id', getHref: (id: number) => `/report/${id}` },
  },
  archive: { list: { path: '/archive', getHref: () => '/archive' } },
  checkItem: {
    list: {
      path: '/check-item/list',
      getHref: (query: Record<string, string | number | null | undefined> = {}) => withQuery('/check-item/list', query),
    },
    create: { path: '/check-item/create', getHref: () => '/check-item/create' },
    detail: { path: '/check-item/:id', getHref: (id: number) => `/check-item/${id}` },
  },
  commandMapping: {
    list: {
      path: '/command-mapping/list',
      getHref: (query: Record<string, string | number | null | undefined> = {}) =>
        withQuery('/command-mapping/list', query),
    },
    create: {
      path: '/command-mapping/create',
      getHref: (query: Record<string, string | number | null | undefined> = {}) =>
        withQuery('/command-mapping/create', query),
    },
    detail: { path: '/command-mapping/:id', getHref: (id: number) => `/command-mapping/${id}` },
  },
  device: { list: { path: '/device/list', getHref: () => '/device/list' } },
  organization: {
    list: {
      path: '/organization/list',
      getHref: (query: Record<string, string | number | undefined> = {}) => withQuery('/organization/list', query),
    },
    create: { path: '/organization/create', getHref: () => '/organization/create' },
    detail: { path: '/organization/:id', getHref: (id: number) => `/organization/${id}` },
    notifTargetCreate: {
      path: '/organization/:id/notif-target/create',
      getHref: (id: number) => `/organization/${id}/notif-target/create`,
    },
    notifTarget: {
      path: '/organization/:id/notif-target/:ntid',
      getHref: (id: number, ntid: number) => `/organization/${id}/notif-target/${ntid}`,
    },
  },
  operator: {
    list: {
      path: '/operator/list',
      getHref: (query: Record<string, string | number | undefined> = {}) => withQuery('/operator/list', query),
    },
    create: { path: '/operator/create', getHref: () => '/operator/create' },
    detail: { path: '/operator/:id', getHref: (id: number) => `/operator/${id}` },
  },
  auditLog: {
    list: {
      path: '/audit-log/list',
      getHref: (query: Record<string, string | number | undefined> = {}) => withQuery('/audit-log/list', query),
    },
  },
  building: {
    list: {
      path: '/building/list',
      getHref: (query: Record<string, string | number | null | undefined> = {}) => withQuery('/building/list', query),
    },
    create: { path: '/building/create', getHref: () => '/building/create' },
    detail: {
      path: '/building/:id',
      getHref: (id: number, tab?: string) => withQuery(`/building/${id}`, { tab }),
    },
    floorCreate: {
      path: '/building/:buildingId/floor/create',
      getHref: (buildingId: number) => `/building/${buildingId}/floor/create`,
    },
    floor: { path: '/building/floor/:id', getHref: (id: number) => `/building/floor/${id}` },
    robotGroupCreate: {
      path: '/building/robot-group/create',
      getHref: (buildingId: number) => withQuery('/building/robot-group/create', { buildingId }),
    },
    robotGroup: { path: '/building/robot-group/:id', getHref: (id: number) => `/building/robot-group/${id}` },
    flowGroupCreate: {
      path: '/building/flow-group/create',
      getHref: (buildingId: number) => withQuery('/building/flow-group/create', { buildingId }),
    },
    flowGroup: { path: '/building/flow-group/:id', getHref: (id: number) => `/building/flow-group/${id}` },
  },
  poseDef: {
    list: {
      path: '/pose-def/list',
      getHref: (query: Record<string, string | number | null | undefined> = {}) => withQuery('/pose-def/list', query),
    },
    create: { path: '/pose-def/create', getHref: () => '/pose-def/create' },
    detail: { path: '/pose-def/:id', getHref: (id: number) => `/pose-def/${id}` },
  },
  poseNetwork: {
    list: {
      path: '/pose-network/list',
      getHref: (query: Record<string, string | number | null | undefined> = {}) =>
        withQuery('/pose-network/list', query),
    },
    create: { path: '/pose-network/create', getHref: () => '/pose-network/create' },
    detail: { path: '/pose-network/:id', getHref: (id: number) => `/pose-network/${id}` },
  },
  editor: {
    /** The full-width pose editor: `?id=` edits a pose, no id creates one. */
    pose: { path: '/editor/pose', getHref: (id?: number) => withQuery('/editor/pose', { id }) },
    floor: {
      path: '/editor/floor/:id',
      /** `waypointId`: open centred on that waypoint. */
      getHref: (id: number, waypointId?: number) => withQuery(`/editor/floor/${id}`, { waypoint: waypointId }),
    },
    partial: { path: '/editor/floor/:id/partial', getHref: (id: number) => `/editor/floor/${id}/partial` },
    v1_5: { path: '/editor/v1_5/:id/floor', getHref: (id: number) => `/editor/v1_5/${id}/floor` },
    v2: { path: '/editor/v2/:id/floor', getHref: (id: number) => `/editor/v2/${id}/floor` },
  },
  command: {
    list: {
      path: '/command/list',
      getHref: (query: Record<string, string | number | null | undefined> = {}) => withQuery('/command/list', query),
    },
    readOnly: { path: '/command/list/read-only', getHref: () => '/command/list/read-only' },
    create: { path: '/command/create', getHref: () => '/command/create' },
    detail: { path: '/command/:id', getHref: (id: number) => `/command/${id}` },
    usage: { path: '/command/usage/:id', getHref: (id: number) => `/command/usage/${id}` },
  },
  waypoint: {
    list: { path: '/waypoint/:mapId/list', getHref: (mapId: number) => `/waypoint/${mapId}/list` },
    create: { path: '/waypoint/:mapId/create', getHref: (mapId: number) => `/waypoint/${mapId}/create` },
    detail: { path: '/waypoint/:mapId/:id', getHref: (mapId: number, id: number) => `/waypoint/${mapId}/${id}` },
  },
  threshold: {
    list: {
      path: '/threshold/list',
      getHref: (query: Record<string, string | number | null | undefined> = {}) => withQuery('/threshold/list', query),
    },
    /** Not a route of spec section 2: the list's create button opens the rule form here. */
    create: { path: '/threshold/create', getHref: () => '/threshold/create' },
    detail: { path: '/threshold/:id', getHref: (id: number) => `/threshold/${id}` },
    log: {
      path: '/threshold/log/:page',
      getHref: (page = 1, query: Record<string, string | number | null | undefined> = {}) =>
        withQuery(`/threshold/log/${page}`, query),
    },
  },
  app: {
    basic: {
      path: '/app/basic/:serialNo',
      getHref: (serialNo: string) => `/app/basic/${encodeURIComponent(serialNo)}`,
    },
    teleOpe: {
      path: '/app/tele-ope/:mode/:serialNo',
      getHref: (serialNo: string, mode: 'drive' | 'watch' = 'drive') =>
        `/app/tele-ope/${mode}/${encodeURIComponent(serialNo)}`,
    },
  },
  console: { path: '/console/:serialNo', getHref: (serialNo: string) => `/console/${encodeURIComponent(serialNo)}` },
  my: {
    root: { path: '/my', getHref: () => '/my' },
    profile: { path: '/my/profile', getHref: () => '/my/profile' },
    devices: { path: '/my/devices', getHref: () => '/my/devices' },
    messages: { path: '/my/messages/:page', getHref: (page = 1) => `/my/messages/${page}` },
    auditLogs: { path: '/my/audit-logs/:page', getHref: (page = 1) => `/my/audit-logs/${page}` },
    announcements: { path: '/my/announcements', getHref: () => '/my/announcements' },
    versions: { path: '/my/versions', getHref: () => '/my/versions' },
    chpwd: { path: '/my/chpwd', getHref: () => '/my/chpwd' },
    contract: { path: '/my/contract', getHref: () => '/my/contract' },
  },
  system: {
    top: { path: '/system', getHref: () => '/system' },
    deliveries: {
      path: '/system/deliveries',
      getHref: (page?: number) => withQuery('/system/deliveries', { page: page && page > 1 ? page : undefined }),
    },
    termTexts: { path: '/system/terms', getHref: () => '/system/terms' },
    webhookList: { path: '/system/webhooks/list', getHref: () => '/system/webhooks/list' },
    webhookCreate: { path: '/system/webhooks/create', getHref: () => '/system/webhooks/create' },
    webhookDetail: { path: '/system/webhooks/:id', getHref: (id: number) => `/system/webhooks/${id}` },
  },
} as const;

/** Sections of the product used to name the screens that later issues implement. */
export type Section =
  | 'dashboard'
  | 'organization'
  | 'operator'
  | 'robot'
  | 'device'
  | 'building'
  | 'command'
  | 'commandMapping'
  | 'flow'
  | 'workplan'
  | 'poseDef'
  | 'poseNetwork'
  | 'checkItem'
  | 'report'
  | 'waypoint'
  | 'asilla'
  | 'system'
  | 'resource'
  | 'guide'
  | 'threshold'
  | 'archive'
  | 'schedule'
  | 'app'
  | 'console'
  | 'editor'
  | 'beta';

const crud = (base: string, section: Section, list = 'list') =>
  [`${base}/${list}`, `${base}/create`, `${base}/:id`].map((path) => ({ path, section }));

/** Routes of spec section 2 whose screens arrive in later issues (shown as "coming in a later release"). */
export const laterRoutes: ReadonlyArray<{ path: string; section: Section }> = [
  ...crud('/device', 'device'),
  { path: '/device/:id/data', section: 'device' },
  { path: '/asilla/setting/list', section: 'asilla' },
  { path: '/asilla/setting/:id', section: 'asilla' },
  { path: '/system', section: 'system' },
  ...['versions', 'iam/service', 'config', 'announcements', 'service-package'].flatMap((s) =>
    crud(`/system/${s}`, 'system'),
  ),
  { path: '/system/sync-history/list/:page', section: 'system' },
  { path: '/system/service-command/create/:packageId/:bundleId', section: 'system' },
  { path: '/system/service-command/:packageId/:id', section: 'system' },
  { path: '/system/skyway/list', section: 'system' },
  { path: '/system/azure/list', section: 'system' },
  { path: '/system/error-code/list', section: 'system' },
  ...crud('/resource', 'resource'),
  { path: '/guide/knowledge-groups/list', section: 'guide' },
  { path: '/guide/knowledge-groups/:id', section: 'guide' },
  { path: '/guide/chats/list', section: 'guide' },
  { path: '/guide/chats/:id', section: 'guide' },
  { path: '/archive', section: 'archive' },
  { path: '/archive/:serialNo/:date/:hour/:minute', section: 'archive' },
  { path: '/archive/robot/:serialNo/:date', section: 'archive' },
  { path: '/archive/cloud/:buildingId/:date', section: 'archive' },
  { path: '/beta/spatial-ui', section: 'beta' },
];
