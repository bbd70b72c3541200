import type { RobotCredentials } from '@portal/contract';
import { newToken, sha256 } from '../../lib/crypto.ts';

/** The VDA 5050 manufacturer topic level of robots registered here. */
export const ROBOT_MANUFACTURER = 'ugo';
/** The VDA 5050 interface name (first topic level). */
export const ROBOT_INTERFACE_NAME = 'uagv';

/** The broker user name of a robot: exactly `robot-{serialNo}` (the broker maps it back to the serial). */
export const mqttUsernameOf = (serialNo: string): string => `robot-${serialNo}`;

/** A new broker password (32 random bytes, base64url) and its SHA-256 (hex), which is all that is stored. */
export function newRobotPassword(): { password: string; hash: string } {
  const password = newToken();
  return { password, hash: sha256(password) };
}

/**
 * What a robot is told once, at registration and at rotation. `mqttUrl` is the broker address the
 * robot link gives robots (MQTT_PUBLIC_URL, else the embedded broker's or MQTT_URL without user info).
 */
export const credentialsOf = (
  mqttUrl: string,
  robot: { serial_no: string; mqtt_username: string; manufacturer: string },
  password: string,
): RobotCredentials => ({
  mqttUrl,
  username: robot.mqtt_username,
  password,
  manufacturer: robot.manufacturer,
  serialNumber: robot.serial_no,
  interfaceName: ROBOT_INTERFACE_NAME,
});
