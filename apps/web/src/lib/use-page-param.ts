import { useParams } from 'react-router';

/** The `:page` route parameter as a positive integer (1 when absent or invalid). */
export function usePageParam(): number {
  const { page } = useParams();
  const n = Number(page);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}
