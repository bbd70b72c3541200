import { Anchor, Paper, Stack, Title } from '@mantine/core';
import type { CreatedRobot } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { CredentialsModal } from './credentials-modal';
import { emptyRobotForm, RobotForm } from './robot-form';

interface RobotCreateProps {
  /** From "Register" of a pending robot (`?serial=`). */
  serialNo?: string;
  /** The operator's current building, preselected. */
  buildingId?: number | null;
}

/** /robot/create: register, then show the broker credentials once, then go to the robot page. */
export function RobotCreate({ serialNo = '', buildingId }: RobotCreateProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [created, setCreated] = useState<CreatedRobot | null>(null);

  return (
    <Stack>
      <Anchor component={Link} to={paths.robot.list.getHref()} size="sm">
        ← {t('robotRegistry.back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('robotRegistry.createTitle')}
      </Title>
      <Paper withBorder p="md">
        <RobotForm initial={emptyRobotForm(serialNo, buildingId ?? undefined)} onCreated={setCreated} />
      </Paper>
      <CredentialsModal
        credentials={created?.credentials ?? null}
        onDone={() => {
          const id = created?.robot.id;
          setCreated(null);
          if (id !== undefined) void navigate(paths.robot.detail.getHref(id), { replace: true });
        }}
      />
    </Stack>
  );
}
