import { Anchor, Badge, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { isSystemAdmin } from '@portal/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useBuilding } from '../api/get-building';
import { canManageBuildings } from '../can-manage';
import { BuildingDetails } from './building-details';
import { GroupList } from './group-list';
import { IpRestriction } from './ip-restriction';
import { SpeechTexts } from './speech-texts';
import { SystemLinks } from './system-links';

export const buildingTabs = [
  'details',
  'floors',
  'robotGroups',
  'flowGroups',
  'speechTexts',
  'triggers',
  'security',
  'links',
] as const;
type Tab = (typeof buildingTabs)[number];
const isTab = (v: string | null): v is Tab => (buildingTabs as readonly (string | null)[]).includes(v);

interface BuildingPageProps {
  id: number;
  sessionType: number;
  /** The floors section (another feature), composed by the route. */
  floors: (building: { id: number; name: string; canManage: boolean }) => ReactNode;
  /** The triggers section (another feature), composed by the route. */
  triggers: (building: { id: number; organizationId: number; canManage: boolean }) => ReactNode;
}

/** /building/:id: the building and its sections as tabs; the tab is in the URL (?tab=). */
export function BuildingPage({ id, sessionType, floors, triggers }: BuildingPageProps) {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const building = useBuilding(id);
  const tabParam = params.get('tab');
  const tab: Tab = isTab(tabParam) ? tabParam : 'details';
  const canManage = canManageBuildings(sessionType);

  if (building.isPending) return <PageLoader />;
  if (building.isError) return <QueryError error={building.error} onRetry={() => void building.refetch()} />;
  const b = building.data;

  return (
    <Stack>
      <Anchor component={Link} to={paths.building.list.getHref()} size="sm">
        ← {t('buildings.back')}
      </Anchor>
      <Group gap="sm">
        <Title order={1} size="h2">
          {b.name}
        </Title>
        <Badge variant="light" color={b.status === 1 ? 'green' : 'gray'}>
          {t(`buildings.statuses.${b.status === 0 ? '0' : '1'}`)}
        </Badge>
        {b.ipRestrictionEnabled && (
          <Badge variant="filled" color="blue">
            {t('buildings.columns.ipRestriction')}: {t('buildings.on')}
          </Badge>
        )}
      </Group>
      {!canManage && (
        <Text c="dimmed" size="sm">
          {t('buildings.readOnly')}
        </Text>
      )}
      <Tabs
        value={tab}
        onChange={(v) =>
          setParams(
            (prev) => {
              const out = new URLSearchParams(prev);
              if (!v || v === 'details') out.delete('tab');
              else out.set('tab', v);
              return out;
            },
            { replace: true },
          )
        }
        keepMounted={false}
      >
        <Tabs.List aria-label={t('buildings.tabs.label')}>
          {buildingTabs.map((k) => (
            <Tabs.Tab key={k} value={k} data-testid={`tab-${k}`}>
              {t(`buildings.tabs.${k}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="details" pt="md">
          <BuildingDetails
            building={b}
            sessionType={sessionType}
            canManage={canManage}
            onReload={async () => (await building.refetch()).data}
          />
        </Tabs.Panel>
        <Tabs.Panel value="floors" pt="md">
          {floors({ id: b.id, name: b.name, canManage })}
        </Tabs.Panel>
        <Tabs.Panel value="robotGroups" pt="md">
          <GroupList buildingId={b.id} kind="robot-group" canManage={canManage} />
        </Tabs.Panel>
        <Tabs.Panel value="flowGroups" pt="md">
          <GroupList buildingId={b.id} kind="flow-group" canManage={canManage} />
        </Tabs.Panel>
        <Tabs.Panel value="speechTexts" pt="md">
          <SpeechTexts buildingId={b.id} canManage={canManage} />
        </Tabs.Panel>
        <Tabs.Panel value="triggers" pt="md">
          {triggers({ id: b.id, organizationId: b.organizationId, canManage })}
        </Tabs.Panel>
        <Tabs.Panel value="security" pt="md">
          <IpRestriction buildingId={b.id} canManage={canManage} exempt={isSystemAdmin(sessionType)} />
        </Tabs.Panel>
        <Tabs.Panel value="links" pt="md">
          <SystemLinks buildingId={b.id} canManage={canManage} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
