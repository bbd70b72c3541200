import type {
  DoorPassRequest,
  DoorPassStatus,
  ElevatorCallRequest,
  ElevatorCode,
  ElevatorRideStatus,
  SecurityCode,
} from '@portal/contract';

/**
 * What the portal needs from a building's elevators and security doors (docs/building-systems.md).
 * One adapter per building, chosen from the building's system links; the flow runner drives rides
 * and passages through it and never talks to a vendor's API itself.
 *
 * Every method either answers the system's view (a status with its phase and code) or throws a
 * `BuildingSystemError` with the code the portal shows (A0001/S0020 when the system cannot be reached
 * at the start, A0019/S2404 when it is lost on the way).
 */
export interface BuildingSystemsAdapter {
  /** A short name for logs ("http http://10.0.0.5:8080"). */
  readonly name: string;
  /** The elevator banks and the floors (indexes) each serves; the runner rides the first serving both floors. */
  banks(): Promise<Array<{ id: string; floors: number[]; outOfService?: boolean }>>;
  callElevator(req: ElevatorCallRequest): Promise<ElevatorRideStatus>;
  rideStatus(rideId: string): Promise<ElevatorRideStatus>;
  /** The robot is in the car; answers false when the system was not boarding (the doors had closed). */
  boarded(rideId: string): Promise<boolean>;
  /** The robot is out of the car; answers false when the system was not waiting for it. */
  alighted(rideId: string): Promise<boolean>;
  cancelRide(rideId: string): Promise<void>;
  requestDoor(req: DoorPassRequest): Promise<DoorPassStatus>;
  passStatus(passId: string): Promise<DoorPassStatus>;
  passed(passId: string): Promise<boolean>;
  cancelPass(passId: string): Promise<void>;
}

/** A ride or passage that did not go through, with the code of spec section 8 that says why. */
export class BuildingSystemError extends Error {
  constructor(
    readonly code: ElevatorCode | SecurityCode,
    message: string,
  ) {
    super(message);
    this.name = 'BuildingSystemError';
  }
}
