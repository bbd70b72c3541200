import { MessagesList } from '@/features/my/components/messages-list';
import { usePageParam } from '@/lib/use-page-param';

export function Component() {
  const page = usePageParam();
  return <MessagesList key={page} page={page} />;
}
