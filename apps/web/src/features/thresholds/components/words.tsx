import { Badge } from '@mantine/core';
import type { ThresholdCondition } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { useFormat } from '@/lib/format';

const levelColor: Record<number, string> = { 0: 'blue', 5: 'yellow', 9: 'red' };

/** A notification level (spec §9: 0 information, 5 warning, 9 emergency) as a coloured badge. */
export function LevelBadge({ level }: { level: number }) {
  const { t } = useTranslation();
  return (
    // Never shortened to "EME…" in a narrow table column.
    <Badge color={levelColor[level] ?? 'gray'} variant="light" style={{ minWidth: 'max-content' }}>
      {t(`levels.${level}` as 'levels.0')}
    </Badge>
  );
}

/** One condition in words: "outside 0.2 – 0.8", "≥ 1.5". */
export function useConditionText(): (c: ThresholdCondition) => string {
  const { t } = useTranslation();
  const format = useFormat();
  const n = (v: number | null) => (v === null ? '—' : format.number(v));
  return (c) => t(`thresholds.condition.summary.${c.judgment}`, { min: n(c.min), max: n(c.max), target: n(c.target) });
}
