import { Alert, Anchor, Stack } from '@mantine/core';
import type { RobotTeleop } from '@portal/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { useRobotBySerial } from '../api/get-robot-by-serial';
import { useRobotTeleop } from '../api/get-robot-teleop';

/** Finds the robot of the URL's serial number and what the operator screens need of it. */
export function RobotGate({ serialNo, children }: { serialNo: string; children: (teleop: RobotTeleop) => ReactNode }) {
  const { t } = useTranslation();
  const robot = useRobotBySerial(serialNo);
  const teleop = useRobotTeleop(robot.data?.id ?? null);
  const error = robot.error ?? teleop.error;
  if (error) {
    if (isApiError(error) && (error.code === 'NOT_FOUND' || error.code === 'FORBIDDEN'))
      return (
        <Stack>
          <Alert color="red" role="alert" data-testid="teleop-not-found">
            {t('teleopScreen.notFound', { serialNo })}
          </Alert>
          <Anchor component={Link} to={paths.robot.control.getHref()}>
            {t('nav.robotControl')}
          </Anchor>
        </Stack>
      );
    return <QueryError error={error} onRetry={() => void (robot.isError ? robot.refetch() : teleop.refetch())} />;
  }
  if (!teleop.data) return <PageLoader />;
  return <>{children(teleop.data)}</>;
}
