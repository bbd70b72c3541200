import { isSystemAdmin } from '@portal/contract';
import { useParams } from 'react-router';
import { BuildingPage } from '@/features/buildings/components/building-page';
import { FloorTable } from '@/features/floors/components/floor-table';
import { TriggerSection } from '@/features/triggers/components/trigger-section';
import { useSession } from '@/lib/session';
import { idParam, InvalidId } from '../shared/invalid-id';

export function Component() {
  const session = useSession();
  const id = idParam(useParams().id);
  if (id === null) return <InvalidId />;
  return (
    <BuildingPage
      key={id}
      id={id}
      sessionType={session?.type ?? 0}
      floors={(b) => <FloorTable buildingId={b.id} canManage={b.canManage} />}
      triggers={(b) => (
        <TriggerSection
          buildingId={b.id}
          organizationId={b.organizationId}
          canManage={b.canManage}
          systemAdmin={isSystemAdmin(session?.type ?? 0)}
        />
      )}
    />
  );
}
