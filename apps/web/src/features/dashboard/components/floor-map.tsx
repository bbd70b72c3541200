import { Text } from '@mantine/core';
import type { FleetRobot, FloorDetail } from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { statusColors } from '@/components/robot-status';

interface Placed {
  robot: FleetRobot;
  x: number;
  y: number;
  /** Heading in map coordinates (y grows upwards): the arrow points at (cos, sin). */
  theta: number;
}

interface Frame {
  width: number;
  height: number;
  /** Map metres to drawing units (y downwards). */
  toView: (x: number, y: number) => [number, number];
  /** Drawing units per metre. */
  unitsPerMeter: number;
  image: { href: string } | null;
  grid: { x0: number; y0: number; x1: number; y1: number; step: number } | null;
}

const niceSteps = [0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500];
const niceStep = (span: number, lines: number) => niceSteps.find((s) => span / s <= lines) ?? 1000;

/** Image frame: a pixel is ((x - originX) / resolution, imgHeight - (y - originY) / resolution). */
function imageFrame(floor: FloorDetail): Frame | null {
  const { img, imgWidth, imgHeight, resolution, originX, originY } = floor;
  if (!img || !imgWidth || !imgHeight || !resolution || originX === null || originY === null) return null;
  return {
    width: imgWidth,
    height: imgHeight,
    toView: (x, y) => [(x - originX) / resolution, imgHeight - (y - originY) / resolution],
    unitsPerMeter: 1 / resolution,
    image: { href: img },
    grid: null,
  };
}

/** Metric frame fitted to the robots (at least 10 m across, 2 m margin), one unit per centimetre. */
function metricFrame(placed: readonly Placed[]): Frame {
  const xs = placed.map((p) => p.x);
  const ys = placed.map((p) => p.y);
  const cx = xs.length ? (Math.min(...xs) + Math.max(...xs)) / 2 : 0;
  const cy = ys.length ? (Math.min(...ys) + Math.max(...ys)) / 2 : 0;
  const spanX = Math.max(10, (xs.length ? Math.max(...xs) - Math.min(...xs) : 0) + 4);
  const spanY = Math.max(10, (ys.length ? Math.max(...ys) - Math.min(...ys) : 0) + 4);
  const step = niceStep(Math.max(spanX, spanY), 12);
  const x0 = Math.floor((cx - spanX / 2) / step) * step;
  const x1 = Math.ceil((cx + spanX / 2) / step) * step;
  const y0 = Math.floor((cy - spanY / 2) / step) * step;
  const y1 = Math.ceil((cy + spanY / 2) / step) * step;
  const u = 100;
  return {
    width: (x1 - x0) * u,
    height: (y1 - y0) * u,
    toView: (x, y) => [(x - x0) * u, (y1 - y) * u],
    unitsPerMeter: u,
    image: null,
    grid: { x0, y0, x1, y1, step },
  };
}

interface FloorMapProps {
  floor: FloorDetail;
  robots: readonly FleetRobot[];
}

/** Live robot positions on a floor: over the floor's map image when it has one, else on a metric grid. */
export function FloorMap({ floor, robots }: FloorMapProps) {
  const { t } = useTranslation();
  const placed: Placed[] = [];
  for (const r of robots) {
    const p = r.live.position;
    if (p) placed.push({ robot: r, x: p.x, y: p.y, theta: p.theta });
  }
  const frame = imageFrame(floor) ?? metricFrame(placed);
  const size = Math.max(frame.width, frame.height);
  const dot = size / 90;
  const font = size / 55;
  const stroke = size / 600;
  const scaleMeters = niceStep(frame.width / frame.unitsPerMeter, 5);
  const scaleLen = scaleMeters * frame.unitsPerMeter;

  return (
    <div data-testid="dashboard-floor-map" style={{ width: '100%' }}>
      <svg
        viewBox={`0 0 ${frame.width} ${frame.height}`}
        role="img"
        aria-label={t('dashboard.mapLabel', { floor: floor.name })}
        style={{
          width: '100%',
          maxHeight: '65vh',
          display: 'block',
          background: 'var(--mantine-color-default)',
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 4,
        }}
        preserveAspectRatio="xMidYMid meet"
      >
        {frame.image && <image href={frame.image.href} x={0} y={0} width={frame.width} height={frame.height} />}
        {frame.grid && (
          <g stroke="var(--mantine-color-default-border)" strokeWidth={stroke}>
            {Array.from({ length: Math.round((frame.grid.x1 - frame.grid.x0) / frame.grid.step) + 1 }, (_, i) => {
              const x = i * frame.grid!.step * frame.unitsPerMeter;
              return <line key={`x${i}`} x1={x} y1={0} x2={x} y2={frame.height} />;
            })}
            {Array.from({ length: Math.round((frame.grid.y1 - frame.grid.y0) / frame.grid.step) + 1 }, (_, i) => {
              const y = i * frame.grid!.step * frame.unitsPerMeter;
              return <line key={`y${i}`} x1={0} y1={y} x2={frame.width} y2={y} />;
            })}
          </g>
        )}
        {placed.map(({ robot, x, y, theta }) => {
          const [vx, vy] = frame.toView(x, y);
          const color = `var(--mantine-color-${statusColors[robot.live.statusLabel]}-6)`;
          const dx = Math.cos(theta);
          const dy = -Math.sin(theta);
          const tip: [number, number] = [vx + dx * dot * 2.4, vy + dy * dot * 2.4];
          const side = dot * 0.7;
          const base: [number, number] = [vx + dx * dot * 1.3, vy + dy * dot * 1.3];
          const arrow = [tip, [base[0] - dy * side, base[1] + dx * side], [base[0] + dy * side, base[1] - dx * side]]
            .map((p) => p.join(','))
            .join(' ');
          return (
            <g key={robot.id} data-testid={`map-robot-${robot.serialNo}`} data-status={robot.live.statusLabel}>
              <title>{`${robot.name} (${robot.serialNo}): ${t(`robotCommon.statusLabels.${robot.live.statusLabel}`)}`}</title>
              <polygon points={arrow} fill={color} />
              <circle cx={vx} cy={vy} r={dot} fill={color} stroke="white" strokeWidth={stroke * 2} />
              <text
                x={vx + dot * 1.4}
                y={vy - dot * 1.4}
                fontSize={font}
                fill="var(--mantine-color-text)"
                stroke="var(--mantine-color-body)"
                strokeWidth={font / 6}
                paintOrder="stroke"
              >
                {robot.name}
              </text>
            </g>
          );
        })}
        <g transform={`translate(${frame.width * 0.03}, ${frame.height * 0.95})`} data-testid="map-scale">
          <line x1={0} y1={0} x2={scaleLen} y2={0} stroke="var(--mantine-color-text)" strokeWidth={stroke * 3} />
          <line
            x1={0}
            y1={-font / 3}
            x2={0}
            y2={font / 3}
            stroke="var(--mantine-color-text)"
            strokeWidth={stroke * 3}
          />
          <line
            x1={scaleLen}
            y1={-font / 3}
            x2={scaleLen}
            y2={font / 3}
            stroke="var(--mantine-color-text)"
            strokeWidth={stroke * 3}
          />
          <text x={scaleLen / 2} y={-font / 2} fontSize={font} textAnchor="middle" fill="var(--mantine-color-text)">
            {t('dashboard.scale', { meters: scaleMeters })}
          </text>
        </g>
      </svg>
      {placed.length === 0 && (
        <Text size="sm" c="dimmed" mt="xs">
          {t('dashboard.noPositions')}
        </Text>
      )}
    </div>
  );
}
