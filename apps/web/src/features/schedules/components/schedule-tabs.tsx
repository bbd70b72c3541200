import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';

type Tab = 'calendar' | 'list' | 'log';

/** Calendar, entries and log: the schedule screens' switch. */
export function ScheduleTabs({ active }: { active: Tab }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hrefs: Record<Tab, string> = {
    calendar: paths.schedule.calendar.getHref('week'),
    list: paths.schedule.list.getHref(),
    log: paths.schedule.log.getHref(1),
  };
  return (
    <Tabs value={active} onChange={(v) => v && v !== active && void navigate(hrefs[v as Tab])}>
      <Tabs.List>
        {(Object.keys(hrefs) as Tab[]).map((tab) => (
          <Tabs.Tab key={tab} value={tab} data-testid={`schedule-tab-${tab}`}>
            {t(`schedules.tabs.${tab}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
