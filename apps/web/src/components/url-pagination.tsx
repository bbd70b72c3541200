import { Group, Pagination } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

interface UrlPaginationProps {
  page: number;
  total: number;
  perPage: number;
  hrefFor: (page: number) => string;
}

/** Pagination whose state is the URL (`/my/messages/2`). */
export function UrlPagination({ page, total, perPage, hrefFor }: UrlPaginationProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const pages = Math.max(1, Math.ceil(total / perPage));
  if (pages <= 1) return null;
  return (
    <Group justify="center" mt="md" component="nav" aria-label={t('common.pagination')}>
      <Pagination
        total={pages}
        value={page}
        onChange={(p) => void navigate(hrefFor(p))}
        getItemProps={(p) => ({ 'aria-label': t('common.page', { page: p }) })}
      />
    </Group>
  );
}
