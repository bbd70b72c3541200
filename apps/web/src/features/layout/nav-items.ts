import { isAdmin, isDataAdmin, isSystemAdmin } from '@portal/contract';
import type { en } from '@/locales/en';
import { paths } from '@/config/paths';

type NavKey = keyof typeof en.nav | 'auditLog';
export interface NavItem {
  key: NavKey;
  href: string;
  /** Organization and system administrators only (organizations, operators, audit log). */
  peopleAdmin?: boolean;
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
  { key: 'devices', href: paths.device.list.getHref() },
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
];

/** Navigation by role (spec section 6): general operators see operations only. */
export function navGroupsFor(type: number): NavGroup[] {
  const groups: NavGroup[] = [{ key: 'operations', items: operations }];
  const peopleAdmin = isDataAdmin(type);
  if (isAdmin(type))
    groups.push({ key: 'administration', items: administration.filter((i) => !i.peopleAdmin || peopleAdmin) });
  if (isSystemAdmin(type)) groups.push({ key: 'system', items: system });
  return groups;
}
