import { isAdmin, isSystemAdmin } from '@portal/contract';
import type { en } from '@/locales/en';
import { paths } from '@/config/paths';

type NavKey = keyof typeof en.nav;
export interface NavItem {
  key: NavKey;
  href: string;
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
  { key: 'organizations', href: paths.organization.list.getHref() },
  { key: 'operators', href: paths.operator.list.getHref() },
  { key: 'buildings', href: paths.building.list.getHref() },
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
  if (isAdmin(type)) groups.push({ key: 'administration', items: administration });
  if (isSystemAdmin(type)) groups.push({ key: 'system', items: system });
  return groups;
}
