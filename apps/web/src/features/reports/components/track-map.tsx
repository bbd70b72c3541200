import { Text } from '@mantine/core';
import { WaypointType, type ReportTrack } from '@portal/contract';
import { useFloorMap } from '../api';
import { useReportWords } from '../words';

export interface PhotoMarker {
  /** The photo's number in the report's photo list (1, 2, ...). */
  number: number;
  x: number;
  y: number;
  onClick?: () => void;
}

/**
 * The path driven on one floor, over the floor map's waypoints and routes (grey) when the floor has a
 * map: start (green), end (square), and numbered markers where photos were taken. Map y points up.
 */
export function TrackMap({ track, markers }: { track: ReportTrack; markers: PhotoMarker[] }) {
  const { t } = useReportWords();
  const map = useFloorMap(track.floorId);
  const doc = map.data?.document;
  const waypoints = (doc?.waypoints ?? []).filter((w) => w.type !== WaypointType.invisible);
  const xs = [...track.points.map((p) => p[0]), ...markers.map((m) => m.x), ...waypoints.map((w) => w.x)];
  const ys = [...track.points.map((p) => p[1]), ...markers.map((m) => m.y), ...waypoints.map((w) => w.y)];
  if (xs.length === 0) return <Text c="dimmed">{t('reports.detail.noTrack')}</Text>;
  const minX = Math.min(...xs);
  const maxX = Math.max(...xs);
  const minY = Math.min(...ys);
  const maxY = Math.max(...ys);
  const span = Math.max(maxX - minX, maxY - minY, 1);
  const pad = span * 0.06;
  const r = span * 0.012;
  const px = (x: number) => x - minX + pad;
  const py = (y: number) => maxY - y + pad;
  const byId = new Map(waypoints.map((w) => [w.id, w]));
  const first = track.points[0];
  const last = track.points.at(-1);
  return (
    <>
      {map.isError && (
        <Text size="sm" c="dimmed">
          {t('reports.detail.noMap')}
        </Text>
      )}
      <svg
        viewBox={`0 0 ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`}
        width="100%"
        style={{ maxHeight: 420, background: 'var(--mantine-color-gray-0)', borderRadius: 4 }}
        role="img"
        aria-label={t('reports.detail.mapLabel', { floor: track.floorName })}
        data-testid={`track-map-${track.floorId}`}
      >
        {(doc?.edges ?? []).map((e) => {
          const a = byId.get(e.from);
          const b = byId.get(e.to);
          return a && b ? (
            <line
              key={e.id}
              x1={px(a.x)}
              y1={py(a.y)}
              x2={px(b.x)}
              y2={py(b.y)}
              stroke="var(--mantine-color-gray-4)"
              strokeWidth={r * 0.6}
            />
          ) : null;
        })}
        {waypoints.map((w) => (
          <circle key={w.id} cx={px(w.x)} cy={py(w.y)} r={r * 0.7} fill="var(--mantine-color-gray-5)">
            <title>{w.name}</title>
          </circle>
        ))}
        {track.points.length > 1 && (
          <polyline
            points={track.points.map(([x, y]) => `${px(x)},${py(y)}`).join(' ')}
            fill="none"
            stroke="var(--mantine-color-blue-6)"
            strokeWidth={r * 0.8}
            strokeLinejoin="round"
            strokeLinecap="round"
            data-testid="track-path"
          />
        )}
        {first && <circle cx={px(first[0])} cy={py(first[1])} r={r * 1.3} fill="var(--mantine-color-green-6)" />}
        {last && track.points.length > 1 && (
          <rect
            x={px(last[0]) - r * 1.1}
            y={py(last[1]) - r * 1.1}
            width={r * 2.2}
            height={r * 2.2}
            fill="var(--mantine-color-dark-5)"
          />
        )}
        {markers.map((m) => (
          <g
            key={m.number}
            onClick={m.onClick}
            style={m.onClick ? { cursor: 'pointer' } : undefined}
            role={m.onClick ? 'button' : undefined}
            aria-label={t('reports.detail.photoMarker', { n: m.number })}
            data-testid={`photo-marker-${m.number}`}
          >
            <title>{t('reports.detail.photoMarker', { n: m.number })}</title>
            <circle
              cx={px(m.x)}
              cy={py(m.y)}
              r={r * 2}
              fill="var(--mantine-color-orange-6)"
              stroke="white"
              strokeWidth={r * 0.3}
            />
            <text
              x={px(m.x)}
              y={py(m.y)}
              fontSize={r * 2.2}
              fill="white"
              textAnchor="middle"
              dominantBaseline="central"
              fontWeight={700}
            >
              {m.number}
            </text>
          </g>
        ))}
      </svg>
    </>
  );
}
