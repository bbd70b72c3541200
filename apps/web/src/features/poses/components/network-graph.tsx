import type { PoseEdge } from '@portal/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

interface NetworkGraphProps {
  nodes: ReadonlyArray<{ id: number; name: string }>;
  edges: readonly PoseEdge[];
  /** Poses of a planned transition, highlighted in order. */
  highlight?: readonly number[];
  size?: number;
}

const R_NODE = 26;

/** The network drawn with its poses on a circle; arrows show the allowed direction(s). */
export function NetworkGraph({ nodes, edges, highlight = [], size = 360 }: NetworkGraphProps) {
  const { t } = useTranslation();
  const uid = useId().replace(/:/g, '');
  const c = size / 2;
  const radius = nodes.length <= 1 ? 0 : c - R_NODE - 40;
  const pos = new Map(
    nodes.map((n, i) => {
      const a = (2 * Math.PI * i) / Math.max(nodes.length, 1) - Math.PI / 2;
      return [n.id, { x: c + radius * Math.cos(a), y: c + radius * Math.sin(a) }];
    }),
  );
  const onPath = (from: number, to: number) => {
    for (let i = 0; i + 1 < highlight.length; i++) {
      if (highlight[i] === from && highlight[i + 1] === to) return true;
      if (highlight[i] === to && highlight[i + 1] === from) return true;
    }
    return false;
  };
  return (
    <svg
      role="img"
      aria-label={t('poseNetworks.graphLabel')}
      viewBox={`0 0 ${size} ${size}`}
      width="100%"
      style={{ maxWidth: size, background: 'var(--mantine-color-default-hover)', borderRadius: 8 }}
      data-testid="network-graph"
    >
      <defs>
        {['n', 'h'].map((k) => (
          <marker
            key={k}
            id={`${uid}-arrow-${k}`}
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path
              d="M0,0 L10,5 L0,10 z"
              fill={k === 'h' ? 'var(--mantine-color-orange-6)' : 'var(--mantine-color-gray-6)'}
            />
          </marker>
        ))}
      </defs>
      {edges.map((e, i) => {
        const a = pos.get(e.from);
        const b = pos.get(e.to);
        if (!a || !b) return null;
        const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
        const ux = (b.x - a.x) / len;
        const uy = (b.y - a.y) / len;
        const hot = onPath(e.from, e.to);
        const marker = `url(#${uid}-arrow-${hot ? 'h' : 'n'})`;
        return (
          <line
            key={i}
            x1={a.x + ux * (R_NODE + 2)}
            y1={a.y + uy * (R_NODE + 2)}
            x2={b.x - ux * (R_NODE + 2)}
            y2={b.y - uy * (R_NODE + 2)}
            stroke={hot ? 'var(--mantine-color-orange-6)' : 'var(--mantine-color-gray-6)'}
            strokeWidth={hot ? 3.5 : 2}
            markerEnd={marker}
            markerStart={e.bidirectional ? marker : undefined}
            data-testid={`network-edge-${e.from}-${e.to}`}
          />
        );
      })}
      {nodes.map((n) => {
        const p = pos.get(n.id)!;
        const step = highlight.indexOf(n.id);
        return (
          <g key={n.id} data-testid={`network-node-${n.id}`}>
            <circle
              cx={p.x}
              cy={p.y}
              r={R_NODE}
              fill={step >= 0 ? 'var(--mantine-color-orange-1)' : 'var(--mantine-color-blue-1)'}
              stroke={step >= 0 ? 'var(--mantine-color-orange-6)' : 'var(--mantine-color-blue-6)'}
              strokeWidth={2.5}
            />
            <text
              x={p.x}
              y={p.y + 5}
              textAnchor="middle"
              fontSize={14}
              fontWeight={700}
              fill="var(--mantine-color-text)"
            >
              {step >= 0 ? step + 1 : ''}
            </text>
            <text
              x={p.x}
              y={p.y + (p.y > c ? R_NODE + 16 : -R_NODE - 8)}
              textAnchor="middle"
              fontSize={12}
              fill="var(--mantine-color-text)"
            >
              {n.name.length > 16 ? `${n.name.slice(0, 15)}…` : n.name}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
