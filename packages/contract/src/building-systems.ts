import { z } from 'zod';

/**
 * Elevators and security doors a robot uses on a multi-floor flow (spec section 4 "Elevator and
 * security integration", section 8 codes). The portal talks to a building's systems through an
 * adapter (docs/building-systems.md); these are the words both sides share.
 */

/** The numbered phases of an elevator ride (spec section 4), 1-based in this order. */
export const ELEVATOR_PHASES = ['prep', 'call', 'boarding', 'movement', 'disembarking', 'emergency'] as const;
export type ElevatorPhase = (typeof ELEVATOR_PHASES)[number];

/** The numbered phases of a security-door passage (spec section 4), 1-based in this order. */
export const SECURITY_PHASES = ['prep', 'waiting', 'unlock', 'passage', 'failure', 'timeout'] as const;
export type SecurityPhase = (typeof SECURITY_PHASES)[number];

/** The status code of a phase as robots and logs carry it (`elv_boarding`, `sec_unlock`). */
export const elevatorStatusCode = (phase: ElevatorPhase) => `elv_${phase}` as const;
export const securityStatusCode = (phase: SecurityPhase) => `sec_${phase}` as const;

/**
 * Elevator codes (A0001-A0019): why a ride failed or stopped. The spec names the range and its
 * subjects (call, boarding, alighting, emergency stop, timeout); the catalogue below is the portal's.
 */
export const ELEVATOR_CODES = [
  'A0001', // the building's elevator system cannot be reached (or the building has none linked)
  'A0002', // the elevator system refused the call
  'A0003', // no car arrived in time
  'A0004', // the car that came was full
  'A0005', // the doors did not open on the boarding floor
  'A0006', // the robot did not board in time
  'A0007', // the doors closed before the robot had boarded
  'A0008', // the car did not leave
  'A0009', // the car did not reach the destination in time
  'A0010', // the car stopped at another floor
  'A0011', // the doors did not open on the destination floor
  'A0012', // the robot did not alight in time
  'A0013', // the elevator made an emergency stop
  'A0014', // the elevator is out of service
  'A0015', // the elevator is under fire or earthquake control
  'A0016', // the robot lost its position in the car
  'A0017', // the elevator does not serve that floor
  'A0018', // the ride was cancelled
  'A0019', // the connection to the elevator system was lost during the ride
] as const;
export type ElevatorCode = (typeof ELEVATOR_CODES)[number];

/** Security-door codes: S0020, S0023 and the S2201-S2404 range (door unlock refused and its kin). */
export const SECURITY_CODES = [
  'S0020', // the building's security system cannot be reached (or the building has none linked)
  'S0023', // the door did not unlock in time
  'S2201', // the security system refused to unlock the door
  'S2202', // the security system does not know the door
  'S2301', // the robot did not pass while the door was open
  'S2302', // the door closed while the robot was passing
  'S2401', // the door reports a fault
  'S2402', // the other door of the interlock is open
  'S2403', // the passage was cancelled
  'S2404', // the connection to the security system was lost during the passage
] as const;
export type SecurityCode = (typeof SECURITY_CODES)[number];

const floorIndex = z.number().int().min(-20).max(200);
const systemId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.-]+$/);

// ------------------------------------------------------------------ the building-systems HTTP protocol
// What the HTTP adapter sends and reads (docs/building-systems.md). The simulated building controller
// (robot-sim) answers it; a bridge to a real elevator or security vendor implements the same.

export const elevatorCallRequestSchema = z.object({
  /** The elevator bank (a group of cars serving the same floors). */
  bank: systemId,
  /** Floor indexes as the portal numbers them (1F=1, B1=0). */
  from: floorIndex,
  to: floorIndex,
  /** Who rides: the robot's serial number, for the building's logs. */
  rider: z.string().min(1).max(64),
});
export type ElevatorCallRequest = z.infer<typeof elevatorCallRequestSchema>;

/** Where a ride stands. `done` and `failed` are final; `emergency` holds until the building clears it. */
export const elevatorRideStatusSchema = z.object({
  id: z.string(),
  phase: z.enum([...ELEVATOR_PHASES, 'done', 'failed']),
  code: z.enum(ELEVATOR_CODES).nullable(),
  car: z.string().nullable(),
  /** The floor the car is at (or passing). */
  carFloor: floorIndex.nullable(),
  doorsOpen: z.boolean(),
});
export type ElevatorRideStatus = z.infer<typeof elevatorRideStatusSchema>;

export const doorPassRequestSchema = z.object({
  door: systemId,
  rider: z.string().min(1).max(64),
});
export type DoorPassRequest = z.infer<typeof doorPassRequestSchema>;

export const doorPassStatusSchema = z.object({
  id: z.string(),
  phase: z.enum([...SECURITY_PHASES, 'done']),
  code: z.enum(SECURITY_CODES).nullable(),
  open: z.boolean(),
});
export type DoorPassStatus = z.infer<typeof doorPassStatusSchema>;
