import { ProfilePage } from '@/features/my/components/profile-page';

export function Component() {
  return <ProfilePage />;
}
