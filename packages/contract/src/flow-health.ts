/**
 * The health check before a flow runs (issue 13; product-behaviour "Flows"): a robot starts a flow
 * only when it is online, its emergency stop is released, its battery is above the minimum, its
 * position is known on the flow's floor and it reports no hardware error. A failing check stops the
 * flow from starting and is written to the robot's activity log (kind healthCheck, code failed,
 * params `flowName` and `problems`: the problem codes below, comma-separated).
 */
export const HEALTH_PROBLEMS = [
  'offline',
  'emergencyStop',
  'lowBattery',
  'positionUnknown',
  'wrongFloor',
  'hardwareError',
] as const;
export type HealthProblem = (typeof HEALTH_PROBLEMS)[number];

/** A flow does not start below this charge (spec section 9: low charge threshold 20 %). */
export const FLOW_MIN_BATTERY_PERCENT = 20;
