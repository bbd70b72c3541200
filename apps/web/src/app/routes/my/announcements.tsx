import { AnnouncementsList } from '@/features/my/components/announcements-list';

export function Component() {
  return <AnnouncementsList />;
}
