/**
 * What other modules need to know about robots when a building or floor goes (the SQL is in the
 * robot repository): live robots keep it in use; deleted robots and their history go with it.
 */
export { liveRobotCount, purgeDeletedRobots, type RobotPlace } from './robot-repo.ts';
