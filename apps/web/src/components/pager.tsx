import { Group, Pagination } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface PagerProps {
  page: number;
  total: number;
  perPage: number;
  onChange: (page: number) => void;
}

/** Page numbers for a list whose page lives in the search parameters. */
export function Pager({ page, total, perPage, onChange }: PagerProps) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (pages <= 1) return null;
  return (
    <Group justify="center" mt="md" component="nav" aria-label={t('common.pagination')}>
      <Pagination
        total={pages}
        value={page}
        onChange={onChange}
        getItemProps={(p) => ({ 'aria-label': t('common.page', { page: p }) })}
      />
    </Group>
  );
}
