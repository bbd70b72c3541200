import { SegmentedControl, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DepthPress } from './depth-press';

/** The operator screen's "Arm" tab for a robot with an arm: choose the arm, press on the depth image. */
export function ArmPanel({ robotId, serialNo }: { robotId: number; serialNo: string }) {
  const { t } = useTranslation();
  const [arm, setArm] = useState<'right' | 'left'>('right');
  return (
    <Stack gap="sm">
      <SegmentedControl
        value={arm}
        onChange={(v) => setArm(v === 'left' ? 'left' : 'right')}
        aria-label={t('depthPress.armLabel')}
        data={[
          { value: 'right', label: t('depthPress.armChoice.right') },
          { value: 'left', label: t('depthPress.armChoice.left') },
        ]}
      />
      <DepthPress robotId={String(robotId)} serialNo={serialNo} arm={arm} />
    </Stack>
  );
}
