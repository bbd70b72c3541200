import { useNavigate } from 'react-router';
import { Pager } from './pager';

interface UrlPaginationProps {
  page: number;
  total: number;
  perPage: number;
  hrefFor: (page: number) => string;
}

/** Pagination whose state is the URL path (`/my/messages/2`). */
export function UrlPagination({ hrefFor, ...pager }: UrlPaginationProps) {
  const navigate = useNavigate();
  return <Pager {...pager} onChange={(p) => void navigate(hrefFor(p))} />;
}
