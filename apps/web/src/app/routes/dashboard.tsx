import { BuildingFilter } from '@/components/building-filter';
import { Dashboard } from '@/features/dashboard/components/dashboard';
import { useSession } from '@/lib/session';

export function Component() {
  const session = useSession();
  return (
    <Dashboard
      defaultBuildingId={session?.buildingId ?? null}
      buildingFilter={<BuildingFilter resetParams={['floor']} />}
    />
  );
}
