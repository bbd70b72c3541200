import { z } from 'zod';
import { defineOperations, idParams } from '../operation.ts';

/** The depth camera's image size (docs/api-robot-arm.md): a press names a pixel of it. */
export const DEPTH_IMAGE_WIDTH = 640;
export const DEPTH_IMAGE_HEIGHT = 480;
export const ARM_SIDES = ['right', 'left'] as const;
export type ArmSide = (typeof ARM_SIDES)[number];

/** The robot's depth image now: a PNG (base64), grey near = bright, lit buttons amber. */
export const robotDepthImageSchema = z.object({
  contentType: z.literal('image/png'),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  /** base64 of the PNG */
  data: z.string(),
  /** When the portal received it (ISO 8601). */
  takenAt: z.string(),
});
export type RobotDepthImage = z.infer<typeof robotDepthImageSchema>;

/** Press with an arm where pixel (u, v) of the depth image shows (0-based, from the top left). */
export const armPressInputSchema = z
  .object({
    arm: z.enum(ARM_SIDES),
    u: z
      .number()
      .int()
      .min(0)
      .max(DEPTH_IMAGE_WIDTH - 1),
    v: z
      .number()
      .int()
      .min(0)
      .max(DEPTH_IMAGE_HEIGHT - 1),
  })
  .strict();
export type ArmPressInput = z.infer<typeof armPressInputSchema>;

/**
 * How a press ended: `hit` with the button's `target` (e.g. `hall-up`, `hall-down`, `car-2`,
 * `door-open`), or not, with the robot's `reason` (`no button there`, `out of reach`).
 */
export const armPressResultSchema = z.object({
  hit: z.boolean(),
  target: z.string().optional(),
  reason: z.string().optional(),
});
export type ArmPressResult = z.infer<typeof armPressResultSchema>;

/**
 * The robot's arm and depth camera (docs/api-robot-arm.md): the depth image to aim with, and a press
 * at one of its pixels that answers once the arm is done. Robots are looked up within the caller's
 * scope (another tenant's robot is "not found"); a press needs the controls when someone holds them.
 */
export const robotArmOps = defineOperations('robot-arm', {
  getRobotDepthImage: {
    method: 'GET',
    path: '/robots/:id/depth-image',
    access: 'user',
    params: idParams,
    responses: { 200: robotDepthImageSchema },
  },
  pressRobotButton: {
    method: 'POST',
    path: '/robots/:id/arm-press',
    access: 'user',
    params: idParams,
    body: armPressInputSchema,
    responses: { 200: armPressResultSchema },
  },
});
