import { VersionsInfo } from '@/features/my/components/versions-info';

export function Component() {
  return <VersionsInfo />;
}
