import type { TeleopMessages } from '../en/teleop';

/** Japanese texts of the teleoperation screens (section `teleop`). */
export const teleopJa: TeleopMessages = {
  teleopScreen: {
    title: '遠隔操作',
  },
};
