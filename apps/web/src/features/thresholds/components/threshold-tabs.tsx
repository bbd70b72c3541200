import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';

type Tab = 'rules' | 'log';

/** Rules and log: the threshold screens' switch. */
export function ThresholdTabs({ active }: { active: Tab }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const hrefs: Record<Tab, string> = { rules: paths.threshold.list.getHref(), log: paths.threshold.log.getHref(1) };
  return (
    <Tabs value={active} onChange={(v) => v && v !== active && void navigate(hrefs[v as Tab])}>
      <Tabs.List>
        {(Object.keys(hrefs) as Tab[]).map((tab) => (
          <Tabs.Tab key={tab} value={tab} data-testid={`threshold-tab-${tab}`}>
            {t(`thresholds.tabs.${tab}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
