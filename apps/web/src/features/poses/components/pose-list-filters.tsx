import { Button, Group, NativeSelect } from '@mantine/core';
import { ARM_MODELS, ARM_TYPES } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { buildingFilterOptions } from '@/components/building-filter';
import { ListSearch } from '@/components/list-page';
import type { PoseListParams } from '../list-params';

/** Search, arm model, arm type and scope of the pose and network lists. */
export function PoseListFilters({
  params,
  onChange,
  testId,
}: {
  params: PoseListParams;
  onChange: (change: Partial<PoseListParams>) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const buildings = useQuery(buildingFilterOptions());
  const filtered = params.q !== '' || params.model !== null || params.type !== null || params.building !== null;
  return (
    <Group align="flex-end" wrap="wrap">
      <ListSearch
        value={params.q}
        onSearch={(q) => onChange({ q })}
        label={t('poseCommon.search')}
        buttonLabel={t('poseCommon.search')}
        placeholder={t('poseCommon.searchHint')}
        testId={`${testId}-search`}
        width={200}
      />
      <NativeSelect
        label={t('poseCommon.fields.armModel')}
        value={params.model === null ? '' : String(params.model)}
        onChange={(e) => onChange({ model: ARM_MODELS.find((m) => String(m) === e.currentTarget.value) ?? null })}
        data={[
          { value: '', label: t('poseCommon.allModels') },
          ...ARM_MODELS.map((m) => ({ value: String(m), label: t(`poseCommon.armModels.${m}`) })),
        ]}
        data-testid={`${testId}-model`}
      />
      <NativeSelect
        label={t('poseCommon.fields.armType')}
        value={params.type === null ? '' : String(params.type)}
        onChange={(e) => onChange({ type: ARM_TYPES.find((a) => String(a) === e.currentTarget.value) ?? null })}
        data={[
          { value: '', label: t('poseCommon.allTypes') },
          ...ARM_TYPES.map((a) => ({ value: String(a), label: t(`poseCommon.armTypes.${a}`) })),
        ]}
        data-testid={`${testId}-type`}
      />
      <NativeSelect
        label={t('poseCommon.fields.buildingId')}
        value={params.building === null ? '' : String(params.building)}
        onChange={(e) => {
          const v = e.currentTarget.value;
          onChange({ building: v === '' ? null : v === 'org' ? 'org' : Number(v) });
        }}
        data={[
          { value: '', label: t('poseCommon.allBuildings') },
          { value: 'org', label: t('poseCommon.wholeOrganization') },
          ...(buildings.data ?? [])
            .filter((b): b is typeof b & { id: number } => typeof b.id === 'number')
            .map((b) => ({ value: String(b.id), label: b.name ?? `#${b.id}` })),
        ]}
        data-testid={`${testId}-building`}
      />
      {filtered && (
        <Button variant="subtle" onClick={() => onChange({ q: '', model: null, type: null, building: null })}>
          {t('poseCommon.clear')}
        </Button>
      )}
    </Group>
  );
}
