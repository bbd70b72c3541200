import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';

type Tab = 'list' | 'history' | 'templates';

/** Reports, export history and export templates: the report screens' switch. */
export function ReportTabs({ active }: { active: Tab }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hrefs: Record<Tab, string> = {
    list: paths.report.list.getHref(1),
    history: paths.report.exportHistory.getHref(1),
    templates: paths.report.templateList.getHref(1),
  };
  return (
    <Tabs value={active} onChange={(v) => v && v !== active && void navigate(hrefs[v as Tab])} className="no-print">
      <Tabs.List>
        {(Object.keys(hrefs) as Tab[]).map((tab) => (
          <Tabs.Tab key={tab} value={tab} data-testid={`report-tab-${tab}`}>
            {t(`reports.tabs.${tab}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
