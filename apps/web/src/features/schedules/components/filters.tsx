import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFlowOptions, useRobotOptions } from '../api';

interface IdSelectProps {
  kind: 'robot' | 'flow';
  buildingId: number | null;
  value: number | null;
  onChange: (id: number | null) => void;
}

/** A robot or flow filter (those of the chosen building, or every one in scope). */
export function IdFilter({ kind, buildingId, value, onChange }: IdSelectProps) {
  const { t } = useTranslation();
  const robots = useRobotOptions(buildingId);
  const flows = useFlowOptions(buildingId);
  const rows = (kind === 'robot' ? robots.data : flows.data) ?? [];
  const data = [{ value: '', label: t('schedules.all') }, ...rows.map((r) => ({ value: String(r.id), label: r.name }))];
  if (value !== null && !rows.some((r) => r.id === value)) data.push({ value: String(value), label: `#${value}` });
  return (
    <NativeSelect
      label={t(`schedules.filters.${kind}`)}
      value={value === null ? '' : String(value)}
      onChange={(e) => onChange(e.currentTarget.value === '' ? null : Number(e.currentTarget.value))}
      data={data}
      data-testid={`schedule-${kind}-filter`}
    />
  );
}
