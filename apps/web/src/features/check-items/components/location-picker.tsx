import { Loader, Stack, Text } from '@mantine/core';
import { emptyMapDocument } from '@portal/contract';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { FloorSketch, type SketchFrame } from '@/components/floor-sketch';
import { useFloorMap } from '../api';

export interface Placement {
  x: number | null;
  y: number | null;
  /** Radians in [-π, π], counter-clockwise from the map's x axis (like a waypoint's theta). */
  direction: number;
}

const emptyDoc = emptyMapDocument();
const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;
/** A press moved at least this far (metres) is a drag that sets the direction. */
const DRAG_METRES = 0.15;

/**
 * The check item's location and direction on its floor's map (the shared floor sketch: the map image,
 * waypoints and routes): a press places the item, dragging from there points it. Without a map the
 * item is placed on a grid of metres around the origin.
 */
export function LocationPicker({
  floorId,
  floorName,
  value,
  onChange,
  disabled,
}: {
  floorId: number;
  floorName: string;
  value: Placement;
  onChange: (next: Placement) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const map = useFloorMap(floorId);
  const anchor = useRef<{ x: number; y: number } | null>(null);
  if (map.isPending) {
    return (
      <Stack align="center" p="md">
        <Loader size="sm" aria-label={t('checkItems.form.mapLoading')} />
      </Stack>
    );
  }
  const doc = map.data?.document ?? emptyDoc;
  const image = map.data?.image ?? null;
  // While a number is being typed ("-") it is NaN: drawn once it is a number.
  const placed = Number.isFinite(value.x) && Number.isFinite(value.y);
  const heading = Number.isFinite(value.direction) ? value.direction : 0;
  const hasMap = image !== null || doc.waypoints.length > 0;
  // Without a map: 20 m around the origin (and the item), so there is room to place it.
  const extent = [
    ...(placed ? [{ x: value.x!, y: value.y! }] : []),
    ...(hasMap
      ? []
      : [
          { x: -10, y: -10 },
          { x: 10, y: 10 },
        ]),
  ];

  const grid = (f: SketchFrame) => {
    if (hasMap) return null;
    const xs = extent.map((p) => p.x);
    const ys = extent.map((p) => p.y);
    const [x0, x1] = [Math.floor(Math.min(...xs)), Math.ceil(Math.max(...xs))];
    const [y0, y1] = [Math.floor(Math.min(...ys)), Math.ceil(Math.max(...ys))];
    const lines = [];
    for (let x = x0; x <= x1; x++)
      lines.push(<line key={`x${x}`} x1={f.px(x)} y1={f.py(y0)} x2={f.px(x)} y2={f.py(y1)} />);
    for (let y = y0; y <= y1; y++)
      lines.push(<line key={`y${y}`} x1={f.px(x0)} y1={f.py(y)} x2={f.px(x1)} y2={f.py(y)} />);
    return (
      <g stroke="var(--mantine-color-gray-3)" strokeWidth={f.r * 0.15} data-testid="check-item-grid">
        {lines}
      </g>
    );
  };

  const marker = (f: SketchFrame) => {
    if (!placed) return null;
    const cx = f.px(value.x!);
    const cy = f.py(value.y!);
    const dx = Math.cos(heading);
    const dy = -Math.sin(heading);
    const len = f.r * 7;
    const tip = [cx + dx * len, cy + dy * len];
    const side = f.r * 1.4;
    const base = [cx + dx * (len - side * 1.6), cy + dy * (len - side * 1.6)];
    const head = [tip, [base[0]! - dy * side, base[1]! + dx * side], [base[0]! + dy * side, base[1]! - dx * side]]
      .map((p) => p.join(','))
      .join(' ');
    return (
      <g data-testid="check-item-marker" pointerEvents="none">
        <line
          x1={cx}
          y1={cy}
          x2={base[0]}
          y2={base[1]}
          stroke="var(--mantine-color-orange-7)"
          strokeWidth={f.r * 0.7}
          strokeLinecap="round"
        />
        <polygon points={head} fill="var(--mantine-color-orange-7)" />
        <circle
          cx={cx}
          cy={cy}
          r={f.r * 1.7}
          fill="var(--mantine-color-orange-6)"
          stroke="white"
          strokeWidth={f.r * 0.3}
        />
      </g>
    );
  };

  return (
    <Stack gap={4}>
      {!hasMap && (
        <Text size="sm" c="dimmed" data-testid="check-item-no-map">
          {t('checkItems.form.noMap')}
        </Text>
      )}
      <FloorSketch
        document={doc}
        image={image}
        extent={extent}
        unit={0.012}
        maxHeight={460}
        label={t('checkItems.form.mapLabel', { floor: floorName })}
        path={[]}
        pathColor="transparent"
        targets={[]}
        under={grid}
        over={marker}
        testId="check-item-map"
        onPointer={
          disabled
            ? undefined
            : (phase, p) => {
                if (phase === 'down') {
                  anchor.current = { x: round(p.x, 2), y: round(p.y, 2) };
                  onChange({ ...value, ...anchor.current });
                  return;
                }
                const from = anchor.current;
                if (!from) return;
                if (phase === 'up') anchor.current = null;
                const dx = p.x - from.x;
                const dy = p.y - from.y;
                if (Math.hypot(dx, dy) >= DRAG_METRES)
                  onChange({ x: from.x, y: from.y, direction: round(Math.atan2(dy, dx), 4) });
              }
        }
      />
    </Stack>
  );
}
