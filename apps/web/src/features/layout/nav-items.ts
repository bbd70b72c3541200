import { isAdmin, isDataAdmin, isSystemAdmin } from '@portal/contract';
import { matchPath } from 'react-router';
import type { en } from '@/locales/en';
import { laterRoutes, paths } from '@/config/paths';

type NavKey = keyof typeof en.nav | 'auditLog';
export interface NavItem {
  key: NavKey;
  href: string;
  /** Organization and system administrators only (organizations, operators, audit log). */
  peopleAdmin?: boolean;
  /** General operators only (their read-only view of what administrators manage elsewhere). */
  generalOnly?: boolean;
}
export interface NavGroup {
  key: 'operations' | 'administration' | 'system';
  items: NavItem[];
}

const operations: NavItem[] = [
  { key: 'robotControl', href: paths.robot.control.getHref() },
  { key: 'dashboard', href: paths.dashboard.getHref() },
  { key: 'robots', href: paths.robot.list.getHref() },
  { key: 'flows', href: paths.flow.settings.getHref() },
  { key: 'workplans', href: paths.workplan.settings.getHref() },
  { key: 'schedule', href: paths.schedule.calWeek.getHref() },
  { key: 'reports', href: paths.report.list.getHref() },
  { key: 'archive', href: paths.archive.list.getHref() },
  { key: 'checkItems', href: paths.checkItem.list.getHref() },
  { key: 'commandMappings', href: paths.commandMapping.list.getHref() },
  { key: 'devices', href: paths.device.list.getHref() },
  { key: 'commands', href: paths.command.readOnly.getHref(), generalOnly: true },
];

const administration: NavItem[] = [
  { key: 'organizations', href: paths.organization.list.getHref(), peopleAdmin: true },
  { key: 'operators', href: paths.operator.list.getHref(), peopleAdmin: true },
  { key: 'auditLog', href: paths.auditLog.list.getHref(), peopleAdmin: true },
  { key: 'buildings', href: paths.building.list.getHref() },
  { key: 'poses', href: paths.poseDef.list.getHref() },
  { key: 'commands', href: paths.command.list.getHref() },
  { key: 'thresholds', href: paths.threshold.list.getHref() },
];

const system: NavItem[] = [
  { key: 'systemTop', href: paths.system.top.getHref() },
  { key: 'deliveries', href: paths.system.deliveries.getHref() },
  { key: 'termTexts', href: paths.system.termTexts.getHref() },
  { key: 'webhooks', href: paths.system.webhookList.getHref() },
];

/** True when the entry leads to a screen not built yet (the "coming in a later release" placeholder). */
export const isLater = (href: string): boolean => {
  const path = href.split('?')[0] ?? href;
  return laterRoutes.some((r) => matchPath(r.path, path) !== null);
};

/**
 * Navigation by role (spec section 6): general operators see operations only. Only entries whose
 * screens exist are listed (the placeholder stays reachable by deep link), so each area appears in
 * the menu as it is built; a group left without entries is not shown.
 */
export function navGroupsFor(type: number, built: (href: string) => boolean = (h) => !isLater(h)): NavGroup[] {
  const peopleAdmin = isDataAdmin(type);
  const groups: NavGroup[] = [{ key: 'operations', items: operations.filter((i) => !i.generalOnly || !isAdmin(type)) }];
  if (isAdmin(type))
    groups.push({ key: 'administration', items: administration.filter((i) => !i.peopleAdmin || peopleAdmin) });
  if (isSystemAdmin(type)) groups.push({ key: 'system', items: system });
  return groups.map((g) => ({ ...g, items: g.items.filter((i) => built(i.href)) })).filter((g) => g.items.length > 0);
}
