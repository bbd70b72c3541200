import { BuildingFilter } from '@/components/building-filter';
import { BuildingList } from '@/features/buildings/components/building-list';
import { useSession } from '@/lib/session';

export function Component() {
  const session = useSession();
  return <BuildingList sessionType={session?.type ?? 0} buildingFilter={<BuildingFilter allowAll />} />;
}
