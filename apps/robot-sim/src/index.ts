/**
 * Simulated VDA 5050 robots: a library for the server's tests, the e2e tests, the benchmarks and the
 * server's demo fleet (README.md documents the API).
 */
export { startRobot, startFleet, type RobotOptions, type SimRobot, type SimFleet } from './robot.ts';
export {
  RobotCore,
  FAULTS,
  routeProblem,
  type Fault,
  type Pose,
  type CoreOptions,
  type Emit,
  type OutTopic,
  type PublishTopic,
} from './core.ts';
export {
  worldFor,
  generateWorld,
  createWorld,
  setGaugeValue,
  rasterize,
  gridFrame,
  WORLD_MARGIN,
  WALL_THICKNESS,
  type World,
  type Rect,
  type Raster,
} from './world.ts';
export {
  createGauge,
  demoGauges,
  gaugeAngle,
  gaugeViewpoint,
  GAUGE_QR_SIDE,
  GAUGE_DIAL_OFFSET,
  GAUGE_DIAL_RADIUS,
  GAUGE_START_ANGLE,
  GAUGE_SWEEP,
  type Gauge,
  type GaugeSpec,
} from './gauges.ts';
export {
  MappingSession,
  SENSOR_RANGE,
  SENSOR_RAYS,
  SCAN_MIN_MOVE,
  SCAN_MIN_TURN,
  SCAN_MAX_GAP_MS,
  MAPPING_PUBLISH_MS,
} from './mapping.ts';
export { MODEL_SPECS, SIM_INSTANT_ACTIONS, SIM_MAPPING_ACTIONS, SIM_ORDER_ACTIONS, type ModelSpec } from './models.ts';
export * from './messages.ts';
export { TICK_MS, Ticker, ManualClock, realClock, type Clock } from './ticker.ts';
export { TeleopController, type ControllerStatus, type DriveTarget } from './teleop/controller.ts';
export { RobotFeatures } from './features.ts';
export {
  ButtonBoard,
  demoButtonPanels,
  panelViewpoint,
  floorLabel,
  BUTTON_LIGHT_SECONDS,
  type ButtonPanel,
  type PanelButton,
  type ButtonTarget,
  type ButtonBuilding,
} from './buttons.ts';
export {
  captureDepth,
  renderDepthRgba,
  depthAt,
  projectPoint,
  buttonPixel,
  DEPTH_WIDTH,
  DEPTH_HEIGHT,
  DEPTH_FOCAL,
  DEPTH_CAMERA,
  type DepthView,
  type DepthHit,
} from './depth.ts';
export { ARM_REACH, ARM_SHOULDER } from './models.ts';
export { ARM_PRESS_SECONDS, PRESS_MISSES } from './features.ts';
export { capturePhoto, stillPng, downscaleRgba, PHOTO_WIDTH, PHOTO_HEIGHT } from './photo.ts';
export {
  ElevatorBank,
  ELEVATOR_TIMINGS,
  NO_FAULTS,
  type ElevatorTimings,
  type ElevatorFaults,
} from './building-systems/elevator.ts';
export {
  SecurityDoor,
  DOOR_TIMINGS,
  NO_DOOR_FAULTS,
  type DoorTimings,
  type DoorFaults,
} from './building-systems/security-door.ts';
export {
  startBuildingSystems,
  type BuildingSystemsOptions,
  type SimBuildingSystems,
} from './building-systems/controller.ts';
