import { useNavigate } from 'react-router';
import { Pager } from '../pager';

export interface ListPaging {
  /** The page shown (from 1). */
  page: number;
  perPage: number;
  /** A page chosen: the URL's search parameters change (`setParams({ page })`)... */
  onPage?: (page: number) => void;
  /** ...or the page is in the URL's path (`/my/messages/2`): the pager goes there. */
  pageHref?: (page: number) => string;
}

/** Page numbers under a paged list (none when everything fits one page). */
export function ListPager({ page, perPage, onPage, pageHref, total }: ListPaging & { total: number }) {
  const navigate = useNavigate();
  return (
    <Pager
      page={page}
      total={total}
      perPage={perPage}
      onChange={(p) => (pageHref ? void navigate(pageHref(p)) : onPage?.(p))}
    />
  );
}
