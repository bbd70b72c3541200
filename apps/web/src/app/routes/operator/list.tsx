import { isSystemAdmin } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { BuildingFilter } from '@/components/building-filter';
import { OperatorList } from '@/features/operators/components/operator-list';
import { RequirePeopleAdmin } from '../shared/require-people-admin';

export function Component() {
  const { t } = useTranslation();
  return (
    <RequirePeopleAdmin>
      {(session) => (
        <OperatorList
          showOrganization={isSystemAdmin(session.type)}
          buildingFilter={<BuildingFilter allowAll label={t('people.op.building')} />}
        />
      )}
    </RequirePeopleAdmin>
  );
}
