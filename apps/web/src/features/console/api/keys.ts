export const consoleKeys = {
  all: ['console'] as const,
  robot: (serialNo: string) => ['console', 'robot', serialNo] as const,
  console: (robotId: number) => ['console', robotId, 'console'] as const,
  log: (robotId: number) => ['console', robotId, 'log'] as const,
};

/** The console refreshes the robot's state and its message log this often. */
export const CONSOLE_POLL_MS = 1_000;
