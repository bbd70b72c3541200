import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const colors = { 0: 'blue', 5: 'orange', 9: 'red' } as const;

export function LevelBadge({ level }: { level: 0 | 5 | 9 }) {
  const { t } = useTranslation();
  return (
    <Badge color={colors[level]} variant="light">
      {t(`levels.${level}`)}
    </Badge>
  );
}
