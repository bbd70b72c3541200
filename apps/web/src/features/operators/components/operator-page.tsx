import { Anchor, Badge, Group, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { useFormat } from '@/lib/format';
import { useOperator } from '../api/get-operator';
import { isLocked, OperatorActions } from './operator-actions';
import { OperatorForm } from './operator-form';

interface Viewer {
  id: number;
  type: number;
  organizationId: number;
}

function BackLink() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={paths.operator.list.getHref()} size="sm">
      ← {t('people.back')}
    </Anchor>
  );
}

export function OperatorCreatePage({ viewer }: { viewer: Viewer }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <BackLink />
      <Title order={1} size="h2">
        {t('people.op.createTitle')}
      </Title>
      <OperatorForm viewer={viewer} />
    </Stack>
  );
}

export function OperatorPage({ id, viewer }: { id: number; viewer: Viewer }) {
  const { t } = useTranslation();
  const format = useFormat();
  const operator = useOperator(id);
  if (operator.isPending) return <PageLoader />;
  if (operator.isError) return <QueryError error={operator.error} onRetry={() => void operator.refetch()} />;
  const op = operator.data;
  return (
    <Stack>
      <BackLink />
      <Group gap="sm">
        <Title order={1} size="h2">
          {t('people.op.editTitle', {
            name: t('people.op.fullName', { lastName: op.lastName, firstName: op.firstName }),
          })}
        </Title>
        {isLocked(op) && (
          <Badge color="red" variant="light" data-testid="operator-locked">
            {t('people.op.locked')}
          </Badge>
        )}
        {op.mustChangePassword && (
          <Badge color="orange" variant="light">
            {t('people.op.mustChangePassword')}
          </Badge>
        )}
      </Group>
      <Group gap="xl">
        <span>
          {t('people.op.lastLogin')}: {op.lastLoginAt ? format.dateTime(op.lastLoginAt) : t('people.op.never')}
        </span>
      </Group>
      <OperatorForm operator={op} viewer={viewer} onReload={async () => (await operator.refetch()).data} />
      <OperatorActions operator={op} self={op.id === viewer.id} />
    </Stack>
  );
}
