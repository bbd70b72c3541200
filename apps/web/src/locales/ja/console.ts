import type { ConsoleMessages } from '../en/console';

/** Japanese texts of the robot console (section `console`). */
export const consoleJa: ConsoleMessages = {
  consoleScreen: {
    title: 'ロボットコンソール',
  },
};
