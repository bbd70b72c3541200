import { LOW_BATTERY_PERCENT, RobotErrorType, type VdaError } from '@portal/contract';

/** Faults a test (or the CLI) can inject; each becomes an entry of `state.errors`. */
export type Fault = 'emergencyStop' | 'obstacle' | 'lowBattery' | 'hardwareError' | 'motorTemperatureHigh';
export const FAULTS: readonly Fault[] = [
  'emergencyStop',
  'obstacle',
  'lowBattery',
  'hardwareError',
  'motorTemperatureHigh',
];

const FAULT_ERRORS: Record<Exclude<Fault, 'lowBattery'>, VdaError> = {
  emergencyStop: {
    errorType: RobotErrorType.emergencyStop,
    errorLevel: 'FATAL',
    errorDescription: 'Emergency stop pressed',
  },
  obstacle: {
    errorType: RobotErrorType.obstacleOnRoute,
    errorLevel: 'WARNING',
    errorDescription: 'Obstacle on the route: waiting for it to clear',
  },
  hardwareError: {
    errorType: RobotErrorType.hardwareError,
    errorLevel: 'FATAL',
    errorDescription: 'Hardware error',
  },
  motorTemperatureHigh: {
    errorType: RobotErrorType.motorTemperatureHigh,
    errorLevel: 'WARNING',
    errorDescription: 'Motor temperature high: speed reduced',
  },
};
const LOW_BATTERY_ERROR: VdaError = {
  errorType: RobotErrorType.lowBattery,
  errorLevel: 'WARNING',
  errorDescription: 'Battery low',
};
const EMPTY_BATTERY_ERROR: VdaError = {
  errorType: RobotErrorType.lowBattery,
  errorLevel: 'FATAL',
  errorDescription: 'Battery empty',
};
const MANUAL_OBSTACLE_ERROR: VdaError = {
  errorType: 'F0005',
  errorLevel: 'WARNING',
  errorDescription: 'Obstacle in the specified direction: manual driving stopped',
};

/** Motor temperature high: the robot drives at this fraction of its speed. */
export const MOTOR_HOT_SPEED_FACTOR = 0.5;

/**
 * The injected faults (except lowBattery, which is the battery level itself) and the errors the
 * state reports for them.
 */
export class Faults {
  private readonly set = new Set<Exclude<Fault, 'lowBattery'>>();

  has(f: Exclude<Fault, 'lowBattery'>): boolean {
    return this.set.has(f);
  }

  /** false when it was already injected. */
  add(f: Exclude<Fault, 'lowBattery'>): boolean {
    if (this.set.has(f)) return false;
    this.set.add(f);
    return true;
  }

  /** false when it was not injected. */
  delete(f: Exclude<Fault, 'lowBattery'>): boolean {
    return this.set.delete(f);
  }

  /** A fault that keeps the robot from driving an order. */
  holdsOrder(): boolean {
    return this.set.has('emergencyStop') || this.set.has('obstacle') || this.set.has('hardwareError');
  }

  /** A fault that keeps the robot from manual driving, or null. */
  holdsManual(): 'emergencyStop' | 'hardwareError' | null {
    if (this.set.has('emergencyStop')) return 'emergencyStop';
    if (this.set.has('hardwareError')) return 'hardwareError';
    return null;
  }

  speedFactor(): number {
    return this.set.has('motorTemperatureHigh') ? MOTOR_HOT_SPEED_FACTOR : 1;
  }

  /** `state.errors` of the faults, manual obstacle and battery (rejections come after them). */
  errors(manualObstacle: boolean, reportedBattery: number): VdaError[] {
    const out: VdaError[] = [];
    for (const f of FAULTS) if (f !== 'lowBattery' && this.set.has(f)) out.push(FAULT_ERRORS[f]);
    if (manualObstacle) out.push(MANUAL_OBSTACLE_ERROR);
    if (reportedBattery <= 0) out.push(EMPTY_BATTERY_ERROR);
    else if (reportedBattery < LOW_BATTERY_PERCENT) out.push(LOW_BATTERY_ERROR);
    return out;
  }
}
