import { fleetTopic, type FleetRobot } from '@portal/contract';
import { useEffect } from 'react';
import { useFleet } from '@/lib/realtime';
import type { RobotMark } from '../canvas/draw';
import type { LiveSource } from '../canvas/live-source';

/** The floor a robot is on: its pose's floor when it has one. */
export const robotFloor = (r: FleetRobot): number | null => r.live.position?.floorId ?? r.live.floorId;

/**
 * Feeds the canvas's live layer: robots on this floor, once per poses frame. Renders nothing, so a
 * pose frame re-renders only this component and redraws only the live layer.
 */
export function LiveFeed({ buildingId, floorId, live }: { buildingId: number; floorId: number; live: LiveSource }) {
  const fleet = useFleet(fleetTopic(buildingId));
  useEffect(() => {
    const marks: RobotMark[] = [];
    for (const r of fleet.robots.values()) {
      const p = r.live.position;
      if (!p || p.floorId !== floorId) continue;
      marks.push({
        id: r.id,
        name: r.name,
        x: p.x,
        y: p.y,
        theta: p.theta,
        color: r.live.online ? '#12b886' : '#868e96',
      });
    }
    live.set(marks);
  }, [fleet.robots, floorId, live]);
  return null;
}
