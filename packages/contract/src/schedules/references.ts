import { z } from 'zod';
import { cameraIdSchema } from '../teleop.ts';

/**
 * A reference image of a schedule entry (docs/api-schedules.md "Start position"): a photo taken at
 * the flow's start position, compared with what the camera sees before each due occurrence starts.
 */
export const scheduleReferenceSchema = z.object({
  camera: cameraIdSchema,
  /** A signed URL an `<img>` can load (expires). */
  url: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  takenAt: z.string(),
  /** The robot and flow it was taken for; one of another robot or flow is not used. */
  robotId: z.number().int(),
  flowId: z.number().int(),
  /** The robot's reported position then (for the operator; the check compares images). */
  pose: z.object({ x: z.number(), y: z.number(), theta: z.number(), mapId: z.string() }).nullable(),
});
export type ScheduleReference = z.infer<typeof scheduleReferenceSchema>;
